// The desktop client end to end, under Xvfb: a real xiangqi-server, two client windows driven by
// real input (xdotool clicks on the lobby and the board) playing a short game to checkmate, and a
// third client watching. The final state is checked through the server; screenshots (the lobby,
// a piece selected with its destinations, the result panel) are saved under the build folder.

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fcntl.h>
#include <fstream>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sstream>
#include <thread>

#include "client/model/layout.h"
#include "client/net/local_server.h"
#include "common/iccs.h"
#include "common/pgn.h"
#include "support/test_client.h"

extern char** environ;

namespace xq::client {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr float kWidth = 1000, kHeight = 700;
const fs::path kShots = XQ_SCREENSHOT_DIR;

// Runs a shell command and returns its standard output (trimmed), or nullopt when it fails.
std::optional<std::string> run(const std::string& command) {
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return std::nullopt;
    std::string out;
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
    if (::pclose(pipe) != 0) return std::nullopt;
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
}

// How a client window is started: its size, and whether it plays sounds, its stderr kept in a file.
struct WindowOptions {
    int width = static_cast<int>(kWidth);
    int height = static_cast<int>(kHeight);
    bool sound = false;
    fs::path stderr_to;  // empty: the test's own stderr
};

// One xiangqi-client process and its window.
class ClientWindow {
public:
    ClientWindow(const std::string& name, std::uint16_t port, const WindowOptions& options = {}) : name_(name) {
        const std::string connect = "127.0.0.1:" + std::to_string(port);
        std::vector<std::string> args = {XQ_CLIENT_BIN, "--connect", connect, "--name", name,
                                         "--size", std::to_string(options.width) + "x" + std::to_string(options.height),
                                         "--position", "0,0", "--screenshot-dir", kShots.string()};
        if (!options.sound) args.emplace_back("--mute");
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t files;
        ::posix_spawn_file_actions_init(&files);
        if (!options.stderr_to.empty())
            ::posix_spawn_file_actions_addopen(&files, 2, options.stderr_to.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        // Without a window manager xdotool finds windows by class, not by title or pid: ours is
        // the client window that was not there before the spawn.
        const auto before = run("xdotool search --classname xiangqi-client 2>/dev/null").value_or("");
        EXPECT_EQ(::posix_spawn(&pid_, XQ_CLIENT_BIN, &files, nullptr, argv.data(), environ), 0);
        int spawns = 1;
        for (int i = 0; i < 100 && window_.empty(); ++i) {
            const auto now = run("xdotool search --classname xiangqi-client 2>/dev/null").value_or("");
            std::istringstream ids(now);
            for (std::string id; ids >> id;)
                if (before.find(id) == std::string::npos) window_ = id;
            if (!window_.empty()) break;
            // Once in a CI run the client could not connect to a just-started Xvfb ("Failed to
            // open X11 display") and exited at once: that is the display, not the client, so
            // one more start is allowed, and said.
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_ && spawns++ == 1) {
                std::fprintf(stderr, "%s's client exited before its window appeared (status %d); starting it again\n",
                             name.c_str(), status);
                EXPECT_EQ(::posix_spawn(&pid_, XQ_CLIENT_BIN, &files, nullptr, argv.data(), environ), 0);
            }
            std::this_thread::sleep_for(100ms);
        }
        ::posix_spawn_file_actions_destroy(&files);
        EXPECT_FALSE(window_.empty()) << "no window for " << name;
        std::this_thread::sleep_for(500ms);  // the first frames
    }
    ~ClientWindow() {
        ::kill(pid_, SIGTERM);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }

