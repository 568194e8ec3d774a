// The desktop client end to end, under Xvfb: a real xiangqi-server, two client windows driven by
// real input (xdotool clicks on the lobby and the board) playing a short game to checkmate, and a
// third client watching; a client killed mid-game and started again returning to its game. The final state is checked through the server; screenshots (the lobby,
// a piece selected with its destinations, the result panel) are saved under the build folder.

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sstream>
#include <thread>

#include "client/model/layout.h"
#include "client/net/local_server.h"
#include "client/profile/profile_store.h"
#include "common/iccs.h"
#include "common/pgn.h"
#include "support/test_client.h"

#include <X11/Xlib.h>  // last: its macros (None, Status, Bool) would clash with the headers above
#include <X11/Xutil.h>

extern char** environ;

namespace xq::client {
namespace {

// The lobby's time-control picker as it starts: its height places the forms under it.
const TimeControlPicker kLobbyPicker{false, kLobbyDefaultControl};

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

// How a client window is started: its size, whether it plays sounds, its stderr kept in a file,
// and its name given or (as after a crash) taken from the profile it saved.
struct WindowOptions {
    int width = static_cast<int>(kWidth);
    int height = static_cast<int>(kHeight);
    bool sound = false;
    fs::path stderr_to;  // empty: the test's own stderr
    bool give_name = true;
};

// A client started as after a crash: no --name, the profile's.
WindowOptions restarted() {
    WindowOptions options;
    options.give_name = false;
    return options;
}

WindowOptions sized(float width, float height, bool sound = false, const fs::path& stderr_to = {}) {
    WindowOptions options;
    options.width = static_cast<int>(width);
    options.height = static_cast<int>(height);
    options.sound = sound;
    options.stderr_to = stderr_to;
    return options;
}

// One xiangqi-client process and its window. Its state goes to `config`, never to ~/.config.
class ClientWindow {
public:
    ClientWindow(const std::string& name, std::uint16_t port, const fs::path& config, const WindowOptions& options = {})
        : ClientWindow(name, {"--connect", "127.0.0.1:" + std::to_string(port)}, config, options) {}
    // `mode`: how it starts instead of connecting, e.g. {"--hotseat"}.
    ClientWindow(const std::string& name, const std::vector<std::string>& mode, const fs::path& config,
                 const WindowOptions& options = {})
        : name_(name) {
        std::vector<std::string> args = {XQ_CLIENT_BIN};
        args.insert(args.end(), mode.begin(), mode.end());
        args.insert(args.end(), {"--size", std::to_string(options.width) + "x" + std::to_string(options.height),
                                 "--position", "0,0", "--screenshot-dir", kShots.string(), "--config-dir",
                                 config.string()});
        if (options.give_name) args.insert(args.end(), {"--name", name});
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
        if (pid_ == 0) return;
        ::kill(pid_, SIGTERM);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    // Ends the process as a crash would: no chance to say goodbye or save anything.
    void kill_hard() {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = 0;
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
        const fs::path saved = kShots / (name_ + "-" + std::to_string(++shots_) + ".png");
        fs::remove(saved);  // an earlier window of the same name may have left one
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " windowfocus --sync " + window_ + " key F12"));
        for (int i = 0; i < 50 && !fs::exists(saved); ++i) std::this_thread::sleep_for(100ms);
        ASSERT_TRUE(fs::exists(saved)) << saved;
        std::this_thread::sleep_for(200ms);  // let the file be written completely
        fs::copy_file(saved, kShots / (as + ".png"), fs::copy_options::overwrite_existing);
    }
    bool running() { return ::waitpid(pid_, nullptr, WNOHANG) == 0; }
    // Keys as xdotool names them ("Return", "ctrl+s", "Right Right"), to the focused window.
    void keys(const std::string& names) {
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " windowfocus --sync " + window_ + " key --delay 60 " + names));
        std::this_thread::sleep_for(300ms);
    }

private:
    std::string name_;
    pid_t pid_ = 0;
    std::string window_;
    int shots_ = 0;
};

