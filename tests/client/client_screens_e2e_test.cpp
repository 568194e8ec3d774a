// The client's screens end to end, under Xvfb: a window uncovered is painted again, every control
// reachable in the smallest window, and records opened from a file or set up from a FEN.

#include "e2e_harness.h"

namespace xq::client {
namespace {

using namespace e2e;


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
    options.plain = true;
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
    options.plain = true;
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
    // Both clicks within one frame (a slow, sanitized client on a loaded machine once lost the
    // first): the chariot gives check on the d-file.
    const BoardGeometry g(game_layout(kWidth, kHeight).board, false);
    viewer.click_within_one_frame({g.center(*parse_square("e1")), g.center(*parse_square("d1"))});
    viewer.screenshot("records-fen-position");
    viewer.keys("ctrl+s");
    viewer.keys("Return");
    fs::path saved;
    for (int i = 0; i < 100 && saved.empty(); ++i) {
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
