// The subscriber connection against a real redis-server: delivery of binary messages, subscribe
// and unsubscribe while running, keep-alive against a paused server, and re-subscription after
// redis-server is killed and restarted.

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "run_until.h"
#include "server/cluster/redis_client.h"
#include "server/cluster/redis_subscriber.h"
#include "support/temp_redis.h"

namespace xq::cluster {
namespace {

using test::run_until;
using Message = std::pair<std::string, std::string>;

class RedisSubscriberTest : public ::testing::Test {
protected:
    void SetUp() override {
        options_.backoff_max = std::chrono::milliseconds(100);
        address_ = *parse_redis_address(redis_.unix_address());
        publisher_ = RedisClient::create(io_.get_executor(), address_, options_);
        publisher_->start();
        subscriber_ = RedisSubscriber::create(
            io_.get_executor(), address_, [this](std::string_view c, std::string_view p) { got_.emplace_back(c, p); }, options_);
        subscriber_->watch_link([this] { ++ups_; }, [this](const RedisError& why) { downs_.push_back(why); });
        subscriber_->start();
        ASSERT_TRUE(run_until(io_, [&] { return publisher_->state() == ConnectionState::Connected && ups_ == 1; }));
    }
    void TearDown() override {
        publisher_->stop();
        subscriber_->stop();
    }

    // PUBLISH, and the number of subscribers Redis says it reached.
    std::int64_t publish(const std::string& channel, const std::string& payload) {
        std::optional<RedisClient::Result> r;
        publisher_->command({"PUBLISH", channel, payload}, [&](RedisClient::Result x) { r = std::move(x); });
        EXPECT_TRUE(run_until(io_, [&] { return r.has_value(); }));
        EXPECT_TRUE(r && *r) << (r && !*r ? r->error().detail : "");
        return r && *r ? (*r)->integer : -1;
    }

    bool subscribed(const std::string& channel) {
        return run_until(io_, [&] { return subscriber_->live(channel); });
    }

    asio::io_context io_{1};
    test::TempRedis redis_;
    ConnectionOptions options_;
    RedisAddress address_;
    std::shared_ptr<RedisClient> publisher_;
    std::shared_ptr<RedisSubscriber> subscriber_;
    std::vector<Message> got_;
    int ups_ = 0;
    std::vector<RedisError> downs_;
};

TEST_F(RedisSubscriberTest, DeliversBinaryMessagesOfSubscribedChannelsOnly) {
    subscriber_->subscribe("xq:game:1");
    subscriber_->subscribe("xq:to:n1");
    ASSERT_TRUE(subscribed("xq:game:1"));
    ASSERT_TRUE(subscribed("xq:to:n1"));
    const std::string binary("\0\r\n\xff move", 9);
    EXPECT_EQ(publish("xq:game:1", binary), 1);
    EXPECT_EQ(publish("xq:game:2", "not ours"), 0);
    EXPECT_EQ(publish("xq:to:n1", "hello"), 1);
    ASSERT_TRUE(run_until(io_, [&] { return got_.size() == 2; }));
    EXPECT_EQ(got_[0], Message("xq:game:1", binary));
    EXPECT_EQ(got_[1], Message("xq:to:n1", "hello"));
}

TEST_F(RedisSubscriberTest, UnsubscribedChannelGetsNothingMore) {
    subscriber_->subscribe("xq:game:7");
    ASSERT_TRUE(subscribed("xq:game:7"));
    subscriber_->unsubscribe("xq:game:7");
    // Redis has answered the UNSUBSCRIBE once PUBLISH reaches nobody (one connection, in order).
    ASSERT_TRUE(run_until(io_, [&] { return publish("xq:game:7", "late") == 0; }));
    test::run_for(io_, std::chrono::milliseconds(100));
    EXPECT_TRUE(got_.empty());
    EXPECT_TRUE(subscriber_->channels().empty());
}

TEST_F(RedisSubscriberTest, ResubscribesAfterRedisIsKilledAndRestarted) {
    subscriber_->subscribe("xq:game:3");
    subscriber_->subscribe("xq:to:n2");
    ASSERT_TRUE(subscribed("xq:game:3"));
    redis_.kill();
    ASSERT_TRUE(run_until(io_, [&] { return !downs_.empty(); }));
    EXPECT_FALSE(subscriber_->live("xq:game:3"));
    // Subscribed while down: sent with the others on reconnection.
    subscriber_->subscribe("xq:game:4");
    redis_.restart();
    ASSERT_TRUE(run_until(io_, [&] { return ups_ == 2 && publisher_->state() == ConnectionState::Connected; }));
    for (const char* c : {"xq:game:3", "xq:to:n2", "xq:game:4"}) ASSERT_TRUE(subscribed(c)) << c;
    EXPECT_EQ(publish("xq:game:3", "after"), 1);
    EXPECT_EQ(publish("xq:game:4", "new"), 1);
    ASSERT_TRUE(run_until(io_, [&] { return got_.size() == 2; }));
    EXPECT_EQ(got_[0], Message("xq:game:3", "after"));
    EXPECT_EQ(got_[1], Message("xq:game:4", "new"));
}

TEST_F(RedisSubscriberTest, PausedServerIsNoticedByTheKeepAlive) {
    publisher_->stop();
    subscriber_->stop();
    ConnectionOptions fast;
    fast.ping_interval = std::chrono::milliseconds(100);
    fast.command_timeout = std::chrono::milliseconds(300);
    fast.connect_timeout = std::chrono::milliseconds(300);
    auto sub = RedisSubscriber::create(io_.get_executor(), address_, [](std::string_view, std::string_view) {}, fast);
    std::vector<RedisError> downs;
    int ups = 0;
    sub->watch_link([&] { ++ups; }, [&](const RedisError& why) { downs.push_back(why); });
    sub->subscribe("xq:game:9");
    sub->start();
    ASSERT_TRUE(run_until(io_, [&] { return sub->live("xq:game:9"); }));
    redis_.pause();
    ASSERT_TRUE(run_until(io_, [&] { return !downs.empty(); }));
    EXPECT_EQ(downs[0].code, RedisError::Code::Timeout);
    EXPECT_NE(downs[0].detail.find("no PONG"), std::string::npos) << downs[0].detail;
    redis_.resume();
    ASSERT_TRUE(run_until(io_, [&] { return ups == 2 && sub->live("xq:game:9"); }));
    sub->stop();
}

}  // namespace
}  // namespace xq::cluster
