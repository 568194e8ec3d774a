// What a cluster survives besides a node's death (docs/cluster.md, "Failures"), against real
// processes: redis-server killed and started again empty in the middle of a game that spans three
// nodes, and PostgreSQL killed for a few seconds. No node stops, no game is lost or taken over,
// nothing acknowledged is lost, and play goes on.

#include <gtest/gtest.h>

#include <csignal>

#include "cluster_fixture.h"
#include "server/store/postgres/pg_store.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::as;
using test::ClusterNodeTest;
using test::error_of;
using test::Node;
using test::NodeProcess;

const TimeControl kBlitz = test::kClusterBlitz;

// A player on one node: its requests are sent again after a refusal for now (INTERNAL while the
// database is away, TRY_LATER), and after its node closed the session (a gap between nodes) it
// connects again and resumes with its latest token, as the real client does.
struct Player {
    std::uint16_t port;
    std::string name;
    GameId game;
    std::string token;
    std::unique_ptr<test::TestClient> client;

    std::optional<MoveMade> move(const std::string& iccs, std::uint32_t ply) {
        const auto end = std::chrono::steady_clock::now() + 40s;
        while (std::chrono::steady_clock::now() < end) {
            try {
                if (!client) {
                    client = test::resume(port, name, game, token);
                    if (!client) return std::nullopt;
                    const auto fresh = client->wait_for<ResumeToken>();
                    if (!fresh) return std::nullopt;
                    token = fresh->resume_token;
                }
                const auto reply = client->call(MakeMove{game, iccs, ply + 1, ply});
                if (const auto* made = std::get_if<MoveMade>(&reply.body)) return *made;
                // A move made before the session closed, its answer lost, is answered again
                // (moves are exactly-once by their id), so only refusals for now remain.
                const auto code = error_of(reply);
                EXPECT_TRUE(code == ErrorCode::Internal || code == ErrorCode::TryLater) << std::get<Error>(reply.body).message;
            } catch (const std::exception&) {
                client.reset();  // closed by its node: connect again
            }
            std::this_thread::sleep_for(200ms);
        }
        return std::nullopt;
    }
};