    // A real click at window coordinates, with the window raised above the others first.
    void click(Point p) {
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " mousemove --window " + window_ + " " +
                        std::to_string(static_cast<int>(p.x)) + " " + std::to_string(static_cast<int>(p.y)) +
                        " click 1"));
        std::this_thread::sleep_for(150ms);  // a frame or two to see the click
    }
    void click_square(const std::string& square, bool flipped, float width = kWidth, float height = kHeight) {
        const BoardGeometry g(game_layout(width, height).board, flipped);
        click(g.center(*parse_square(square)));
    }
    // Text typed into the focused field, then Enter if asked.
    void type(const std::string& text, bool enter = false) {
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " windowfocus --sync " + window_ + " type --delay 30 '" + text + "'"));
        if (enter) {
            ASSERT_TRUE(run("xdotool key Return"));
        }
        std::this_thread::sleep_for(200ms);
    }
    // Wheel notches over p: positive scrolls the content down (the wheel turned towards the player).
    void wheel(Point p, int notches) {
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " mousemove --window " + window_ + " " +
                        std::to_string(static_cast<int>(p.x)) + " " + std::to_string(static_cast<int>(p.y)) +
                        " click --repeat " + std::to_string(std::abs(notches)) + " --delay 40 " + (notches > 0 ? "5" : "4")));
        std::this_thread::sleep_for(200ms);
    }
    const std::string& window() const { return window_; }
    // F12 saves <shots>/<name>-N.png; copies it to <shots>/<as>.png.
    void screenshot(const std::string& as) {
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " windowfocus --sync " + window_ + " key F12"));
        const fs::path saved = kShots / (name_ + "-" + std::to_string(++shots_) + ".png");
        for (int i = 0; i < 50 && !fs::exists(saved); ++i) std::this_thread::sleep_for(100ms);
        ASSERT_TRUE(fs::exists(saved)) << saved;
        std::this_thread::sleep_for(200ms);  // let the file be written completely
        fs::copy_file(saved, kShots / (as + ".png"), fs::copy_options::overwrite_existing);
    }
    bool running() { return ::waitpid(pid_, nullptr, WNOHANG) == 0; }

private:
    std::string name_;
    pid_t pid_ = 0;
    std::string window_;
    int shots_ = 0;
};

// The lobby's buttons, where LobbyScreen puts them in a 1000 x 700 window.
constexpr Point kColourRed{834, 176};
constexpr Point kCreateGame{796, 263};
constexpr Point kFirstOpenJoin{528, 166};
constexpr Point kFirstLiveWatch{528, 246};

template <class T>
std::optional<T> wait_for_body(test::TestClient& c, std::chrono::seconds limit = 10s) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end)
        if (auto m = c.next())
            if (auto* body = std::get_if<T>(&m->body)) return *body;
    return std::nullopt;
}

