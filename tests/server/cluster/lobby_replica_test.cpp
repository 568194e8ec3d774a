// The lobby replica between nodes on one real redis-server: puts and removes seen everywhere,
// a Redis restart without persistence repaired by every node, coalesced writes that always end
// with the newest state, a dead node's entries forgotten and taken over, and garbage in Redis.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "run_until.h"
#include "server/cluster/lobby_replica.h"
#include "support/temp_redis.h"

namespace xq::cluster {
namespace {

using test::run_until;
using namespace std::chrono_literals;
using Entries = std::map<std::uint64_t, LobbyEntry>;

class LobbyReplicaTest : public ::testing::Test {
protected:
    struct Node {
        std::shared_ptr<RedisClient> client;
        std::shared_ptr<LobbyReplica> lobby;
        std::vector<std::pair<std::uint64_t, bool>> changes;  // game, present
    };

    // A node's client and replica, started and synced, kept until TearDown.
    Node& node(const std::string& id, std::chrono::milliseconds flush_every = 50ms) {
        nodes_.push_back(std::make_unique<Node>());
        Node* n = nodes_.back().get();
        ConnectionOptions options;
        options.backoff_max = 100ms;
        n->client = RedisClient::create(io_.get_executor(), *parse_redis_address(redis_.unix_address()), options);
        n->client->start();
        n->lobby = LobbyReplica::create(io_.get_executor(), n->client, id, LobbyReplicaOptions{.flush_every = flush_every}, options);
        n->lobby->on_change([n](std::uint64_t game, const LobbyEntry* entry) { n->changes.emplace_back(game, entry != nullptr); });
        n->lobby->start();
        EXPECT_TRUE(run_until(io_, [&] { return n->lobby->synced(); }));
        return *n;
    }
    void TearDown() override {
        for (auto& n : nodes_) {
            n->lobby->stop();
            n->client->stop();
        }
    }
    bool all_see(const Entries& expected) {
        return run_until(io_, [&] {
            for (auto& n : nodes_) {
                if (n->lobby->entries() != expected) return false;
            }
            return true;
        });
    }
    std::string raw(std::initializer_list<std::string_view> args) { return redis_.raw_command(encode_command(args)); }

