// The bus between two nodes on one real redis-server: node and game channels, game subscriptions
// on demand, and every way a message can be lost made visible (a failed PUBLISH, kill -9 and
// restart of Redis, a restarted sender), plus foreign bytes on our channel.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "run_until.h"
#include "server/cluster/bus.h"
#include "support/temp_redis.h"

namespace xq::cluster {
namespace {

using test::run_until;
using namespace std::chrono_literals;

// What one node's bus reported.
struct Seen {
    std::vector<std::tuple<std::string, std::string>> node;               // from, payload
    std::vector<std::tuple<std::uint64_t, std::string, std::string>> game;  // game, from, payload
    std::vector<std::pair<std::optional<std::uint64_t>, GapReason>> gaps;
    std::vector<std::optional<std::uint64_t>> live;
};

class BusTest : public ::testing::Test {
protected:
    struct Node {
        std::shared_ptr<RedisClient> publisher;
        std::shared_ptr<Bus> bus;
        Seen seen;
        int publisher_downs = 0;
    };

    // A node's publisher and bus, kept by the fixture until TearDown.
    Node& node(const std::string& id) {
        nodes_.push_back(std::make_unique<Node>());
        Node* n = nodes_.back().get();
        ConnectionOptions options;
        options.backoff_max = 100ms;
        n->publisher = RedisClient::create(io_.get_executor(), *parse_redis_address(redis_.unix_address()), options);
        n->publisher->watch_link({}, [n](const RedisError&) { ++n->publisher_downs; });
        n->publisher->start();
        Seen* seen = &n->seen;
        BusHandlers h;
        h.on_node_message = [seen](std::string_view from, std::string_view p) { seen->node.emplace_back(from, p); };
        h.on_game_message = [seen](std::uint64_t g, std::string_view from, std::string_view p) { seen->game.emplace_back(g, from, p); };
        h.on_gap = [seen](std::optional<std::uint64_t> g, GapReason r) { seen->gaps.emplace_back(g, r); };
        h.on_live = [seen](std::optional<std::uint64_t> g) { seen->live.push_back(g); };
        n->bus = Bus::create(io_.get_executor(), n->publisher, id, std::move(h), options);
        n->bus->start();
        EXPECT_TRUE(run_until(io_, [&] { return n->publisher->state() == ConnectionState::Connected && !n->seen.live.empty(); }));
        return *n;
    }

    std::int64_t publish_game(Node& from, std::uint64_t game, const std::string& payload) {
        std::optional<std::expected<std::int64_t, RedisError>> got;
        from.bus->publish_game(game, payload, [&](auto r) { got = std::move(r); });
        EXPECT_TRUE(run_until(io_, [&] { return got.has_value(); }));
        return got && *got ? **got : -1;
    }

    bool live(Node& n, std::uint64_t game) {
        return run_until(io_, [&] {
            for (auto g : n.seen.live)
                if (g == game) return true;
            return false;
        });
    }

    void TearDown() override {
        for (auto& n : nodes_) {
            n->bus->stop();
            n->publisher->stop();
        }
    }

