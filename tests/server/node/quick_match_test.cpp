// Quick match across a cluster (issue 20, docs/cluster.md "A quick match"): seeks on different
// nodes go to Redis, the one elected matcher pairs them with the single-server rules and starts
// each game on its own node, and the players, on their own nodes, get what a local quick match
// sends and play through them. Real redis-server and PostgreSQL, three nodes.

#include <libpq-fe.h>

#include <map>

#include "cluster_fixture.h"

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

// One command as RESP2, for TempRedis::raw_command.
std::string resp(std::initializer_list<std::string> args) {
    std::string out = "*" + std::to_string(args.size()) + "\r\n";
    for (const std::string& a : args) out += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
    return out;
}

// A pairing as its player sees it: Seated (pushed: request id 0), then the game's start.
struct Pairing {
    Seated seated;
    GameStarted started;
};
std::optional<Pairing> paired(test::TestClient& c) {
    const auto seated = c.wait_for<Seated>();
    if (!seated) return std::nullopt;
    const auto started = c.wait_for<GameStarted>();
    if (!started || started->game_id != seated->game_id) return std::nullopt;
    return Pairing{*seated, *started};
}

class QuickMatchTest : public ClusterNodeTest {
protected:
    std::uint64_t pairings() {
        std::uint64_t total = 0;
        for (auto& node : nodes_) total += node->stats().pairings;
        return total;
    }
    std::string seeks_left() const { return redis_.raw_command(resp({"HLEN", "xq:seeks"})); }
    // Polls until no seek is left in Redis (a cancel or a forgetting is asynchronous).
    bool no_seeks_within_20s() const {
        for (const auto end = std::chrono::steady_clock::now() + 20s; std::chrono::steady_clock::now() < end;
             std::this_thread::sleep_for(50ms))
            if (seeks_left() == ":0\r\n") return true;
        return false;
    }
    // Sets an account's blitz rating in the shared database (before its first rated request).
    void set_blitz_rating(const std::string& account, double rating) {
        std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(conninfo_.c_str()), PQfinish);
        ASSERT_EQ(PQstatus(conn.get()), CONNECTION_OK) << PQerrorMessage(conn.get());
        const std::string sql = "INSERT INTO ratings (account, speed, rating, deviation, volatility, games) VALUES ('" + account +
                                "', 'blitz', " + std::to_string(rating) + ", 60, 0.06, 20)";
        std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(conn.get(), sql.c_str()), PQclear);
        ASSERT_EQ(PQresultStatus(r.get()), PGRES_COMMAND_OK) << PQresultErrorMessage(r.get());
    }
};

// Two players seeking on two different nodes (three running) are paired once, each told as on one
// server, and each plays a move through its own node to the game's owner, the matcher's node.
TEST_F(QuickMatchTest, TwoPlayersOnTwoNodesArePairedOnceAndPlay) {
    Node& a = start("node-a").ready();
    Node& b = start("node-b").ready();
    start("node-c").ready();
    auto one = a.client("one");
    auto two = b.client("two");
    EXPECT_EQ(as<Seeking>(one->call(QuickMatch{kBlitz, false})).time_control, kBlitz);
    as<Seeking>(two->call(QuickMatch{kBlitz, false}));
    const auto first = paired(*one);
    const auto second = paired(*two);
    ASSERT_TRUE(first && second) << "the two seeks were not paired";
    EXPECT_EQ(first->seated.game_id, second->seated.game_id);
    ASSERT_TRUE(first->seated.side && second->seated.side);
    EXPECT_NE(*first->seated.side, *second->seated.side);
    EXPECT_EQ(pairings(), 1u);
    EXPECT_EQ(seeks_left(), ":0\r\n");

    const GameId game = first->seated.game_id;
    auto& red = *first->seated.side == Side::Red ? one : two;
    auto& black = *first->seated.side == Side::Red ? two : one;
    EXPECT_EQ(as<MoveMade>(red->call(MakeMove{game, "h2e2", 1, 0})).ply, 1u);
    ASSERT_TRUE(black->wait_for<MoveMade>());
    EXPECT_EQ(as<MoveMade>(black->call(MakeMove{game, "h9g7", 2, 1})).ply, 2u);
    const auto seen = red->wait_for<MoveMade>([](const MoveMade& m) { return m.ply == 2; });
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->move, "h9g7");
}

