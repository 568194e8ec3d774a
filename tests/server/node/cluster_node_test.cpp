// Three server nodes in this process, each on its own loop thread and port, sharing one real
// PostgreSQL and one real redis-server (docs/cluster.md): a game created on node A is listed on
// node B and joined there, watched from node C, and played to its end with every request
// forwarded to A and every answer and event relayed back; a player whose node lets its session
// go loses its seat's connection on the owner.

#include <gtest/gtest.h>

#include "cluster_fixture.h"
#include "support/web_client.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::as;
using test::ClusterNodeTest;
using test::error_of;
using test::Node;
using test::NodeProcess;
using test::resume;

const TimeControl kBlitz = test::kClusterBlitz;

TEST_F(ClusterNodeTest, AGameOwnedByOneNodeIsJoinedOnASecondAndWatchedOnAThird) {
    Node& a = start("node-a");
    Node& b = start("node-b");
    Node& c = start("node-c");
    auto red = a.client("red");
    auto black = b.client("black");
    auto watcher = c.client("watcher");

    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    ASSERT_TRUE(listed(*black, created.game_id, false)) << "node B never listed node A's game";
    const auto joined = as<Seated>(black->call(JoinGame{created.game_id, ""}));
    EXPECT_EQ(joined.side, Side::Black);
    ASSERT_TRUE(red->wait_for<GameStarted>());
    ASSERT_TRUE(black->wait_for<GameStarted>());
    ASSERT_TRUE(listed(*watcher, created.game_id, true)) << "node C never listed the live game";
    const auto snapshot = as<Snapshot>(watcher->call(WatchGame{created.game_id, ""}));
    EXPECT_EQ(snapshot.status, GameStatus::Playing);

    // Each move is acknowledged to its mover, through its own node, and seen by the others.
    const std::vector<std::string> line = {"h2e2", "h9g7", "h0g2", "i9h9"};
    for (std::uint32_t ply = 0; ply < line.size(); ++ply) {
        auto& mover = ply % 2 == 0 ? red : black;
        auto& other = ply % 2 == 0 ? black : red;
        const auto made = as<MoveMade>(mover->call(MakeMove{created.game_id, line[ply], ply + 1, ply}));
        EXPECT_EQ(made.ply, ply + 1);
        EXPECT_EQ(made.move, line[ply]);
        const auto seen = other->wait_for<MoveMade>();
        ASSERT_TRUE(seen);
        EXPECT_EQ(seen->move, line[ply]);
        const auto watched = watcher->wait_for<MoveMade>();
        ASSERT_TRUE(watched) << "the watcher on node C missed ply " << ply + 1;
        EXPECT_EQ(watched->move, line[ply]);
    }
    // A refusal comes back too, with its code: not Black's turn.
    EXPECT_EQ(error_of(black->call(MakeMove{created.game_id, "a9a8", 6, 4})), ErrorCode::NotYourTurn);

    as<GameEnded>(black->call(Resign{created.game_id}));
    for (auto* seer : {red.get(), watcher.get()}) {
        const auto ended = seer->wait_for<GameEnded>();
        ASSERT_TRUE(ended);
        EXPECT_EQ(ended->outcome.result, GameResult::RedWins);
    }
    // The archive is the shared database's: node C reads the game node A archived.
    const auto archived = as<ArchivedGame>(watcher->call(GetArchived{created.game_id}));
    EXPECT_EQ(archived.moves, line);
}

// A live game's entry in the shared lobby is written again only when more than its clocks changed;
// another node's lobby shows the running clock as it runs, counted from the entry's time.
TEST_F(ClusterNodeTest, ALiveGamesClockListedOnAnotherNodeRunsBetweenMoves) {
    Node& a = start("node-a");
    Node& b = start("node-b");
    auto red = a.client("red");
    auto black = a.client("black");
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());
    as<MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0}));
    as<MoveMade>(black->call(MakeMove{created.game_id, "h9g7", 2, 1}));  // now Red's clock runs
    auto lister = b.client("lister");
    const auto clock_seen = [&]() -> std::optional<Clock> {
        for (const auto& g : as<GameList>(lister->call(ListGames{})).live)
            if (g.game_id == created.game_id && g.plies == 2 && g.clock) return g.clock;
        return std::nullopt;
    };
    std::optional<Clock> first;
    for (const auto end = std::chrono::steady_clock::now() + 20s; !first && std::chrono::steady_clock::now() < end;
         std::this_thread::sleep_for(50ms))
        first = clock_seen();
    ASSERT_TRUE(first) << "node B never listed the game after its second move";
    ASSERT_EQ(first->running, Side::Red);
    const auto written = [&] { return a.on_loop([](const server::node::ClusterNode& n) { return n.lobby().stats().written; }); };
    const auto written_before = written();
    std::this_thread::sleep_for(1500ms);
    EXPECT_EQ(written(), written_before) << "node A wrote its game again though only its clock had changed";
    const auto second = clock_seen();
    ASSERT_TRUE(second);
    EXPECT_LE(second->red_ms, first->red_ms - 1000) << "Red's clock stood still in node B's lobby";
    EXPECT_GE(second->red_ms, first->red_ms - 5000);
    EXPECT_EQ(second->black_ms, first->black_ms);
}