Point center(const Rect& r) { return {r.x + r.w / 2, r.y + r.h / 2}; }

// The lobby's buttons, where LobbyScreen puts them in a 1000 x 700 window (its forms unscrolled,
// the time-control picker on a preset).
const LobbyForms kForms = lobby_forms(lobby_layout(kWidth, kHeight).forms, lobby_layout(kWidth, kHeight).forms.y,
                                      kLobbyPicker, false);
const Point kThreePlusTwo = center(TimeControlPicker::cell(kForms.picker, 2));  // 1+0, 3+0, 3+2, ...
const Point kCustom = center(TimeControlPicker::cell(kForms.picker, standard_time_controls().size()));
const Point kColourRed = center(row_cells<3>(kForms.colour_row, 6)[1]);
const Point kCreateGame = center(kForms.create);
constexpr Point kFirstOpenJoin{528, 166};
constexpr Point kFirstLiveWatch{528, 246};
// The Archive tab, and its player filter beside the heading (the list unscrolled, wide enough).
const Point kArchiveTab = center(lobby_layout(kWidth, kHeight).tabs()[1]);
const Point kArchivePlayerField{lobby_layout(kWidth, kHeight).lists.x + lobby_layout(kWidth, kHeight).lists.w - 300 + 95,
                                lobby_layout(kWidth, kHeight).lists.y + 44 - 4 + 15};

template <class T>
std::optional<T> wait_for_body(test::TestClient& c, std::chrono::seconds limit = 10s) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end)
        if (auto m = c.next())
            if (auto* body = std::get_if<T>(&m->body)) return *body;
    return std::nullopt;
}