TEST(ClientEndToEnd, TwoWindowsPlayToCheckmateWhileAThirdWatches) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "needs an X display (./xq test runs under xvfb-run)";
    ASSERT_TRUE(run("command -v xdotool")) << "xdotool is missing";
    fs::create_directories(kShots);
    for (const auto& entry : fs::directory_iterator(kShots)) fs::remove(entry.path());
    const fs::path dir = fs::temp_directory_path() / ("xq-e2e-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    LocalServerOptions options;
    options.binary = XQ_SERVER_BIN_PATH;
    options.db = dir / "games.db";
    options.name = "e2e";
    auto server = LocalServer::start(options);
    ASSERT_TRUE(server) << server.error();

    // Red creates a game by clicking through the lobby.
    ClientWindow alice("alice", server->port());
    alice.screenshot("lobby");
    alice.click(kColourRed);
    alice.click(kCreateGame);
    test::TestClient referee(server->port());
    referee.hello("referee");
    proto::GameId id = 0;
    for (int i = 0; i < 50 && id == 0; ++i) {
        const auto list = referee.call(proto::ListGames{});
        if (const auto* games = std::get_if<proto::GameList>(&list.body); games && !games->open.empty()) {
            EXPECT_EQ(games->open[0].host, "alice");
            EXPECT_EQ(games->open[0].host_color, proto::ColorChoice::Red);
            id = games->open[0].game_id;
        } else {
            std::this_thread::sleep_for(100ms);
        }
    }
    ASSERT_NE(id, 0u) << "alice's click did not create a game";

    // Black joins from its lobby, then a third client watches from the live list.
    ClientWindow bob("bob", server->port());
    std::this_thread::sleep_for(1s);  // the lobby has listed alice's game
    // A slow client (a sanitized build) may not have drawn the list yet when the first click
    // lands; a click on an empty row does nothing, so click again until the game starts.
    std::optional<proto::Snapshot> snapshot;
    for (int click = 0; click < 10 && !snapshot; ++click) {
        bob.click(kFirstOpenJoin);
        for (int i = 0; i < 10; ++i) {
            const auto reply = referee.call(proto::WatchGame{id, ""});
            if (const auto* s = std::get_if<proto::Snapshot>(&reply.body); s && s->status == proto::GameStatus::Playing) {
                snapshot = *s;
                break;
            }
            std::this_thread::sleep_for(100ms);
        }
    }
    ASSERT_TRUE(snapshot) << "bob's click did not start the game";
    EXPECT_EQ(snapshot->black.name, "bob");
    ClientWindow carol("carol", server->port());
    std::this_thread::sleep_for(1s);
    carol.click(kFirstLiveWatch);

    // The five-ply mate, every move a pair of real clicks; the referee sees each one land.
    const std::array<std::string, 5> line = {"b2b4", "a6a5", "b4c4", "f9e8", "c4c9"};
    for (std::size_t ply = 0; ply < line.size(); ++ply) {
        ClientWindow& mover = ply % 2 == 0 ? alice : bob;
        const bool flipped = ply % 2 == 1;  // Black's board is turned
        mover.click_square(line[ply].substr(0, 2), flipped);
        if (ply == 4) alice.screenshot("selected");  // the cannon picked up, its points shown
        mover.click_square(line[ply].substr(2, 2), flipped);
        const auto made = wait_for_body<proto::MoveMade>(referee);
        if (!made) mover.screenshot("failed-move");
        ASSERT_TRUE(made) << "move " << ply + 1 << " (" << line[ply] << ") never reached the server";
        EXPECT_EQ(made->move, line[ply]);
        EXPECT_EQ(made->ply, ply + 1);
    }
    const auto ended = wait_for_body<proto::GameEnded>(referee);
    ASSERT_TRUE(ended);
    EXPECT_EQ(ended->outcome.result, proto::GameResult::RedWins);
    EXPECT_EQ(ended->outcome.reason, "checkmate");
    std::this_thread::sleep_for(500ms);
    alice.screenshot("result");
    carol.screenshot("spectator");
    bob.screenshot("loser");

    // Through the server: the archived game is the line played, and every client is still up.
    const auto archived = referee.call(proto::GetArchived{id});
    const auto* game = std::get_if<proto::ArchivedGame>(&archived.body);
    ASSERT_TRUE(game);
    EXPECT_EQ(game->moves, std::vector<std::string>(line.begin(), line.end()));
    EXPECT_TRUE(alice.running());
    EXPECT_TRUE(bob.running());
    EXPECT_TRUE(carol.running());
    // The spectator's window followed: its own screenshot exists, and it never crashed.
    EXPECT_TRUE(fs::exists(kShots / "spectator.png"));
    fs::remove_all(dir);
}

Point center(const Rect& r) { return {r.x + r.w / 2, r.y + r.h / 2}; }

