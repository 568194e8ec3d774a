// The RESP2 client against a real redis-server (tests/support/temp_redis.h): commands over a Unix
// socket and TCP, pipelining, timeouts when the server is paused, kill -9 and restart, and what a
// stopped client does not do.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "server/cluster/redis_client.h"
#include "run_until.h"
#include "support/temp_redis.h"

namespace xq::cluster {
namespace {

using test::run_until;
using Result = RedisClient::Result;

RedisAddress address_of(const std::string& text) {
    auto a = parse_redis_address(text);
    EXPECT_TRUE(a) << a.error();
    return *a;
}

class RedisClientTest : public ::testing::Test {
protected:
    std::shared_ptr<RedisClient> connect(const std::string& address, ConnectionOptions options = {}) {
        auto client = RedisClient::create(io_.get_executor(), address_of(address), options);
        client->watch_link([this] { ++ups_; }, [this](const RedisError& why) { downs_.push_back(why); });
        client->start();
        EXPECT_TRUE(run_until(io_, [&] { return client->state() == ConnectionState::Connected; })) << client->last_error();
        return client;
    }

    // Sends one command and runs the loop until its answer.
    Result call(RedisClient& client, std::initializer_list<std::string_view> args) {
        std::optional<Result> got;
        client.command(args, [&](Result r) { got = std::move(r); });
        EXPECT_TRUE(run_until(io_, [&] { return got.has_value(); }));
        return got.value_or(std::unexpected(RedisError{RedisError::Code::Timeout, "test gave up"}));
    }

    void TearDown() override {
        for (auto& c : clients_) c->stop();
    }