// A real server in a folder of its own (its database, the clients' config folders) and a
// referee: a test client that watches the game and sees every move land.
class ClientEndToEnd : public ::testing::Test {
protected:
    void SetUp() override {
        if (!std::getenv("DISPLAY")) GTEST_SKIP() << "needs an X display (./xq test runs under xvfb-run)";
        ASSERT_TRUE(run("command -v xdotool")) << "xdotool is missing";
        // Screenshots are not cleared: CTest runs each test in a process of its own, and every
        // test's pictures are kept side by side (each name is written anew by its test).
        fs::create_directories(kShots);
        dir_ = fs::temp_directory_path() /
               ("xq-e2e-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
        LocalServerOptions options;
        options.binary = XQ_SERVER_BIN_PATH;
        options.db = dir_ / "games.db";
        options.name = "e2e";
        options.extra_args = server_args();
        auto started = LocalServer::start(options);
        ASSERT_TRUE(started) << started.error();
        server_.emplace(std::move(*started));
        referee_.emplace(server_->port());
        referee_->hello("referee");
    }
    void TearDown() override {
        referee_.reset();
        server_.reset();
        std::error_code ignored;
        if (!std::getenv("XQ_KEEP")) fs::remove_all(dir_, ignored);
    }
    std::uint16_t port() const { return server_->port(); }
    // More options for the fixture's server.
    virtual std::vector<std::string> server_args() const { return {}; }

    // Red creates a game by clicking through its lobby; the game's id, as the server lists it.
    proto::GameId create_by_clicks(ClientWindow& red, const std::string& host) {
        red.click(kColourRed);
        red.click(kCreateGame);
        for (int i = 0; i < 50; ++i) {
            const auto list = referee_->call(proto::ListGames{});
            if (const auto* games = std::get_if<proto::GameList>(&list.body); games && !games->open.empty()) {
                EXPECT_EQ(games->open[0].host, host);
                EXPECT_EQ(games->open[0].host_color, proto::ColorChoice::Red);
                return games->open[0].game_id;
            }
            std::this_thread::sleep_for(100ms);
        }
        return 0;
    }

    // Black joins from its lobby; the referee watches from then on. A slow client (a sanitized
    // build) may not have drawn the list yet when the first click lands; a click on an empty row
    // does nothing, so click again until the game starts.
    std::optional<proto::Snapshot> join_by_clicks(ClientWindow& black, proto::GameId id) {
        std::this_thread::sleep_for(1s);  // the lobby has listed the game
        for (int click = 0; click < 10; ++click) {
            black.click(kFirstOpenJoin);
            for (int i = 0; i < 10; ++i) {
                const auto reply = referee_->call(proto::WatchGame{id, ""});
                if (const auto* s = std::get_if<proto::Snapshot>(&reply.body); s && s->status == proto::GameStatus::Playing)
                    return *s;
                std::this_thread::sleep_for(100ms);
            }
        }
        return std::nullopt;
    }

    // A move as two real clicks (`between` runs with the piece picked up); the referee's word
    // that it reached the server. The referee may hear of the previous move before the mover's
    // window has drawn it, and a click before its turn does nothing: then the clicks are repeated.
    std::optional<proto::MoveMade> move_by_clicks(ClientWindow& mover, const std::string& move, bool flipped,
                                                  const std::function<void()>& between = {}) {
        for (int attempt = 0; attempt < 3; ++attempt) {
            mover.click_square(move.substr(0, 2), flipped);
            if (between && attempt == 0) between();
            mover.click_square(move.substr(2, 2), flipped);
            if (auto made = wait_for_body<proto::MoveMade>(*referee_, 4s)) return made;
        }
        mover.screenshot("failed-move");
        return std::nullopt;
    }

    fs::path dir_;
    std::optional<LocalServer> server_;
    std::optional<test::TestClient> referee_;
};

TEST_F(ClientEndToEnd, TwoWindowsPlayToCheckmateWhileAThirdWatches) {
    // Red creates a 3+2 game by clicking through the lobby: a preset of the time-control picker
    // (Custom looked at on the way, then left).
    ClientWindow alice("alice", port(), dir_ / "alice");
    alice.screenshot("lobby");
    alice.click(kCustom);
    alice.screenshot("lobby-picker-custom");
    alice.click(kThreePlusTwo);
    alice.screenshot("lobby-picker");
    const proto::GameId id = create_by_clicks(alice, "alice");
    ASSERT_NE(id, 0u) << "alice's click did not create a game";
    const auto listed = referee_->call(proto::ListGames{});
    const auto* games = std::get_if<proto::GameList>(&listed.body);
    ASSERT_TRUE(games && !games->open.empty());
    EXPECT_EQ(games->open[0].time_control, (proto::TimeControl{3, 2, std::nullopt}));

    // Black joins from its lobby, then a third client watches from the live list.
    ClientWindow bob("bob", port(), dir_ / "bob");
    const auto snapshot = join_by_clicks(bob, id);
    ASSERT_TRUE(snapshot) << "bob's click did not start the game";
    EXPECT_EQ(snapshot->black.name, "bob");
    ClientWindow carol("carol", port(), dir_ / "carol");
    std::this_thread::sleep_for(1s);
    carol.click(kFirstLiveWatch);

    // The five-ply mate, every move a pair of real clicks; the referee sees each one land.
    const std::array<std::string, 5> line = {"b2b4", "a6a5", "b4c4", "f9e8", "c4c9"};
    for (std::size_t ply = 0; ply < line.size(); ++ply) {
        ClientWindow& mover = ply % 2 == 0 ? alice : bob;
        const bool flipped = ply % 2 == 1;  // Black's board is turned
        // At the mate, the cannon picked up with its points shown.
        const auto made = move_by_clicks(mover, line[ply], flipped, [&] {
            if (ply == 4) alice.screenshot("selected");
        });
        ASSERT_TRUE(made) << "move " << ply + 1 << " (" << line[ply] << ") never reached the server";
        EXPECT_EQ(made->move, line[ply]);
        EXPECT_EQ(made->ply, ply + 1);
    }
    const auto ended = wait_for_body<proto::GameEnded>(*referee_);
    ASSERT_TRUE(ended);
    EXPECT_EQ(ended->outcome.result, proto::GameResult::RedWins);
    EXPECT_EQ(ended->outcome.reason, "checkmate");
    std::this_thread::sleep_for(500ms);
    alice.screenshot("result");
    carol.screenshot("spectator");
    bob.screenshot("loser");

    // Through the server: the archived game is the line played, and every client is still up.
    const auto archived = referee_->call(proto::GetArchived{id});
    const auto* game = std::get_if<proto::ArchivedGame>(&archived.body);
    ASSERT_TRUE(game);
    EXPECT_EQ(game->moves, std::vector<std::string>(line.begin(), line.end()));
    EXPECT_TRUE(alice.running());
    EXPECT_TRUE(bob.running());
    EXPECT_TRUE(carol.running());
    // The spectator's window followed: its own screenshot exists, and it never crashed.
    EXPECT_TRUE(fs::exists(kShots / "spectator.png"));

    // A fourth client's Archive tab: the game with its date, filtered by a name in capitals.
    ClientWindow dora("dora", port(), dir_ / "dora");
    dora.click(kArchiveTab);
    dora.click(kArchivePlayerField);
    dora.type("ALICE");
    dora.keys("Return");
    std::this_thread::sleep_for(500ms);
    dora.screenshot("lobby-archive");
    EXPECT_TRUE(dora.running());
}

// A player's client is killed mid-game (SIGKILL: nothing saved at the end) and started again
// with the same config folder and no name: it finds its seat in its profile, goes back into the
// game by itself, and plays on; the opponent's client sees its move and answers.
TEST_F(ClientEndToEnd, KilledClientStartedAgainReturnsToItsGameAndPlaysOn) {
    ClientWindow alice("alice", port(), dir_ / "alice");
    const proto::GameId id = create_by_clicks(alice, "alice");
    ASSERT_NE(id, 0u) << "alice's click did not create a game";
    auto bob = std::make_unique<ClientWindow>("bob", port(), dir_ / "bob");
    ASSERT_TRUE(join_by_clicks(*bob, id)) << "bob's click did not start the game";
    for (std::size_t ply = 0; const char* move : {"h2e2", "h9g7", "h0g2"}) {
        const auto made = move_by_clicks(ply % 2 == 0 ? alice : *bob, move, ply % 2 == 1);
        ASSERT_TRUE(made) << move << " never reached the server";
        EXPECT_EQ(made->move, move);
        ++ply;
    }
    const Profile saved = ProfileStore(dir_ / "bob").load();
    const SavedSeat* seat = saved.seat_on("127.0.0.1:" + std::to_string(port()));
    ASSERT_NE(seat, nullptr) << "bob's seat was not saved";
    EXPECT_EQ(seat->game_id, id);
    EXPECT_EQ(seat->side, Color::Black);

    bob->kill_hard();
    const auto away = wait_for_body<proto::PlayerConnection>(*referee_);
    ASSERT_TRUE(away);
    EXPECT_EQ(away->side, proto::Side::Black);
    EXPECT_FALSE(away->player.connected);
    bob.reset();

    ClientWindow again("bob", port(), dir_ / "bob", restarted());
    const auto back = wait_for_body<proto::PlayerConnection>(*referee_, 20s);
    ASSERT_TRUE(back) << "the restarted client did not resume its seat";
    EXPECT_EQ(back->side, proto::Side::Black);
    EXPECT_TRUE(back->player.connected);
    std::this_thread::sleep_for(1s);  // the Snapshot drawn
    again.screenshot("returned");

    // Black's move from the restarted window; Red's window has it, since it can answer.
    const auto black_move = move_by_clicks(again, "b9c7", true);
    ASSERT_TRUE(black_move) << "the restarted client's move never reached the server";
    EXPECT_EQ(black_move->move, "b9c7");
    EXPECT_EQ(black_move->ply, 4u);
    const auto red_move = move_by_clicks(alice, "i0h0", false);
    ASSERT_TRUE(red_move) << "alice's window did not see the restarted client's move";
    EXPECT_EQ(red_move->move, "i0h0");
    const auto reply = referee_->call(proto::WatchGame{id, ""});
    const auto* snapshot = std::get_if<proto::Snapshot>(&reply.body);
    ASSERT_TRUE(snapshot);
    EXPECT_EQ(snapshot->moves, (std::vector<std::string>{"h2e2", "h9g7", "h0g2", "b9c7", "i0h0"}));
    EXPECT_TRUE(snapshot->black.connected);

    // A second client of the same user, while the first still plays: it does not take the seat,
    // but its lobby offers it; the first keeps playing.
    ClientWindow second("bob", port(), dir_ / "bob", restarted());
    std::this_thread::sleep_for(1500ms);
    second.screenshot("lobby-return");
    const auto still_mine = move_by_clicks(again, "a9b9", true);
    ASSERT_TRUE(still_mine) << "the second client took the seat from the first";
    EXPECT_EQ(still_mine->ply, 6u);
    EXPECT_TRUE(alice.running());
    EXPECT_TRUE(again.running());
    EXPECT_TRUE(second.running());
}

// A server that gives a disconnected player 3 s to come back.
class ClientGraceEndToEnd : public ClientEndToEnd {
protected:
    std::vector<std::string> server_args() const override { return {"--grace-seconds", "3"}; }
};

// Issue 17: "may return for 1:00" never moved, and Claim never appeared unless the client happened
// to reconnect. Now the opponent's window counts the grace down by itself and, at zero, offers the
// claim; a real click on Claim win ends the game on the server.
TEST_F(ClientGraceEndToEnd, TheCountdownReachesZeroAndClaimWins) {
    ClientWindow alice("alice", port(), dir_ / "alice");
    const proto::GameId id = create_by_clicks(alice, "alice");
    ASSERT_NE(id, 0u) << "alice's click did not create a game";
    auto bob = std::make_unique<ClientWindow>("bob", port(), dir_ / "bob");
    ASSERT_TRUE(join_by_clicks(*bob, id)) << "bob's click did not start the game";
    ASSERT_TRUE(move_by_clicks(alice, "h2e2", false));
    ASSERT_TRUE(move_by_clicks(*bob, "h9g7", true));
    bob->kill_hard();
    const auto away = wait_for_body<proto::PlayerConnection>(*referee_);
    ASSERT_TRUE(away);
    EXPECT_FALSE(away->player.connected);
    std::this_thread::sleep_for(1s);
    alice.screenshot("grace-countdown");
    std::this_thread::sleep_for(3s);  // the grace runs out with no event from anyone: only the clock
    alice.screenshot("grace-claim");
    // The claim row is the only offer row; "Claim win" is the first of its two buttons.
    const Rect row = panel_layout(game_layout(kWidth, kHeight).panel, true, 1).offers;
    const float bw = std::clamp(row.w * 0.24f, 64.0f, 94.0f), row_h = row.h - 6;
    // A slow window (a sanitized build on a loaded machine) may not show the row yet: click again.
    std::optional<proto::GameEnded> ended;
    for (int attempt = 0; attempt < 4 && !ended; ++attempt) {
        alice.click({row.x + row.w - 2 * bw - 10 + bw / 2, row.y + 5 + (row_h - 10) / 2});
        ended = wait_for_body<proto::GameEnded>(*referee_, 3s);
    }
    ASSERT_TRUE(ended) << "alice's click on Claim win did not end the game";
    EXPECT_EQ(ended->outcome.result, proto::GameResult::RedWins);
    EXPECT_TRUE(alice.running());
}

// The screen's colour at (x, y): what X shows there, not the window's own buffer (what F12 saves).
std::optional<unsigned long> screen_pixel(int x, int y) {
    Display* display = ::XOpenDisplay(nullptr);
    if (!display) return std::nullopt;
    XImage* image = ::XGetImage(display, DefaultRootWindow(display), x, y, 1, 1, AllPlanes, ZPixmap);
    std::optional<unsigned long> pixel;
    if (image) {
        pixel = XGetPixel(image, 0, 0);
        XDestroyImage(image);
    }
    ::XCloseDisplay(display);
    return pixel;
}

// The window draws only when something on it changes, yet what another window covered must come
// back when that window goes: SFML 2.5 drops Expose, which the client's ExposeWatch hears. The
// pointer is then off both windows, so no hover paints it instead.
TEST(ClientScreenEndToEnd, AnUncoveredWindowIsPaintedAgain) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "needs an X display (./xq test runs under xvfb-run)";
    ASSERT_TRUE(run("command -v xdotool")) << "xdotool is missing";
    const fs::path dir = fs::temp_directory_path() / ("xq-e2e-expose-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    LocalServerOptions options;
    options.binary = XQ_SERVER_BIN_PATH;
    options.db = dir / "games.db";
    auto server = LocalServer::start(options);
    ASSERT_TRUE(server) << server.error();
    ClientWindow lobby("uncovered", server->port(), dir / "uncovered");
    ASSERT_TRUE(run("xdotool mousemove --sync 1200 1000"));  // beside the 1000 x 700 windows
    std::this_thread::sleep_for(1s);
    constexpr int kX = 300, kY = 500;  // the lobby's empty list; the hotseat board's wood
    const auto shown = screen_pixel(kX, kY);
    ASSERT_TRUE(shown);
    {
        ClientWindow cover("cover", std::vector<std::string>{"--hotseat"}, dir / "cover");
        std::this_thread::sleep_for(1s);
        EXPECT_NE(screen_pixel(kX, kY), shown) << "the second window did not cover the first";
    }
    std::this_thread::sleep_for(1s);
    EXPECT_EQ(screen_pixel(kX, kY), shown) << "the uncovered window was not painted again";
    EXPECT_TRUE(lobby.running());
    fs::remove_all(dir);
}

// Clicks Save PGN, takes the name its dialog offers, and reads the file the client writes into the
// screenshot folder.
std::optional<PgnGame> saved_pgn(ClientWindow& window, const PanelLayout& panel) {
    std::set<fs::path> before;
    for (const auto& e : fs::directory_iterator(kShots)) before.insert(e.path());
    window.click(center(panel.button(2, 2)));
    window.keys("Return");  // the file dialog offers a new name in the screenshot folder
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
TEST(ClientScreenEndToEnd, EveryControlIsReachableInTheSmallestWindow) {
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
    ClientWindow ann("ann", server->port(), dir / "ann", sized(w, h, true, errors));
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
    const LobbyForms unscrolled = lobby_forms(lobby.forms, lobby.forms.y, kLobbyPicker, false);
    const float hidden = std::max(0.0f, unscrolled.bottom - (lobby.forms.y + lobby.forms.h));
    const LobbyForms forms = lobby_forms(lobby.forms, lobby.forms.y - hidden, kLobbyPicker, false);
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
    ClientWindow carol("carol", server->port(), dir / "carol", sized(w, h));
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

namespace xq::client {
namespace {

// The start screen's records buttons, right of the clock in the last row at its foot in a 1000 x 700
// window: "Open PGN…", "Set up a position…".
constexpr Point kOpenPgn{500, 640};
constexpr Point kSetUpPosition{690, 640};

// A Big5 file of two games, as old Taiwanese and Hong Kong archives are: opened through the file
// dialog (the path typed), the first game picked, replayed a few moves, then saved through the
// dialog: the saved file is UTF-8 with the record's tags and moves.
TEST(ClientScreenEndToEnd, OpensABig5RecordThroughTheFileDialogAndReplaysIt) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "needs an X display (./xq test runs under xvfb-run)";
    ASSERT_TRUE(run("command -v xdotool")) << "xdotool is missing";
    ASSERT_TRUE(run("command -v iconv")) << "iconv is missing";
    fs::create_directories(kShots);
    const fs::path dir = fs::temp_directory_path() / ("xq-e2e-records-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "records");
    const std::string utf8 =
        "[Game \"Chinese Chess\"]\n[Event \"全國象棋個人賽\"]\n[Date \"1990.05.01\"]\n[Red \"胡榮華\"]\n"
        "[Black \"呂欽\"]\n[Result \"1-0\"]\n\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n3. 車一平二 馬２進３\n1-0\n\n"
        "[Game \"Chinese Chess\"]\n[Event \"第二局\"]\n[Red \"柳大華\"]\n[Black \"李來群\"]\n[Result \"*\"]\n\n"
        "1. 相三進五 卒７進１\n*\n";
    { std::ofstream(dir / "utf8.txt", std::ios::binary) << utf8; }
    const fs::path big5 = dir / "records" / "big5-games.pgn";
    ASSERT_TRUE(run("iconv -f UTF-8 -t BIG5 " + (dir / "utf8.txt").string() + " > " + big5.string()));

    ClientWindow viewer("viewer", std::vector<std::string>{}, dir / "viewer");
    viewer.click(kOpenPgn);
    viewer.screenshot("records-open-dialog");
    viewer.type(big5.string());
    viewer.keys("Return");
    viewer.screenshot("records-pick-game");
    viewer.keys("Return");  // the first game is picked
    viewer.keys("Home Right Right Right");
    viewer.screenshot("records-replay");

    viewer.keys("ctrl+s");  // the dialog offers a name in the folder the record came from
    viewer.screenshot("records-save-dialog");
    viewer.keys("Return");
    fs::path saved;
    for (int i = 0; i < 30 && saved.empty(); ++i) {
        for (const auto& e : fs::directory_iterator(dir / "records"))
            if (e.path() != big5) saved = e.path();
        std::this_thread::sleep_for(100ms);
    }
    ASSERT_FALSE(saved.empty()) << "nothing was saved beside " << big5;
    std::this_thread::sleep_for(200ms);
    std::ifstream in(saved, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    EXPECT_TRUE(saved.filename().string().starts_with("胡榮華-呂欽-")) << saved;
    for (const char* part : {"[Event \"全國象棋個人賽\"]", "[Red \"胡榮華\"]", "[Black \"呂欽\"]", "[Date \"1990.05.01\"]",
                             "炮二平五", "车9平8", "1-0"})
        EXPECT_NE(text.find(part), std::string::npos) << part << " in\n" << text;
    EXPECT_TRUE(viewer.running());
    fs::remove_all(dir);
}

// A FEN typed on the start screen: a bad one is refused with its reason in the dialog, a good one
// opens on the game screen, where a move is played; saved, the record starts from that FEN.
TEST(ClientScreenEndToEnd, SetsUpAPositionFromAFenAndPlaysFromIt) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "needs an X display (./xq test runs under xvfb-run)";
    ASSERT_TRUE(run("command -v xdotool")) << "xdotool is missing";
    fs::create_directories(kShots);
    for (const auto& e : fs::directory_iterator(kShots))
        if (e.path().extension() == ".pgn") fs::remove(e.path());
    ClientWindow viewer("fen", std::vector<std::string>{}, fs::temp_directory_path() / ("xq-e2e-fen-" + std::to_string(::getpid())));
    viewer.click(kSetUpPosition);
    viewer.type("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");  // the generals face each other
    viewer.keys("Return");
    viewer.screenshot("records-fen-refused");
    viewer.keys("--repeat 40 BackSpace");
    const std::string fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
    viewer.type(fen);
    viewer.keys("Return");
    viewer.click_square("e1", false);
    viewer.click_square("d1", false);  // the chariot gives check on the d-file
    viewer.screenshot("records-fen-position");
    viewer.keys("ctrl+s");
    viewer.keys("Return");
    fs::path saved;
    for (int i = 0; i < 30 && saved.empty(); ++i) {
        for (const auto& e : fs::directory_iterator(kShots))
            if (e.path().extension() == ".pgn") saved = e.path();
        std::this_thread::sleep_for(100ms);
    }
    ASSERT_FALSE(saved.empty()) << "nothing was saved in " << kShots;
    std::this_thread::sleep_for(200ms);
    std::ifstream in(saved, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    for (const std::string& part : {"[FEN \"" + fen + "\"]", std::string("[Event \"Study from a set-up position\"]"),
                                   std::string("[Date \""), std::string("车五平六")})
        EXPECT_NE(text.find(part), std::string::npos) << part << " in\n" << text;
}

}  // namespace
}  // namespace xq::client