// Clicks Save PGN and reads the file the client writes into the screenshot folder.
std::optional<PgnGame> saved_pgn(ClientWindow& window, const PanelLayout& panel) {
    std::set<fs::path> before;
    for (const auto& e : fs::directory_iterator(kShots)) before.insert(e.path());
    window.click(center(panel.button(2, 2)));
    for (int i = 0; i < 50; ++i) {
        for (const auto& e : fs::directory_iterator(kShots))
            if (e.path().extension() == ".pgn" && !before.contains(e.path())) {
                std::this_thread::sleep_for(200ms);
                std::ifstream in(e.path(), std::ios::binary);
                const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
                auto games = read_pgn(text);
                if (games.empty() || !games[0].ok()) return std::nullopt;
                return games[0].game;
            }
        std::this_thread::sleep_for(100ms);
    }
    return std::nullopt;
}

// Issue 17: at 790 x 520 the lobby's right column was cut off. In the smallest window the client
// allows, every control is reached with real clicks: the lobby's bar (the computer's level, a game
// against it, hotseat, disconnect), the private join form (scrolled into view), and in a game the
// move list, chat, a draw offer and resigning with its confirmation; a spectator's and a replay's
// screens are photographed. Sounds are on, under Xvfb with no audio device: the client says so
// once on stderr and then nothing more.
TEST(ClientEndToEnd, EveryControlIsReachableInTheSmallestWindow) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "needs an X display (./xq test runs under xvfb-run)";
    ASSERT_TRUE(run("command -v xdotool")) << "xdotool is missing";
    fs::create_directories(kShots);
    const fs::path dir = fs::temp_directory_path() / ("xq-e2e-small-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    LocalServerOptions options;
    options.binary = XQ_SERVER_BIN_PATH;
    options.db = dir / "games.db";
    options.name = "small";
    auto server = LocalServer::start(options);
    ASSERT_TRUE(server) << server.error();

    const float w = kMinWidth, h = kMinHeight;
    const fs::path errors = dir / "ann.stderr";
    ClientWindow ann("ann", server->port(), {static_cast<int>(w), static_cast<int>(h), true, errors});
    std::this_thread::sleep_for(1s);
    // Made smaller than the least size, the window takes that size back.
    ASSERT_TRUE(run("xdotool windowsize " + ann.window() + " 500 360"));
    std::this_thread::sleep_for(700ms);
    EXPECT_EQ(run("xdotool getwindowgeometry " + ann.window() + " | grep Geometry"), "  Geometry: 640x480");
    ann.screenshot("small-lobby");
    const LobbyLayout lobby = lobby_layout(w, h);
    const auto bar = lobby.bar_buttons();
    const Rect panel_rect = game_layout(w, h).panel;

    // The computer's level, 3 to 4, then a game against it on this machine (the server keeps no
    // computer players): the first move is clicked and the computer answers.
    ann.click(center(bar[1]));
    ann.click(center(bar[2]));
    std::this_thread::sleep_for(1500ms);
    const PanelLayout offline = panel_layout(panel_rect, false, 0);
    std::optional<PgnGame> pgn;
    // The engine starts with the game: a loaded machine may drop the first clicks, so they are
    // repeated until the move is in the record.
    for (int attempt = 0; attempt < 3 && !(pgn && !pgn->moves.empty()); ++attempt) {
        ann.click_square("h2", false, w, h);
        ann.click_square("e2", false, w, h);
        std::this_thread::sleep_for(500ms);
        pgn = saved_pgn(ann, offline);
    }
    for (int i = 0; i < 20 && pgn && pgn->moves.size() < 2; ++i) {
        std::this_thread::sleep_for(500ms);
        pgn = saved_pgn(ann, offline);
    }
    ASSERT_TRUE(pgn && pgn->moves.size() >= 2) << "no game against the computer with its answer";
    EXPECT_EQ(pgn->tag("Event"), "Game against the computer");
    EXPECT_EQ(pgn->tag("Black"), "Computer (level 4)");
    EXPECT_EQ(to_iccs(pgn->moves[0]), "h2e2");
    std::this_thread::sleep_for(5500ms);  // the "saved" toast fades: the picture shows the game
    ann.screenshot("small-computer");
    // Resign asks first: the first click arms, the second resigns.
    ann.click(center(offline.button(0, 0)));
    ann.click(center(offline.button(0, 0)));
    std::this_thread::sleep_for(300ms);
    pgn = saved_pgn(ann, offline);
    ASSERT_TRUE(pgn);
    EXPECT_EQ(pgn->result, "0-1");
    ann.click(center(offline.button(2, 3)));  // Leave: back to the lobby
    std::this_thread::sleep_for(500ms);

    // Hotseat: one move each, then a draw (agreed at once on one screen).
    ann.click(center(bar[0]));
    std::this_thread::sleep_for(500ms);
    for (const char* move : {"h2e2", "b9c7"}) {
        ann.click_square(std::string(move).substr(0, 2), false, w, h);
        ann.click_square(std::string(move).substr(2, 2), false, w, h);
    }
    std::this_thread::sleep_for(5500ms);
    ann.screenshot("small-hotseat");
    ann.click(center(offline.button(0, 1)));
    std::this_thread::sleep_for(300ms);
    pgn = saved_pgn(ann, offline);
    ASSERT_TRUE(pgn);
    EXPECT_EQ(pgn->tag("Event"), "Hotseat game");
    EXPECT_EQ(pgn->moves.size(), 2u);
    EXPECT_EQ(pgn->result, "1/2-1/2");
    ann.click(center(offline.button(2, 3)));
    std::this_thread::sleep_for(500ms);

    // A private game, joined through the form at the foot of the scrolled column.
    test::TestClient host(server->port());
    host.hello("host");
    const auto created = host.call(proto::CreateGame{{5, 3, std::nullopt}, proto::ColorChoice::Red, true});
    const auto* seated = std::get_if<proto::Seated>(&created.body);
    ASSERT_TRUE(seated && !seated->join_code.empty());
    ann.wheel(center(lobby.forms), 12);
    const LobbyForms unscrolled = lobby_forms(lobby.forms, lobby.forms.y);
    const float hidden = std::max(0.0f, unscrolled.bottom - (lobby.forms.y + lobby.forms.h));
    const LobbyForms forms = lobby_forms(lobby.forms, lobby.forms.y - hidden);
    ann.screenshot("small-lobby-scrolled");
    ann.click(center(forms.game_field));
    ann.type(std::to_string(seated->game_id));
    ann.click(center(forms.code_field));
    ann.type(seated->join_code);
    ann.click(center(forms.join_button));
    ASSERT_TRUE(wait_for_body<proto::GameStarted>(host)) << "ann's join did not start the private game";
    const proto::GameId id = seated->game_id;

    // ann plays Black: her board is turned. One move each.
    std::this_thread::sleep_for(500ms);
    host.send(proto::MakeMove{id, "h2e2", 1, 0});
    ASSERT_TRUE(wait_for_body<proto::MoveMade>(host));
    std::this_thread::sleep_for(300ms);
    ann.click_square("b9", true, w, h);
    ann.click_square("c7", true, w, h);
    const auto answered = wait_for_body<proto::MoveMade>(host);
    ASSERT_TRUE(answered) << "ann's move never reached the server";
    EXPECT_EQ(answered->move, "b9c7");
    const PanelLayout playing = panel_layout(panel_rect, true, 0);
    ann.click(center(playing.chat_input()));
    ann.type("hello from a small window", true);
    const auto said = wait_for_body<proto::ChatLine>(host);
    ASSERT_TRUE(said) << "the chat line never reached the server";
    EXPECT_EQ(said->text, "hello from a small window");
    // The move list: the first move clicked shows the board after it.
    ann.click({playing.moves.x + 70, playing.moves.y + 16});
    ann.screenshot("small-move-list");
    ann.click(center(playing.button(1, 3)));  // >|: back to the game
    ann.click(center(playing.button(0, 1)));  // Offer draw
    const auto offered = wait_for_body<proto::OfferMade>(host);
    ASSERT_TRUE(offered) << "the draw offer never reached the server";
    EXPECT_EQ(offered->offer.kind, proto::OfferKind::Draw);
    std::this_thread::sleep_for(300ms);
    ann.screenshot("small-offer");
    // Her own offer takes a row: the buttons sit lower now.
    const PanelLayout offering = panel_layout(panel_rect, true, 1);
    ann.click(center(offering.button(0, 0)));
    ann.click(center(offering.button(0, 0)));
    const auto ended = wait_for_body<proto::GameEnded>(host);
    ASSERT_TRUE(ended) << "resigning did not end the game";
    EXPECT_EQ(ended->outcome.result, proto::GameResult::RedWins);
    EXPECT_EQ(ended->outcome.reason, "resignation");
    std::this_thread::sleep_for(500ms);
    ann.screenshot("small-result");

    // A spectator's window on a game two others play.
    test::TestClient red(server->port()), black(server->port());
    red.hello("red");
    black.hello("black");
    const auto open = red.call(proto::CreateGame{{5, 3, std::nullopt}, proto::ColorChoice::Red, false});
    const auto* open_seat = std::get_if<proto::Seated>(&open.body);
    ASSERT_TRUE(open_seat);
    black.call(proto::JoinGame{open_seat->game_id, ""});
    red.send(proto::MakeMove{open_seat->game_id, "b2e2", 1, 0});
    ClientWindow carol("carol", server->port(), {static_cast<int>(w), static_cast<int>(h), false, {}});
    std::this_thread::sleep_for(1500ms);
    // No open game: the live list starts after "None yet" (one row) and its own heading.
    const float row_h = lobby.lists.w < 480 ? 46 : 40;
    const float live_y = lobby.lists.y + 44 + 28 + row_h + 12 + 28;
    carol.click({lobby.lists.x + lobby.lists.w - 30, live_y + row_h / 2 - 2});
    std::optional<proto::GameSummary> watched;
    for (int i = 0; i < 30 && !watched; ++i) {
        const auto list = red.call(proto::ListGames{});
        if (const auto* games = std::get_if<proto::GameList>(&list.body); games && !games->live.empty() &&
                                                                          games->live[0].spectators > 0)
            watched = games->live[0];
        else
            std::this_thread::sleep_for(100ms);
    }
    ASSERT_TRUE(watched) << "carol's click on Watch did not reach the server";
    carol.screenshot("small-spectator");

    // ann, back in the lobby: the archive and a replay, then Disconnect.
    ann.click(center(playing.button(2, 3)));
    std::this_thread::sleep_for(500ms);
    ann.click(center(lobby.tabs()[1]));
    std::this_thread::sleep_for(800ms);
    ann.screenshot("small-archive");
    ann.click({lobby.lists.x + lobby.lists.w - 30, lobby.lists.y + 44 + 28 + row_h / 2 - 2});
    std::this_thread::sleep_for(800ms);
    ann.screenshot("small-replay");
    ann.click(center(panel_layout(panel_rect, true, 0).button(2, 3)));
    std::this_thread::sleep_for(500ms);
    ann.click(center(bar[3]));
    std::this_thread::sleep_for(500ms);
    ann.screenshot("small-start");
    EXPECT_TRUE(ann.running());
    EXPECT_TRUE(carol.running());

    // Moves, captures and the game's end all played sounds with no audio device: at most one line.
    std::ifstream in(errors);
    int audio_lines = 0;
    std::string all;
    for (std::string line; std::getline(in, line);) {
        all += line + "\n";
        if (line.find("OpenAL") != std::string::npos || line.find("audio") != std::string::npos ||
            line.find("AL lib") != std::string::npos || line.find("sound") != std::string::npos)
            ++audio_lines;
    }
    EXPECT_LE(audio_lines, 1) << all;
    fs::remove_all(dir);
}

}  // namespace
}  // namespace xq::client