    asio::io_context io_{1};
    test::TempRedis redis_;
    int ups_ = 0;
    std::vector<RedisError> downs_;
    std::vector<std::shared_ptr<RedisClient>> clients_;
};

TEST(RedisAddress, ParsesTcpAndUnix) {
    EXPECT_EQ(*parse_redis_address("127.0.0.1:6379"), (RedisAddress{.host = "127.0.0.1", .port = 6379, .path = {}}));
    EXPECT_EQ(*parse_redis_address("[::1]:7000"), (RedisAddress{.host = "::1", .port = 7000, .path = {}}));
    EXPECT_EQ(parse_redis_address("[::1]:7000")->to_string(), "[::1]:7000");
    EXPECT_EQ(*parse_redis_address("unix:/tmp/r.sock"), (RedisAddress{.host = {}, .port = 0, .path = "/tmp/r.sock"}));
    for (const char* bad : {"", "localhost", "host:", "host:0", "host:70000", "host:12a", ":6379", "unix:"})
        EXPECT_FALSE(parse_redis_address(bad)) << bad;
    EXPECT_FALSE(parse_redis_address("unix:/" + std::string(200, 'a')));
}

TEST_F(RedisClientTest, CommandsOverUnixSocketAndTcp) {
    for (const auto& address : {redis_.unix_address(), redis_.tcp_address()}) {
        auto client = connect(address);
        clients_.push_back(client);
        const std::string binary("a\r\n\0\xff", 5);
        auto set = call(*client, {"SET", "k:" + address, binary});
        ASSERT_TRUE(set) << set.error().detail;
        EXPECT_EQ(*set, Reply::simple("OK"));
        auto get = call(*client, {"GET", "k:" + address});
        ASSERT_TRUE(get);
        EXPECT_EQ(*get, Reply::bulk(binary));
        EXPECT_EQ(*call(*client, {"GET", "absent"}), Reply::nil());
        EXPECT_EQ(*call(*client, {"INCR", "n:" + address}), Reply::of_integer(1));
        auto wrong = call(*client, {"NOSUCHCOMMAND"});
        ASSERT_FALSE(wrong);
        EXPECT_EQ(wrong.error().code, RedisError::Code::Server);
        EXPECT_TRUE(wrong.error().detail.starts_with("ERR unknown command")) << wrong.error().detail;
        // The connection survives an error reply.
        EXPECT_EQ(*call(*client, {"PING"}), Reply::simple("PONG"));
    }
    EXPECT_EQ(ups_, 2);
    EXPECT_TRUE(downs_.empty());
}

TEST_F(RedisClientTest, PipelinedCommandsAreAnsweredInOrder) {
    auto client = connect(redis_.unix_address());
    clients_.push_back(client);
    constexpr int kCount = 2000;
    std::vector<std::int64_t> answers;
    for (int i = 0; i < kCount; ++i) {
        client->command({"INCR", "counter"}, [&](Result r) {
            ASSERT_TRUE(r);
            answers.push_back(r->integer);
        });
    }
    // All were sent before any answer was read: one connection, many in flight.
    EXPECT_EQ(client->in_flight(), static_cast<std::size_t>(kCount));
    ASSERT_TRUE(run_until(io_, [&] { return answers.size() == kCount; }));
    for (int i = 0; i < kCount; ++i) ASSERT_EQ(answers[static_cast<std::size_t>(i)], i + 1);
}

TEST_F(RedisClientTest, RefusedWhileNotConnectedNeverInsideTheCall) {
    auto client = RedisClient::create(io_.get_executor(), address_of(redis_.unix_address()));
    clients_.push_back(client);
    std::optional<Result> got;
    client->command({"PING"}, [&](Result r) { got = std::move(r); });
    EXPECT_FALSE(got.has_value());
    ASSERT_TRUE(run_until(io_, [&] { return got.has_value(); }));
    ASSERT_FALSE(*got);
    EXPECT_EQ(got->error().code, RedisError::Code::NotConnected);
}

TEST_F(RedisClientTest, PausedServerTimesOutThenTheClientReconnects) {
    ConnectionOptions options;
    options.command_timeout = std::chrono::milliseconds(300);
    options.connect_timeout = std::chrono::milliseconds(300);
    auto client = connect(redis_.unix_address(), options);
    clients_.push_back(client);
    redis_.pause();
    std::vector<Result> got;
    for (int i = 0; i < 3; ++i) client->command({"PING"}, [&](Result r) { got.push_back(std::move(r)); });
    ASSERT_TRUE(run_until(io_, [&] { return got.size() == 3; }));
    for (const auto& r : got) {
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, RedisError::Code::Timeout) << r.error().detail;
    }
    ASSERT_EQ(downs_.size(), 1u);
    EXPECT_EQ(downs_[0].code, RedisError::Code::Timeout);
    // A paused server still accepts connections (the kernel does), but answers no PING: the
    // client does not count that as back.
    test::run_for(io_, std::chrono::milliseconds(800));
    EXPECT_NE(client->state(), ConnectionState::Connected);
    EXPECT_EQ(ups_, 1);
    redis_.resume();
    ASSERT_TRUE(run_until(io_, [&] { return client->state() == ConnectionState::Connected; })) << client->last_error();
    EXPECT_EQ(ups_, 2);
    EXPECT_EQ(*call(*client, {"PING"}), Reply::simple("PONG"));
}

TEST_F(RedisClientTest, KilledServerFailsInFlightCommandsAndIsReconnectedAfterRestart) {
    ConnectionOptions options;
    options.backoff_max = std::chrono::milliseconds(100);
    auto client = connect(redis_.tcp_address(), options);
    clients_.push_back(client);
    ASSERT_TRUE(call(*client, {"SET", "k", "v"}));
    redis_.kill();
    ASSERT_TRUE(run_until(io_, [&] { return !downs_.empty(); }));
    EXPECT_EQ(downs_[0].code, RedisError::Code::Disconnected) << downs_[0].detail;
    auto refused = call(*client, {"GET", "k"});
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, RedisError::Code::NotConnected);
    redis_.restart();
    ASSERT_TRUE(run_until(io_, [&] { return ups_ == 2; })) << client->last_error();
    // A restart without persistence is empty.
    EXPECT_EQ(*call(*client, {"GET", "k"}), Reply::nil());
}

TEST_F(RedisClientTest, NoCallbackAfterStop) {
    auto client = connect(redis_.unix_address());
    int called = 0;
    for (int i = 0; i < 10; ++i) client->command({"PING"}, [&](Result) { ++called; });
    client->stop();
    redis_.kill();
    test::run_for(io_, std::chrono::milliseconds(200));
    EXPECT_EQ(called, 0);
    EXPECT_EQ(downs_.size(), 0u);
    EXPECT_EQ(client->state(), ConnectionState::Stopped);
}

}  // namespace
}  // namespace xq::cluster