TEST_F(ClusterNodeTest, APlayerWhoseSessionEndsOnItsNodeIsAwayOnTheOwner) {
    Node& a = start("node-a");
    Node& b = start("node-b");
    auto red = a.client("red");
    auto black = b.client("black");
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    ASSERT_TRUE(listed(*black, created.game_id, false));
    const auto joined = as<Seated>(black->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());
    black.reset();  // the connection to node B closes
    ASSERT_TRUE(red->wait_for<PlayerConnection>(test::seat_connected(Side::Black, false)))
        << "node A never heard that Black's session on node B ended";

    // Black comes back through node B with its token, and plays on.
    auto again = b.client("black");
    EXPECT_EQ(error_of(again->call(Resume{created.game_id, joined.resume_token, 0})), ErrorCode::Unspecified);
    ASSERT_TRUE(red->wait_for<PlayerConnection>(test::seat_connected(Side::Black, true)));
    EXPECT_EQ(as<MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0})).ply, 1u);
    ASSERT_TRUE(again->wait_for<MoveMade>());
}

}  // namespace
}  // namespace xq

namespace xq {
namespace {


// A crowd of watchers on one node costs the owner one message to that node per event, not one per
// watcher: that node writes it to each of them.
TEST_F(ClusterNodeTest, AnEventForManyWatchersOnOneNodeCrossesRedisOnce) {
    Node& a = start("node-a");
    Node& c = start("node-c");
    auto red = a.client("red");
    auto black = a.client("black");
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());
    std::vector<std::unique_ptr<test::TestClient>> watchers;
    for (int i = 0; i < 8; ++i) {
        watchers.push_back(c.client("watcher" + std::to_string(i)));
        ASSERT_TRUE(listed(*watchers.back(), created.game_id, true));
        as<Snapshot>(watchers.back()->call(WatchGame{created.game_id, ""}));
    }
    // The spectator count the joins caused has gone out (at most one a second per room).
    std::this_thread::sleep_for(1500ms);
    const auto before = a.stats();
    const auto relayed_before = c.stats().relayed;
    as<MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0}));
    for (auto& w : watchers) {
        const auto seen = w->wait_for<MoveMade>();
        ASSERT_TRUE(seen);
        EXPECT_EQ(seen->move, "h2e2");
    }
    // Each event (the move, and whatever followed it to spectators) crossed once, for all 8.
    // A spectator count sent meanwhile may still be on its way to C: its relays are waited for.
    const auto sent = a.stats().sent - before.sent;
    EXPECT_GE(sent, 1u);
    const auto end = std::chrono::steady_clock::now() + 10s;
    while (c.stats().relayed - relayed_before < 8 * sent && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(20ms);
    EXPECT_EQ(c.stats().relayed - relayed_before, 8 * sent) << "an event went to node C once per watcher";
}

}  // namespace
}  // namespace xq

namespace xq {
namespace {

// The owner of a game is killed (SIGKILL) between two moves: the surviving node finds its lease
// gone, claims the game in PostgreSQL (a new fence), restores it from the journal, and both
// players, reconnected to the survivor, resume and play on; no acknowledged move is lost.
TEST_F(ClusterNodeTest, AGameWhoseOwnerIsKilledIsTakenOverAndPlayedOn) {
    test::NodeProcess a("node-a", conninfo_, redis_.unix_address(), dir_);
    Node& b = start("node-b");
    auto red = std::make_unique<test::TestClient>(a.port(), 20s);
    red->hello("red");
    auto black = b.client("black");
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    ASSERT_TRUE(listed(*black, created.game_id, false));
    const auto joined = as<Seated>(black->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());
    EXPECT_EQ(as<MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0})).ply, 1u);
    EXPECT_EQ(as<MoveMade>(black->call(MakeMove{created.game_id, "h9g7", 2, 1})).ply, 2u);

    a.kill();
    red.reset();
    // Black's node closes its session (its game's owner is gone); both come back through node B.
    auto black_again = resume(b.port(), "black", created.game_id, joined.resume_token);
    ASSERT_TRUE(black_again) << "black could not resume on node B";
    auto red_again = resume(b.port(), "red", created.game_id, created.resume_token);
    ASSERT_TRUE(red_again) << "red could not resume on node B";
    EXPECT_GE(b.stats().taken_over, 1u);

    const auto made = as<MoveMade>(red_again->call(MakeMove{created.game_id, "h0g2", 3, 2}));
    EXPECT_EQ(made.ply, 3u);
    const auto seen = black_again->wait_for<MoveMade>([](const MoveMade& m) { return m.ply == 3; });
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->move, "h0g2");
}

}  // namespace
}  // namespace xq

namespace xq {
namespace {

// Issue 23 in a cluster: a browser's WebSocket on node B watches a game node A owns, sees its
// moves, and may still only watch (its MakeMove refused on B with WATCH_ONLY, never forwarded).
TEST_F(ClusterNodeTest, ABrowserOnOneNodeWatchesAGameOwnedByAnother) {
    Node& a = start("node-a");
    Node& b = start("node-b", dir_);  // an empty web root: the WebSocket needs no page
    auto red = a.client("red");
    auto black = a.client("black");
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());

    test::WsClient browser(b.port(), {});
    ASSERT_EQ(browser.status(), 101);
    browser.hello("a browser");
    std::optional<Snapshot> snapshot;
    for (int i = 0; i < 200 && !snapshot; ++i) {  // until node B's copy of the lobby has the game
        const auto reply = browser.call(WatchGame{created.game_id, ""});
        if (const auto* s = std::get_if<Snapshot>(&reply.body)) snapshot = *s;
        else std::this_thread::sleep_for(50ms);
    }
    ASSERT_TRUE(snapshot) << "the browser on node B could not watch node A's game";
    EXPECT_EQ(snapshot->status, GameStatus::Playing);
    as<MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0}));
    const auto seen = browser.wait_for<MoveMade>();
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->move, "h2e2");
    EXPECT_EQ(error_of(browser.call(MakeMove{created.game_id, "h9g7", 2, 1})), ErrorCode::WatchOnly);
}

}  // namespace
}  // namespace xq