    asio::io_context io_{1};
    test::TempRedis redis_;
    std::vector<std::unique_ptr<Node>> nodes_;
};

TEST_F(BusTest, NodeChannelCarriesBinaryPayloadsWithTheSender) {
    auto& a = node("n1");
    auto& b = node("n2");
    const std::string payload("\0\x08\x01 move", 8);
    a.bus->send_to_node("n2", payload);
    b.bus->send_to_node("n1", "reply");
    ASSERT_TRUE(run_until(io_, [&] { return b.seen.node.size() == 1 && a.seen.node.size() == 1; }));
    EXPECT_EQ(b.seen.node[0], std::make_tuple(std::string("n1"), payload));
    EXPECT_EQ(a.seen.node[0], std::make_tuple(std::string("n2"), std::string("reply")));
    EXPECT_TRUE(a.seen.gaps.empty());
    EXPECT_TRUE(b.seen.gaps.empty());
}

TEST_F(BusTest, GameChannelIsSubscribedFromTheFirstWatcherToTheLast) {
    auto& owner = node("n1");
    auto& other = node("n2");
    EXPECT_EQ(publish_game(owner, 7, "before"), 0);  // nobody watches yet
    other.bus->watch_game(7);
    other.bus->watch_game(7);
    EXPECT_EQ(other.bus->watchers(7), 2u);
    ASSERT_TRUE(live(other, 7));
    EXPECT_EQ(publish_game(owner, 7, "m1"), 1);
    other.bus->unwatch_game(7);  // one watcher left: still subscribed
    EXPECT_EQ(publish_game(owner, 7, "m2"), 1);
    ASSERT_TRUE(run_until(io_, [&] { return other.seen.game.size() == 2; }));
    EXPECT_EQ(other.seen.game[0], std::make_tuple(std::uint64_t{7}, std::string("n1"), std::string("m1")));
    EXPECT_EQ(other.seen.game[1], std::make_tuple(std::uint64_t{7}, std::string("n1"), std::string("m2")));
    other.bus->unwatch_game(7);
    EXPECT_EQ(other.bus->watchers(7), 0u);
    ASSERT_TRUE(run_until(io_, [&] { return publish_game(owner, 7, "after") == 0; }));
    test::run_for(io_, 100ms);
    EXPECT_EQ(other.seen.game.size(), 2u);
    // The sequence ran on (before, m1, m2) with nothing lost in between: no gap.
    EXPECT_TRUE(other.seen.gaps.empty());
}

TEST_F(BusTest, AFailedPublishShowsAsAGapAtTheNextMessage) {
    auto& owner = node("n1");
    auto& other = node("n2");
    other.bus->watch_game(3);
    ASSERT_TRUE(live(other, 3));
    EXPECT_EQ(publish_game(owner, 3, "m1"), 1);
    // Redis closes the publishers' connections (not the subscribers'); while the owner's is down,
    // its PUBLISH fails and is lost.
    std::optional<std::expected<std::int64_t, RedisError>> lost;
    owner.publisher->watch_link({}, [&](const RedisError&) {
        owner.bus->publish_game(3, "m2", [&](auto r) { lost = std::move(r); });
    });
    ASSERT_EQ(redis_.raw_command("*4\r\n$6\r\nCLIENT\r\n$4\r\nKILL\r\n$4\r\nTYPE\r\n$6\r\nnormal\r\n").substr(0, 1), ":");
    ASSERT_TRUE(run_until(io_, [&] { return lost.has_value(); }));
    ASSERT_FALSE(*lost);
    EXPECT_EQ(lost->error().code, RedisError::Code::NotConnected);
    ASSERT_TRUE(run_until(io_, [&] { return owner.publisher->state() == ConnectionState::Connected; }));
    EXPECT_EQ(publish_game(owner, 3, "m3"), 1);
    ASSERT_TRUE(run_until(io_, [&] { return other.seen.game.size() == 2; }));
    ASSERT_EQ(other.seen.gaps.size(), 1u);
    EXPECT_EQ(other.seen.gaps[0], std::make_pair(std::optional<std::uint64_t>(3), GapReason::Gap));
    EXPECT_EQ(std::get<2>(other.seen.game[1]), "m3");
    EXPECT_EQ(owner.bus->stats().publish_failed, 1u);
}

TEST_F(BusTest, RedisKilledAndRestartedReportsEveryChannelForResyncAndResubscribes) {
    auto& owner = node("n1");
    auto& other = node("n2");
    other.bus->watch_game(5);
    other.bus->watch_game(6);
    ASSERT_TRUE(live(other, 5));
    ASSERT_TRUE(live(other, 6));
    EXPECT_EQ(publish_game(owner, 5, "m1"), 1);
    // Received before the kill (Redis may answer the publisher before it writes to subscribers).
    ASSERT_TRUE(run_until(io_, [&] { return other.seen.game.size() == 1; }));
    redis_.kill();
    ASSERT_TRUE(run_until(io_, [&] { return !other.bus->connected(); }));
    redis_.restart();
    using Gap = std::pair<std::optional<std::uint64_t>, GapReason>;
    ASSERT_TRUE(run_until(io_, [&] { return other.seen.gaps.size() == 3; }));
    EXPECT_EQ(other.seen.gaps[0], Gap(std::nullopt, GapReason::Reconnected));
    EXPECT_EQ(other.seen.gaps[1], Gap(5, GapReason::Reconnected));
    EXPECT_EQ(other.seen.gaps[2], Gap(6, GapReason::Reconnected));
    // Subscribed again by itself: the game's next event arrives, with no second gap.
    ASSERT_TRUE(run_until(io_, [&] { return owner.publisher->state() == ConnectionState::Connected; }));
    ASSERT_TRUE(run_until(io_, [&] { return publish_game(owner, 5, "m2") == 1; }));
    ASSERT_TRUE(run_until(io_, [&] { return other.seen.game.size() == 2; }));
    EXPECT_EQ(std::get<2>(other.seen.game[1]), "m2");
    EXPECT_EQ(other.seen.gaps.size(), 3u);
}

TEST_F(BusTest, ARestartedSenderIsReported) {
    auto& owner = node("n1");
    auto& other = node("n2");
    other.bus->watch_game(9);
    ASSERT_TRUE(live(other, 9));
    EXPECT_EQ(publish_game(owner, 9, "m1"), 1);
    // n1 again, a new process (a new epoch).
    auto& again = node("n1");
    EXPECT_NE(again.bus->epoch(), owner.bus->epoch());
    EXPECT_EQ(publish_game(again, 9, "m1'"), 1);
    ASSERT_TRUE(run_until(io_, [&] { return other.seen.game.size() == 2; }));
    ASSERT_EQ(other.seen.gaps.size(), 1u);
    EXPECT_EQ(other.seen.gaps[0].second, GapReason::SenderRestarted);
}

TEST_F(BusTest, ForeignBytesOnOurChannelAreDroppedAndCounted) {
    auto& n = node("n2");
    EXPECT_EQ(redis_.raw_command("*3\r\n$7\r\nPUBLISH\r\n$8\r\nxq:to:n2\r\n$5\r\nhello\r\n"), ":1\r\n");
    ASSERT_TRUE(run_until(io_, [&] { return n.bus->stats().malformed == 1; }));
    EXPECT_TRUE(n.seen.node.empty());
    // The channel still works.
    n.bus->send_to_node("n2", "to myself");
    ASSERT_TRUE(run_until(io_, [&] { return n.seen.node.size() == 1; }));
}

}  // namespace
}  // namespace xq::cluster
