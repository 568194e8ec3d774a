// Rated play in the desktop client, under Xvfb against a real xiangqi-server: accounts' rated
// games give ann a rating history; her window shows her profile with its plot and the
// leaderboard; she joins a rated game from the lobby, queues a premove that is played when the
// opponent's move arrives, sees the result with the rating change, is offered a rematch and
// accepts it, and the window moves into the new game. What reaches the server is checked through
// its test clients; the screenshots are looked at by a person (docs/).

#include "e2e_harness.h"

namespace xq::client {
namespace {

using namespace e2e;

const std::string kPassword = "a long enough password";

// A test client logged in as a new account; the session token is in `token`.
std::unique_ptr<test::TestClient> account(std::uint16_t port, const std::string& name, std::string* token = nullptr) {
    auto c = std::make_unique<test::TestClient>(port);
    c->hello(name);
    const auto reply = c->call(proto::Register{name, kPassword});
    const auto* in = std::get_if<proto::LoggedIn>(&reply.body);
    EXPECT_TRUE(in) << name << " could not register: "
                    << (std::holds_alternative<proto::Error>(reply.body) ? std::get<proto::Error>(reply.body).message
                                                                         : "no LoggedIn");
    if (in && token) *token = in->session_token;
    return c;
}

// The next message of type T; an Error on the way fails the test with its words.
template <class T>
std::optional<T> expect_body(test::TestClient& c) {
    const auto end = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < end)
        if (auto m = c.next()) {
            if (auto* body = std::get_if<T>(&m->body)) return *body;
            if (auto* error = std::get_if<proto::Error>(&m->body)) ADD_FAILURE() << "refused: " << error->message;
        }
    return std::nullopt;
}

// A rated game between two test clients: each side moves twice (the least a rated game needs),
// then `loser` resigns (none: a draw by agreement). Returns the game's end.
std::optional<proto::GameEnded> rated_game(test::TestClient& red, test::TestClient& black, proto::TimeControl tc,
                                           test::TestClient* loser) {
    const auto created = red.call(proto::CreateGame{tc, proto::ColorChoice::Red, false, 0, true});
    const auto* seated = std::get_if<proto::Seated>(&created.body);
    EXPECT_TRUE(seated) << "a rated game was not created: "
                        << (std::holds_alternative<proto::Error>(created.body) ? std::get<proto::Error>(created.body).message
                                                                               : "");
    if (!seated) return std::nullopt;
    const auto id = seated->game_id;
    const auto joined = black.call(proto::JoinGame{id, ""});
    if (const auto* error = std::get_if<proto::Error>(&joined.body)) ADD_FAILURE() << "join refused: " << error->message;
    if (!wait_for_body<proto::GameStarted>(red) || !wait_for_body<proto::GameStarted>(black)) {
        ADD_FAILURE() << "game " << id << " did not start";
        return std::nullopt;
    }
    const char* moves[] = {"h2e2", "h9g7", "h0g2", "b9c7"};
    static std::uint64_t move_id = 1000;
    for (std::uint32_t ply = 0; ply < 4; ++ply) {
        test::TestClient& mover = ply % 2 == 0 ? red : black;
        mover.send(proto::MakeMove{id, moves[ply], ++move_id, ply});
        if (!expect_body<proto::MoveMade>(red) || !expect_body<proto::MoveMade>(black)) {
            ADD_FAILURE() << "game " << id << ": move " << moves[ply] << " was not played";
            return std::nullopt;
        }
    }
    if (loser) {
        loser->send(proto::Resign{id});
    } else {
        red.send(proto::MakeOffer{id, proto::OfferKind::Draw});
        if (!wait_for_body<proto::OfferMade>(black)) return std::nullopt;
        black.send(proto::AnswerOffer{id, proto::OfferKind::Draw, true});
    }
    auto ended = wait_for_body<proto::GameEnded>(red);
    wait_for_body<proto::GameEnded>(black);
    return ended;
}

TEST(ClientRatedEndToEnd, ProfileLeaderboardPremoveAndRematch) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "needs an X display (./xq test runs under xvfb-run)";
    ASSERT_TRUE(run("command -v xdotool")) << "xdotool is missing";
    fs::create_directories(kShots);
    const fs::path dir = fs::temp_directory_path() / ("xq-e2e-rated-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    LocalServerOptions options;
    options.binary = XQ_SERVER_BIN_PATH;
    options.db = dir / "games.db";
    options.name = "rated";
    options.plain = true;
    options.accounts = "optional";
    // No rate limit: the setup plays 73 games in seconds. Minimal Argon2id: this test is about
    // ratings, and full-cost hashes on the server's nice-19 workers, beside a parallel suite on
    // two cores, outlast the test clients' reply timeout (CI saw it).
    options.extra_args = {"--rate-limit", "0", "--password-cost", "minimal"};
    auto server = LocalServer::start(options);
    ASSERT_TRUE(server) << server.error();
    const auto port = server->port();

    // Three accounts play rated games among themselves: ann wins more than she loses, at blitz
    // and at rapid; enough games for settled ratings on the leaderboard.
    std::string ann_token;
    auto ann = account(port, "ann", &ann_token);
    auto bob = account(port, "bob");
    auto cat = account(port, "cat");
    const proto::TimeControl blitz{3, 2, std::nullopt}, rapid{10, 5, std::nullopt};
    for (int round = 0; round < 24; ++round) {
        ASSERT_TRUE(rated_game(*ann, *bob, blitz, round % 3 == 2 ? ann.get() : bob.get()));
        ASSERT_TRUE(rated_game(*cat, *ann, blitz, round % 4 == 3 ? nullptr : cat.get()));
        ASSERT_TRUE(rated_game(*bob, *cat, round % 2 ? rapid : blitz, round % 2 ? bob.get() : cat.get()));
    }
    ASSERT_TRUE(rated_game(*ann, *bob, rapid, bob.get()));
    const auto board = bob->call(proto::GetLeaderboard{proto::Speed::Blitz});
    const auto* rows = std::get_if<proto::Leaderboard>(&board.body);
    EXPECT_TRUE(rows) << "no leaderboard";

    // ann's window, logged in by the session token her profile keeps for this server.
    ProfileStore(dir / "ann").save_session_token("127.0.0.1:" + std::to_string(port), ann_token);
    ClientWindow window("ann", port, dir / "ann");
    std::this_thread::sleep_for(2s);
    window.screenshot("rated-lobby");
    // The header's pages, right to left from Log out (110 wide): My profile, Leaderboard (120).
    const Rect header = lobby_layout(kWidth, kHeight).header;
    const float right = header.x + header.w - 110 - 12;
    const Point my_profile{right - 60, header.h / 2};
    const Point leaderboard{right - 120 - 12 - 60, header.h / 2};
    const Point back{24 + 55, 18 + 18};
    window.click(my_profile);
    std::this_thread::sleep_for(1500ms);
    window.screenshot("rated-profile");
    window.click(back);
    std::this_thread::sleep_for(500ms);
    window.click(leaderboard);
    std::this_thread::sleep_for(1500ms);
    window.screenshot("rated-leaderboard");
    // A row of the leaderboard opens that player's profile.
    if (rows && !rows->rows.empty()) {
        window.click({kWidth / 2, 70 + 46 + 26 + 17});
        std::this_thread::sleep_for(1500ms);
        window.screenshot("rated-profile-from-leaderboard");
    }
    window.click(back);
    std::this_thread::sleep_for(500ms);

    // A rated game bob hosts as Red, joined from ann's lobby: she plays Black.
    const auto created = bob->call(proto::CreateGame{blitz, proto::ColorChoice::Red, false, 0, true});
    const auto* seated = std::get_if<proto::Seated>(&created.body);
    ASSERT_TRUE(seated);
    const auto id = seated->game_id;
    std::this_thread::sleep_for(3500ms);  // the lobby lists it (it asks every 3 s)
    window.screenshot("rated-lobby-open");
    std::optional<proto::GameStarted> started;
    for (int attempt = 0; attempt < 5 && !started; ++attempt) {
        std::this_thread::sleep_for(1s);  // the lobby lists it
        window.click(kFirstOpenJoin);
        started = wait_for_body<proto::GameStarted>(*bob, 3s);
    }
    ASSERT_TRUE(started) << "ann's click on Join did not start the game";
    EXPECT_TRUE(started->rated);
    std::this_thread::sleep_for(800ms);

    // Red to move: ann's clicks queue a premove, shown on her board, sent when bob's move lands.
    window.click_square("b9", true);
    window.click_square("c7", true);
    std::this_thread::sleep_for(400ms);
    window.screenshot("premove-queued");
    bob->send(proto::MakeMove{id, "h2e2", 1, 0});
    const auto own = wait_for_body<proto::MoveMade>(*bob);
    ASSERT_TRUE(own);
    EXPECT_EQ(own->move, "h2e2");
    const auto premove = wait_for_body<proto::MoveMade>(*bob);
    ASSERT_TRUE(premove) << "ann's premove was not sent when bob's move arrived";
    EXPECT_EQ(premove->move, "b9c7");
    EXPECT_EQ(premove->ply, 2u);
    std::this_thread::sleep_for(400ms);
    window.screenshot("premove-played");
    // A second move each (a rated game needs two), then bob resigns: the result shows the change.
    bob->send(proto::MakeMove{id, "h0g2", 2, 2});
    window.click_square("h9", true);
    window.click_square("g7", true);
    ASSERT_TRUE(wait_for_body<proto::MoveMade>(*bob));  // bob's
    const auto second = wait_for_body<proto::MoveMade>(*bob);
    ASSERT_TRUE(second) << "ann's second move did not arrive";
    EXPECT_EQ(second->move, "h9g7");
    bob->send(proto::Resign{id});
    const auto ended = wait_for_body<proto::GameEnded>(*bob);
    ASSERT_TRUE(ended);
    EXPECT_TRUE(ended->black_change.has_value()) << "the rated game changed no rating";
    std::this_thread::sleep_for(800ms);
    window.screenshot("rated-result");

    // bob offers a rematch; ann's panel offers Accept and Decline; she accepts and her window
    // moves into the new game, where she plays Red.
    bob->send(proto::MakeOffer{id, proto::OfferKind::Rematch});
    ASSERT_TRUE(wait_for_body<proto::OfferMade>(*bob));
    std::this_thread::sleep_for(800ms);
    window.screenshot("rematch-offered");
    const Rect offers = panel_layout(game_layout(kWidth, kHeight).panel, true, 1).offers;
    const float bw = std::clamp(offers.w * 0.24f, 64.0f, 94.0f);
    window.click({offers.x + offers.w - 2 * bw - 10 + bw / 2, offers.y + 5 + (offers.h - 16) / 2});
    // The new game starts (Seated, GameStarted), then the old room says where it went.
    const auto new_start = wait_for_body<proto::GameStarted>(*bob);
    ASSERT_TRUE(new_start) << "ann's Accept did not start the rematch";
    const auto rematch = wait_for_body<proto::RematchStarted>(*bob);
    ASSERT_TRUE(rematch);
    EXPECT_EQ(new_start->game_id, rematch->new_game_id);
    EXPECT_EQ(new_start->red, "ann");  // colours swapped
    EXPECT_TRUE(new_start->rated);
    std::this_thread::sleep_for(1s);
    window.screenshot("rematch-accepted");
    // In the new game ann is Red and moves first: a click on her board plays it.
    window.click_square("h2", false);
    window.click_square("e2", false);
    const auto first = wait_for_body<proto::MoveMade>(*bob);
    ASSERT_TRUE(first) << "ann's window is not in the rematch";
    EXPECT_EQ(first->game_id, rematch->new_game_id);
    EXPECT_TRUE(window.running());
    std::error_code ignored;
    if (!std::getenv("XQ_KEEP")) fs::remove_all(dir, ignored);
}

}  // namespace
}  // namespace xq::client