// A seek answers as on one server: a second is refused, no game may be made meanwhile, a cancel
// takes it out (a second cancel finds none), and a cancelled seek is paired with nobody.
TEST_F(QuickMatchTest, ASeekIsRefusedTwiceAndCancelled) {
    Node& a = start("node-a").ready();
    Node& b = start("node-b").ready();
    Node& c = start("node-c").ready();
    auto quitter = a.client("quitter");
    as<Seeking>(quitter->call(QuickMatch{kBlitz, false}));
    EXPECT_EQ(error_of(quitter->call(QuickMatch{kBlitz, false})), ErrorCode::AlreadySeated);
    EXPECT_EQ(error_of(quitter->call(CreateGame{kBlitz, ColorChoice::Red, false})), ErrorCode::AlreadySeated);
    EXPECT_EQ(as<Left>(quitter->call(Leave{0})).game_id, 0u);
    EXPECT_EQ(error_of(quitter->call(Leave{0})), ErrorCode::NotAPlayer);
    EXPECT_EQ(seeks_left(), ":0\r\n");
    // A player whose session closes loses its seek.
    auto leaver = c.client("leaver");
    as<Seeking>(leaver->call(QuickMatch{kBlitz, false}));
    EXPECT_EQ(seeks_left(), ":1\r\n");
    leaver.reset();
    ASSERT_TRUE(no_seeks_within_20s()) << "the closed session's seek stayed";

    auto two = b.client("two");
    auto three = c.client("three");
    as<Seeking>(two->call(QuickMatch{kBlitz, false}));
    as<Seeking>(three->call(QuickMatch{kBlitz, false}));
    const auto p2 = paired(*two);
    const auto p3 = paired(*three);
    ASSERT_TRUE(p2 && p3);
    EXPECT_EQ(p2->seated.game_id, p3->seated.game_id);
    // The quitter may seek again, and waits alone.
    as<Seeking>(quitter->call(QuickMatch{kBlitz, false}));
    EXPECT_EQ(as<Left>(quitter->call(Leave{0})).game_id, 0u);
}

// Rated seeks pair by rating range, as on one server: of three accounts on three nodes, the
// first (1500) takes the third (1560), not the second (1900), who keeps waiting.
TEST_F(QuickMatchTest, RatedSeeksRespectTheRatingRange) {
    Node& a = start("node-a", std::nullopt, true).ready();
    Node& b = start("node-b", std::nullopt, true).ready();
    Node& c = start("node-c", std::nullopt, true).ready();
    auto alice = a.client("alice");
    auto bob = b.client("bob");
    auto carol = c.client("carol");
    for (auto* who : {alice.get(), bob.get(), carol.get()}) {
        const std::string name = who == alice.get() ? "alice" : who == bob.get() ? "bob" : "carol";
        as<LoggedIn>(who->call(Register{name, "a long enough password"}));
    }
    set_blitz_rating("alice", 1500);
    set_blitz_rating("bob", 1900);
    set_blitz_rating("carol", 1560);
    as<Seeking>(alice->call(QuickMatch{kBlitz, true}));
    as<Seeking>(bob->call(QuickMatch{kBlitz, true}));
    as<Seeking>(carol->call(QuickMatch{kBlitz, true}));
    const auto pa = paired(*alice);
    const auto pc = paired(*carol);
    ASSERT_TRUE(pa && pc);
    EXPECT_EQ(pa->seated.game_id, pc->seated.game_id);
    // Bob was not paired: his seek is still there to cancel.
    EXPECT_EQ(as<Left>(bob->call(Leave{0})).game_id, 0u);
    EXPECT_EQ(pairings(), 1u);
}