// Red creates a game on its node and Black, on another, joins it once its lobby lists it.
void seat(Player& red, Player& black, bool (*listed)(test::TestClient&, GameId, bool)) {
    const auto created = as<Seated>(red.client->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    red.game = black.game = created.game_id;
    red.token = created.resume_token;
    ASSERT_TRUE(listed(*black.client, created.game_id, false));
    black.token = as<Seated>(black.client->call(JoinGame{created.game_id, ""})).resume_token;
    ASSERT_TRUE(red.client->wait_for<GameStarted>());
}

// Every move of `game` as the shared database holds it.
std::vector<std::string> journal(const std::string& conninfo) {
    auto store = server::PgStore::open(conninfo);
    EXPECT_TRUE(store) << store.error().message;
    if (!store) return {};
    auto games = (*store)->load_recoverable_games();
    EXPECT_TRUE(games) << games.error().message;
    if (!games || games->size() != 1) return {};
    std::vector<std::string> moves;
    for (const auto& m : (*games)[0].game.moves) moves.push_back(m.iccs);
    return moves;
}

TEST_F(ClusterNodeTest, RedisKilledAndStartedEmptyMidGameLosesNothingAndPlayGoesOn) {
    Node& a = start("node-a");
    Node& b = start("node-b");
    Node& c = start("node-c");
    Player red{a.port(), "red", 0, "", a.client("red")};
    Player black{b.port(), "black", 0, "", b.client("black")};
    ASSERT_NO_FATAL_FAILURE(seat(red, black, &listed));
    const GameId game = red.game;
    ASSERT_TRUE(red.move("h2e2", 0));
    ASSERT_TRUE(black.move("h9g7", 1));

    redis_.kill();
    redis_.restart();  // empty: no persistence, every lease, lobby entry and subscription gone

    // Each node finds its lease gone at its next renewal and takes it again; none stops, and none
    // is taken for dead by the others while the leases come back.
    const auto end = std::chrono::steady_clock::now() + 20s;
    const auto count = [&] {  // EXISTS of the three leases
        return redis_.raw_command("*4\r\n$6\r\nEXISTS\r\n$14\r\nxq:node:node-a\r\n$14\r\nxq:node:node-b\r\n"
                                  "$14\r\nxq:node:node-c\r\n");
    };
    while (count() != ":3\r\n" && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(100ms);
    ASSERT_EQ(count(), ":3\r\n") << "the nodes did not take their leases again";
    std::this_thread::sleep_for(4s);  // several of the nodes' checks of each other
    for (Node* n : {&a, &b, &c}) {
        EXPECT_TRUE(n->holds_lease());
        EXPECT_EQ(n->stats().dead_nodes, 0u);
    }
    const auto made = red.move("h0g2", 2);
    ASSERT_TRUE(made) << "red could not play on after the Redis restart";
    EXPECT_EQ(made->ply, 3u);
    ASSERT_TRUE(black.move("i9h9", 3));

    // A watcher on the third node finds the game in the rebuilt lobby and sees it whole.
    auto watcher = c.client("watcher");
    ASSERT_TRUE(listed(*watcher, game, true)) << "node C's lobby lost the game";
    const auto snapshot = as<Snapshot>(watcher->call(WatchGame{game, ""}));
    EXPECT_EQ(snapshot.moves.size(), 4u);
    for (Node* n : {&a, &b, &c}) EXPECT_EQ(n->stats().taken_over, 0u) << "a game changed owner";
    EXPECT_EQ(journal(conninfo_), (std::vector<std::string>{"h2e2", "h9g7", "h0g2", "i9h9"}));
}

// PostgreSQL killed between two moves: moves made through either node are refused with INTERNAL
// (nothing acknowledged that is not durable), the nodes keep their leases (no takeover storm),
// and play resumes when the database is back.
TEST_F(ClusterNodeTest, PostgresKilledForAFewSecondsRefusesMovesThenPlayResumes) {
    Node& a = start("node-a");
    Node& b = start("node-b");
    Player red{a.port(), "red", 0, "", a.client("red")};
    Player black{b.port(), "black", 0, "", b.client("black")};
    ASSERT_NO_FATAL_FAILURE(seat(red, black, &listed));
    const GameId game = red.game;
    ASSERT_TRUE(red.move("h2e2", 0));

    pg_.stop(SIGKILL);
    // Black's move goes from node B to the owner A, whose commit fails: refused, not played.
    EXPECT_EQ(error_of(black.client->call(MakeMove{game, "h9g7", 2, 1})), ErrorCode::Internal);
    std::this_thread::sleep_for(3s);  // a few of the nodes' checks run without the database
    EXPECT_EQ(error_of(black.client->call(MakeMove{game, "h9g7", 2, 1})), ErrorCode::Internal);
    pg_.start();

    const auto made = black.move("h9g7", 1);
    ASSERT_TRUE(made) << "the move was not played within 40 s of the database's return";
    EXPECT_EQ(made->ply, 2u);
    const auto seen = red.client->wait_for<MoveMade>([](const MoveMade& m) { return m.ply == 2; });
    ASSERT_TRUE(seen);
    ASSERT_TRUE(red.move("h0g2", 2));
    EXPECT_TRUE(a.holds_lease());
    EXPECT_TRUE(b.holds_lease());
    for (Node* n : {&a, &b}) {
        EXPECT_EQ(n->stats().dead_nodes, 0u);
        EXPECT_EQ(n->stats().taken_over, 0u);
    }
    EXPECT_EQ(journal(conninfo_), (std::vector<std::string>{"h2e2", "h9g7", "h0g2"}));
}

// The owner is SIGKILLed and started again with its id at once, faster than two checks of the
// other nodes: they see the same node id with another lease token, so the sessions that spanned
// the old process end (the player on the other node reconnects and resumes) and the restarted
// node, which restored its games from the journal, plays on with both.
TEST_F(ClusterNodeTest, ANodeRestartedAtOnceWithItsIdIsSeenAsANewProcess) {
    auto a = std::make_unique<NodeProcess>("node-a", conninfo_, redis_.unix_address(), dir_);
    Node& b = start("node-b");
    Player red{a->port(), "red", 0, "", std::make_unique<test::TestClient>(a->port(), 20s)};
    red.client->hello("red");
    Player black{b.port(), "black", 0, "", b.client("black")};
    ASSERT_NO_FATAL_FAILURE(seat(red, black, &listed));
    const GameId game = red.game;
    ASSERT_TRUE(red.move("h2e2", 0));
    ASSERT_TRUE(black.move("h9g7", 1));
    auto watcher = b.client("watcher");
    ASSERT_TRUE(listed(*watcher, game, true));
    as<Snapshot>(watcher->call(WatchGame{game, ""}));
    // B judges other nodes' leases only a TTL and a renewal after its own Redis connection came
    // up (a Redis restart): until then it has not seen node A's first process.
    std::this_thread::sleep_for(5s);

    a->kill();
    a = std::make_unique<NodeProcess>("node-a", conninfo_, redis_.unix_address(), dir_);  // answers at once
    red.port = a->port();
    red.client.reset();
    ASSERT_TRUE(red.move("h0g2", 2)) << "red could not resume on the restarted node";
    // Nothing from the new process reaches B (it never heard of B's sessions), yet B lets the
    // watcher and Black go, for it saw node A's lease with a new token; they come back.
    try {
        while (watcher->wait_for<MoveMade>()) {}  // whatever arrives, until the session closes
    } catch (const std::exception&) {
    }
    EXPECT_TRUE(watcher->closed_by_server()) << "the watcher on B was left attached to the old process";
    EXPECT_GE(b.stats().restarted_nodes + b.stats().dead_nodes, 1u);
    // Watching again may be cut once more: the new process's first message to B tells B's bus
    // of the restart, which closes the sessions spanning the nodes; the client connects again.
    std::optional<Snapshot> again;
    for (const auto end = std::chrono::steady_clock::now() + 20s; !again && std::chrono::steady_clock::now() < end;) {
        try {
            watcher = b.client("watcher");
            again = as<Snapshot>(watcher->call(WatchGame{game, ""}));
        } catch (const std::exception&) {
            std::this_thread::sleep_for(200ms);
        }
    }
    ASSERT_TRUE(again) << "the watcher could not watch again through node B";
    EXPECT_EQ(again->moves.size(), 3u);
    const auto made = black.move("i9h9", 3);
    ASSERT_TRUE(made) << "black could not play on through node B";
    EXPECT_EQ(made->ply, 4u);
    EXPECT_EQ(b.stats().taken_over, 0u);  // the games stayed the restarted node's
    EXPECT_EQ(journal(conninfo_), (std::vector<std::string>{"h2e2", "h9g7", "h0g2", "i9h9"}));
}

}  // namespace
}  // namespace xq
