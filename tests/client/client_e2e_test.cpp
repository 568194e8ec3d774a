// The desktop client end to end, under Xvfb: a real xiangqi-server, two client windows driven by
// real input (xdotool clicks on the lobby and the board) playing a short game to checkmate, and a
// third client watching; a client killed mid-game and started again returning to its game; a
// disconnected player's grace running out to the claim. The final state is checked through the
// server; screenshots are saved under the build folder.

#include "e2e_harness.h"

namespace xq::client {
namespace {

using namespace e2e;

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
        options.plain = true;  // these tests are about the game; TLS has its own (client_trust_e2e_test)
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
        EXPECT_TRUE(wait_for_lobby(red)) << host << "'s window never showed the lobby";
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
        EXPECT_TRUE(wait_for_lobby(black)) << "the joining window never showed the lobby";
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

// The X clipboard's text as another program pastes it (CLIPBOARD as UTF8_STRING), asked of its
// owner (the client window) within 5 s; nullopt when nobody owns it or nothing came.
std::optional<std::string> clipboard_text() {
    Display* d = XOpenDisplay(nullptr);
    if (!d) return std::nullopt;
    const Window w = XCreateSimpleWindow(d, DefaultRootWindow(d), 0, 0, 1, 1, 0, 0, 0);
    const Atom property = XInternAtom(d, "XQ_PASTE", False);
    XConvertSelection(d, XInternAtom(d, "CLIPBOARD", False), XInternAtom(d, "UTF8_STRING", False), property, w,
                      CurrentTime);
    XFlush(d);
    std::optional<std::string> text;
    for (const auto deadline = std::chrono::steady_clock::now() + 5s; std::chrono::steady_clock::now() < deadline;) {
        XEvent e;
        if (!XCheckTypedWindowEvent(d, w, SelectionNotify, &e)) {
            std::this_thread::sleep_for(20ms);
            continue;
        }
        if (e.xselection.property == property) {
            Atom type = 0;
            int format = 0;
            unsigned long count = 0, after = 0;
            unsigned char* data = nullptr;
            XGetWindowProperty(d, w, property, 0, 1 << 16, False, AnyPropertyType, &type, &format, &count, &after, &data);
            if (data) text = std::string(reinterpret_cast<const char*>(data), count);
            if (data) XFree(data);
        }
        break;
    }
    XDestroyWindow(d, w);
    XCloseDisplay(d);
    return text;
}

// Issue 23: "Copy link" on a live game of the lobby puts its watch page's link on the clipboard,
// http:// for this --plain server; another program pastes exactly that.
TEST_F(ClientEndToEnd, CopyLinkPutsALiveGamesWatchLinkOnTheClipboard) {
    test::TestClient red(port()), black(port());
    red.hello("ann");
    black.hello("ben");
    proto::CreateGame create;
    create.time_control = {5, 3, std::nullopt};
    create.color = proto::ColorChoice::Red;
    const auto seated = red.call(create);
    const auto* seat = std::get_if<proto::Seated>(&seated.body);
    ASSERT_TRUE(seat);
    ASSERT_TRUE(std::holds_alternative<proto::Seated>(black.call(proto::JoinGame{seat->game_id, ""}).body));
    ClientWindow carol("carol", port(), dir_ / "carol");
    const std::string link = "http://127.0.0.1:" + std::to_string(port()) + "/g/" + std::to_string(seat->game_id);
    // Left of the first live game's Watch button; the lobby may not have listed the game at the
    // first click (a click on an empty row does nothing), so click until the clipboard has it.
    const Point copy_link{kFirstLiveWatch.x - 118, kFirstLiveWatch.y};
    std::optional<std::string> pasted;
    for (int click = 0; click < 10 && pasted != link; ++click) {
        carol.click(copy_link);
        pasted = clipboard_text();
    }
    EXPECT_EQ(pasted, link);
    carol.screenshot("copy-watch-link");
    EXPECT_TRUE(carol.running());
}

TEST_F(ClientEndToEnd, TwoWindowsPlayToCheckmateWhileAThirdWatches) {
    // Red creates a 3+2 game by clicking through the lobby: a preset of the time-control picker
    // (Custom looked at on the way, then left).
    ClientWindow alice("alice", port(), dir_ / "alice");
    ASSERT_TRUE(wait_for_lobby(alice));
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
    ASSERT_TRUE(wait_for_lobby(carol));
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
    ASSERT_TRUE(wait_for_lobby(dora));
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
    ASSERT_TRUE(wait_for_body<proto::PlayerConnection>(*referee_, test::seat_connected(proto::Side::Black, false)));
    bob.reset();

    ClientWindow again("bob", port(), dir_ / "bob", restarted());
    ASSERT_TRUE(wait_for_body<proto::PlayerConnection>(*referee_, test::seat_connected(proto::Side::Black, true), 20s))
        << "the restarted client did not resume its seat";
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
    ASSERT_TRUE(wait_for_body<proto::PlayerConnection>(
        *referee_, [](const proto::PlayerConnection& p) { return !p.player.connected; }));
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

}  // namespace
}  // namespace xq::client