// Twenty players over three nodes, all seeking at once: ten games, each player in exactly one, on
// opposite sides, and no seek left over.
TEST_F(QuickMatchTest, ManySeeksOverThreeNodesAreAllPairedOnce) {
    std::vector<Node*> nodes = {&start("node-a").ready(), &start("node-b").ready(), &start("node-c").ready()};
    std::vector<std::unique_ptr<test::TestClient>> players;
    for (int i = 0; i < 20; ++i) players.push_back(nodes[static_cast<std::size_t>(i) % 3]->client("p" + std::to_string(i)));
    for (auto& p : players) p->send(QuickMatch{kBlitz, false});
    std::map<GameId, std::vector<Side>> games;
    for (auto& p : players) {
        const auto pairing = paired(*p);
        ASSERT_TRUE(pairing) << "a player was never paired";
        ASSERT_TRUE(pairing->seated.side);
        games[pairing->seated.game_id].push_back(*pairing->seated.side);
    }
    EXPECT_EQ(games.size(), 10u);
    for (const auto& [game, sides] : games) {
        ASSERT_EQ(sides.size(), 2u) << "game " << game;
        EXPECT_NE(sides[0], sides[1]);
    }
    EXPECT_EQ(pairings(), 10u);
    EXPECT_EQ(seeks_left(), ":0\r\n");
}

// The matcher's node is killed: another node is elected matcher and pairs the seeks that waited
// meanwhile, which it finds in Redis.
TEST_F(QuickMatchTest, WhenTheMatcherIsKilledAnotherNodePairsTheSeeks) {
    NodeProcess a("node-a", conninfo_, redis_.unix_address(), dir_);
    // node-a started first, alone: it takes the matcher lease once its Redis connection is up.
    std::string holder;
    for (const auto end = std::chrono::steady_clock::now() + 20s; std::chrono::steady_clock::now() < end;
         std::this_thread::sleep_for(50ms))
        if ((holder = redis_.raw_command(resp({"GET", "xq:lease:matcher"}))).find("node-a|") != std::string::npos) break;
    ASSERT_NE(holder.find("node-a|"), std::string::npos) << holder;
    Node& b = start("node-b").ready();
    Node& c = start("node-c").ready();
    EXPECT_FALSE(b.is_matcher());
    EXPECT_FALSE(c.is_matcher());

    a.kill();
    auto one = b.client("one");
    auto two = c.client("two");
    as<Seeking>(one->call(QuickMatch{kBlitz, false}));
    as<Seeking>(two->call(QuickMatch{kBlitz, false}));
    const auto p1 = paired(*one);
    const auto p2 = paired(*two);
    ASSERT_TRUE(p1 && p2) << "no surviving node paired the seeks";
    EXPECT_EQ(p1->seated.game_id, p2->seated.game_id);
    EXPECT_TRUE(b.is_matcher() || c.is_matcher());
    EXPECT_EQ(pairings(), 1u);

    auto& red = *p1->seated.side == Side::Red ? one : two;
    EXPECT_EQ(as<MoveMade>(red->call(MakeMove{p1->seated.game_id, "h2e2", 1, 0})).ply, 1u);
}

// A cancel that loses to a claim: the claim is made here as the matcher's script makes it (the
// seek taken out of xq:seeks, its tombstone left), so the cancel comes second. The player is told
// it was paired (NOT_A_PLAYER) and may not seek meanwhile; when no pairing comes (its matcher died
// before starting the game) the session may seek again after 10 s.
TEST_F(QuickMatchTest, ACancelThatLosesToAClaimSaysThePairingIsComing) {
    Node& a = start("node-a").ready();
    auto player = a.client("player");
    as<Seeking>(player->call(QuickMatch{kBlitz, false}));
    const std::string keys = redis_.raw_command(resp({"HKEYS", "xq:seeks"}));  // *1\r\n$<n>\r\n<id>\r\n
    const auto start = keys.find("\r\n", keys.find('$')) + 2;
    const std::string id = keys.substr(start, keys.find("\r\n", start) - start);
    ASSERT_EQ(redis_.raw_command(resp({"HDEL", "xq:seeks", id})), ":1\r\n") << keys;
    ASSERT_EQ(redis_.raw_command(resp({"SET", "xq:seek:claimed:" + id, "a matcher", "PX", "60000"})), "+OK\r\n");

    const auto refused = player->call(Leave{0});
    ASSERT_EQ(error_of(refused), ErrorCode::NotAPlayer);
    EXPECT_NE(std::get<Error>(refused.body).message.find("paired"), std::string::npos);
    EXPECT_EQ(error_of(player->call(QuickMatch{kBlitz, false})), ErrorCode::AlreadySeated);
    bool again = false;
    for (const auto end = std::chrono::steady_clock::now() + 20s; !again && std::chrono::steady_clock::now() < end;
         std::this_thread::sleep_for(500ms))
        again = std::holds_alternative<Seeking>(player->call(QuickMatch{kBlitz, false}).body);
    EXPECT_TRUE(again) << "the session never got free to seek again";
}