    asio::io_context io_{1};
    test::TempRedis redis_;
    std::vector<std::unique_ptr<Node>> nodes_;
};

TEST_F(LobbyReplicaTest, TwoNodesSeeEachOthersPutsAndRemoves) {
    auto& a = node("a");
    auto& b = node("b");
    EXPECT_TRUE(a.lobby->put(1, "one"));
    EXPECT_TRUE(b.lobby->put(2, "two"));
    ASSERT_TRUE(all_see({{1, {"a", "one"}}, {2, {"b", "two"}}}));
    EXPECT_EQ(b.lobby->owner(1), "a");
    EXPECT_EQ(a.lobby->owner(2), "b");
    EXPECT_FALSE(a.lobby->owner(3));

    a.lobby->put(1, "one, later");
    b.lobby->remove(2);
    ASSERT_TRUE(all_see({{1, {"a", "one, later"}}}));
    EXPECT_EQ(raw({"HGET", "xq:lobby", "1"}), "$12\r\na|one, later\r\n");
    EXPECT_EQ(raw({"HEXISTS", "xq:lobby", "2"}), ":0\r\n");
    // b was told of 1 twice and of 2's arrival and departure: its own changes at once.
    EXPECT_EQ(b.changes, (std::vector<std::pair<std::uint64_t, bool>>{{2, true}, {1, true}, {2, false}, {1, true}}));
    EXPECT_EQ(a.lobby->stats().malformed + b.lobby->stats().malformed, 0u);
}

TEST_F(LobbyReplicaTest, RedisRestartedEmptyIsRefilledByEveryNode) {
    auto& a = node("a");
    auto& b = node("b");
    a.lobby->put(1, "a1");
    a.lobby->put(2, "a2");
    b.lobby->put(3, "b3");
    ASSERT_TRUE(all_see({{1, {"a", "a1"}}, {2, {"a", "a2"}}, {3, {"b", "b3"}}}));

    redis_.kill();
    ASSERT_TRUE(run_until(io_, [&] { return !a.lobby->synced() && !b.lobby->synced(); }));
    // Changes made while Redis is away are written once it is back.
    a.lobby->remove(1);
    a.lobby->put(4, "a4");
    b.lobby->put(3, "b3, later");
    redis_.restart();
    const Entries expected{{2, {"a", "a2"}}, {3, {"b", "b3, later"}}, {4, {"a", "a4"}}};
    ASSERT_TRUE(run_until(io_, [&] { return a.lobby->synced() && b.lobby->synced(); }));
    ASSERT_TRUE(all_see(expected));
    // Redis itself holds them all again: a node started now reads them in its full read.
    auto& c = node("c");
    EXPECT_EQ(c.lobby->entries(), expected);
    EXPECT_GE(a.lobby->stats().resyncs, 2u);
}

TEST_F(LobbyReplicaTest, ABurstOfPutsIsOneWriteOfTheNewestValue) {
    auto& a = node("a", 250ms);
    auto& b = node("b");
    for (int i = 0; i < 100; ++i) a.lobby->put(7, "v" + std::to_string(i));
    EXPECT_EQ(a.lobby->pending(), 1u);
    ASSERT_TRUE(all_see({{7, {"a", "v99"}}}));
    EXPECT_EQ(a.lobby->stats().written, 1u);
    EXPECT_EQ(raw({"HGET", "xq:lobby", "7"}), "$5\r\na|v99\r\n");

    // A remove behind puts of the same interval is not lost, nor a put behind a remove.
    a.lobby->put(7, "again");
    a.lobby->remove(7);
    a.lobby->remove(8);  // never ours: nothing to write
    a.lobby->put(9, "x");
    a.lobby->remove(9);
    a.lobby->put(9, "y");
    ASSERT_TRUE(all_see({{9, {"a", "y"}}}));
    EXPECT_EQ(raw({"HEXISTS", "xq:lobby", "7"}), ":0\r\n");
    EXPECT_EQ(a.lobby->stats().written, 3u);
    EXPECT_EQ(b.lobby->stats().written, 0u);
}

TEST_F(LobbyReplicaTest, ADeadNodesEntriesAreForgottenAndTakenOver) {
    auto& a = node("a");
    auto& b = node("b");
    auto& c = node("c");
    for (std::uint64_t g : {1, 2, 3}) a.lobby->put(g, "a" + std::to_string(g));
    c.lobby->put(4, "c4");
    ASSERT_TRUE(all_see({{1, {"a", "a1"}}, {2, {"a", "a2"}}, {3, {"a", "a3"}}, {4, {"c", "c4"}}}));

    // b takes a's games over: a put under b's id is refused while a's entry is there.
    b.lobby->put(1, "b1");
    ASSERT_TRUE(run_until(io_, [&] { return b.lobby->stats().refused == 1; }));
    std::optional<std::expected<std::int64_t, RedisError>> forgotten;
    b.lobby->forget_node("a", [&](auto r) { forgotten = r; });
    ASSERT_TRUE(run_until(io_, [&] { return forgotten.has_value(); }));
    ASSERT_TRUE(*forgotten);
    EXPECT_EQ(**forgotten, 3);
    std::optional<std::expected<std::int64_t, RedisError>> refused;
    b.lobby->forget_node("b", [&](auto r) { refused = r; });  // never oneself
    ASSERT_TRUE(run_until(io_, [&] { return refused.has_value(); }));
    EXPECT_FALSE(*refused);
    ASSERT_TRUE(run_until(io_, [&] { return !c.lobby->owner(2) && !c.lobby->owner(3); }));
    for (std::uint64_t g : {1, 2, 3}) b.lobby->put(g, "b" + std::to_string(g));
    ASSERT_TRUE(run_until(io_, [&] {
        return c.lobby->owner(1) == "b" && c.lobby->owner(2) == "b" && c.lobby->owner(3) == "b";
    }));
    EXPECT_EQ(c.lobby->find(1)->summary, "b1");

    // a was only paused: its late put of a game now b's is refused, and nobody sees it.
    a.lobby->put(2, "a2, stale");
    ASSERT_TRUE(run_until(io_, [&] { return a.lobby->stats().refused == 1; }));
    EXPECT_EQ(raw({"HGET", "xq:lobby", "2"}), "$4\r\nb|b2\r\n");
    EXPECT_EQ(c.lobby->find(2)->summary, "b2");
}

TEST_F(LobbyReplicaTest, APreviousRunsEntriesAreRemovedByTheNextRun) {
    auto& b = node("b");
    // Node a's previous process listed games 5 and 6 and died; a restarts with only game 6.
    raw({"HSET", "xq:lobby", "5", "a|old five", "6", "a|old six"});
    raw({"SADD", "xq:lobby:node:a", "5", "6"});
    raw({"PUBLISH", "xq:lobby", "P|5|a|old five"});
    raw({"PUBLISH", "xq:lobby", "P|6|a|old six"});
    ASSERT_TRUE(run_until(io_, [&] { return b.lobby->entries().size() == 2; }));
    auto& a = node("a");
    a.lobby->put(6, "six");
    ASSERT_TRUE(all_see({{6, {"a", "six"}}}));
    EXPECT_EQ(raw({"HEXISTS", "xq:lobby", "5"}), ":0\r\n");
    EXPECT_EQ(raw({"SMEMBERS", "xq:lobby:node:a"}), "*1\r\n$1\r\n6\r\n");
}

TEST_F(LobbyReplicaTest, GarbageInRedisIsSkippedAndCounted) {
    raw({"HSET", "xq:lobby", "abc", "x|y"});            // not a game id
    raw({"HSET", "xq:lobby", "014", "x|y"});            // not canonical
    raw({"HSET", "xq:lobby", "12", "no bar"});          // no owner
    raw({"HSET", "xq:lobby", "13", "bad owner!|s"});    // not a node id
    raw({"HSET", "xq:lobby", "15", "x|" + std::string(70'000, 's')});  // over max_summary_bytes
    raw({"HSET", "xq:lobby", "16", "x|fine"});
    auto& a = node("a");
    EXPECT_EQ(a.lobby->entries(), (Entries{{16, {"x", "fine"}}}));
    EXPECT_EQ(a.lobby->stats().malformed, 5u);

    // Garbage on the channel too; the replica goes on.
    for (const char* message : {"", "P|", "P|1|bad owner|s", "R|nope|x", "\xff\xfe"}) raw({"PUBLISH", "xq:lobby", message});
    raw({"PUBLISH", "xq:lobby", "P|17|x|also fine"});
    ASSERT_TRUE(run_until(io_, [&] { return a.lobby->owner(17).has_value(); }));
    EXPECT_EQ(a.lobby->stats().malformed, 10u);
    // Its own writes go on as before.
    a.lobby->put(18, "mine");
    ASSERT_TRUE(run_until(io_, [&] { return raw({"HGET", "xq:lobby", "18"}) == "$6\r\na|mine\r\n"; }));
}

}  // namespace
}  // namespace xq::cluster