// No seek lost: a seek claimed by a matcher that died before starting the game (the claim made
// here by hand, as the claim script makes it) is found by its node's reconciliation and, no
// pairing having come within 10 s, added again; the player, who asked for nothing, is paired.
TEST_F(QuickMatchTest, AClaimWhosePairingNeverComesIsAddedAgain) {
    Node& a = start("node-a").ready();
    Node& b = start("node-b").ready();
    auto player = a.client("player");
    as<Seeking>(player->call(QuickMatch{kBlitz, false}));
    const std::string keys = redis_.raw_command(resp({"HKEYS", "xq:seeks"}));
    const auto start = keys.find("\r\n", keys.find('$')) + 2;
    const std::string id = keys.substr(start, keys.find("\r\n", start) - start);
    ASSERT_EQ(redis_.raw_command(resp({"HDEL", "xq:seeks", id})), ":1\r\n") << keys;
    ASSERT_EQ(redis_.raw_command(resp({"SET", "xq:seek:claimed:" + id, "a matcher", "PX", "60000"})), "+OK\r\n");

    bool back = false;
    for (const auto end = std::chrono::steady_clock::now() + 30s; !back && std::chrono::steady_clock::now() < end;
         std::this_thread::sleep_for(200ms))
        back = seeks_left() == ":1\r\n";
    ASSERT_TRUE(back) << "the claimed seek whose pairing never came was lost";
    auto other = b.client("other");
    as<Seeking>(other->call(QuickMatch{kBlitz, false}));
    const auto first = paired(*player);
    const auto second = paired(*other);
    ASSERT_TRUE(first && second) << "the seek added again was not paired";
    EXPECT_EQ(first->seated.game_id, second->seated.game_id);
}

// A node that dies takes its players' seeks with it: the surviving matcher finds the node's
// lease gone and removes them, so nobody is paired with a player who is no longer there.
TEST_F(QuickMatchTest, ADeadNodesSeeksAreForgotten) {
    NodeProcess a("node-a", conninfo_, redis_.unix_address(), dir_);
    Node& b = start("node-b").ready();
    test::TestClient doomed(a.port(), 20s);
    doomed.hello("doomed");
    // A process answers Hello before its Redis connection is up: a seek until then is TRY_LATER.
    bool seeking = false;
    for (const auto end = std::chrono::steady_clock::now() + 20s; !seeking && std::chrono::steady_clock::now() < end;
         std::this_thread::sleep_for(100ms)) {
        const auto reply = doomed.call(QuickMatch{kBlitz, false});
        seeking = std::holds_alternative<Seeking>(reply.body);
        if (!seeking) {
            EXPECT_EQ(error_of(reply), ErrorCode::TryLater);
        }
    }
    ASSERT_TRUE(seeking);
    EXPECT_EQ(seeks_left(), ":1\r\n");
    a.kill();
    ASSERT_TRUE(no_seeks_within_20s()) << "the dead node's seek stayed";
    auto alone = b.client("alone");
    as<Seeking>(alone->call(QuickMatch{kBlitz, false}));
    EXPECT_EQ(as<Left>(alone->call(Leave{0})).game_id, 0u);  // still waiting: paired with nobody
    EXPECT_EQ(pairings(), 0u);
}

}  // namespace
}  // namespace xq
