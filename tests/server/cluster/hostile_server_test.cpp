// The client against a fake server on loopback that answers garbage, oversized or unasked-for
// replies: a specific error and a reconnection, never a crash or an unbounded allocation.

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "run_until.h"
#include "server/cluster/redis_client.h"
#include "server/cluster/redis_subscriber.h"

namespace xq::cluster {
namespace {

using test::run_until;
using tcp = asio::ip::tcp;

// Accepts any number of connections; to the k-th read of each it answers script[k] (nothing once
// the script is done), and keeps the connection open.
class FakeServer {
public:
    FakeServer(asio::io_context& io, std::vector<std::string> script)
        : acceptor_(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), script_(std::move(script)) {
        accept();
    }
    std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
    int accepted() const { return accepted_; }
    void close() {
        acceptor_.close();
        for (auto& c : conns_) c->socket.close();
    }

private:
    struct Conn {
        explicit Conn(tcp::socket s) : socket(std::move(s)) {}
        tcp::socket socket;
        std::array<char, 4096> buffer{};
        std::size_t step = 0;
    };
    void accept() {
        acceptor_.async_accept([this](const boost::system::error_code& ec, tcp::socket socket) {
            if (ec) return;
            ++accepted_;
            conns_.push_back(std::make_shared<Conn>(std::move(socket)));
            serve(conns_.back());
            accept();
        });
    }
    void serve(const std::shared_ptr<Conn>& c) {
        c->socket.async_read_some(asio::buffer(c->buffer), [this, c](const boost::system::error_code& ec, std::size_t) {
            if (ec) return;
            if (c->step < script_.size()) {
                auto reply = std::make_shared<std::string>(script_[c->step++]);
                asio::async_write(c->socket, asio::buffer(*reply), [reply](const boost::system::error_code&, std::size_t) {});
            }
            serve(c);
        });
    }
    tcp::acceptor acceptor_;
    std::vector<std::string> script_;
    std::vector<std::shared_ptr<Conn>> conns_;
    int accepted_ = 0;
};

std::string repeat(std::string_view s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

ConnectionOptions quick() {
    ConnectionOptions o;
    o.connect_timeout = std::chrono::milliseconds(500);
    o.backoff_initial = std::chrono::milliseconds(10);
    o.backoff_max = std::chrono::milliseconds(20);
    return o;
}

std::shared_ptr<RedisClient> client_of(asio::io_context& io, const FakeServer& server) {
    return RedisClient::create(io.get_executor(), RedisAddress{.host = "127.0.0.1", .port = server.port(), .path = {}}, quick());
}

TEST(RedisHostileServer, GarbageInsteadOfPongIsAProtocolErrorAndRetried) {
    asio::io_context io;
    FakeServer server(io, {"HTTP/1.1 400 Bad Request\r\n\r\n"});
    auto client = client_of(io, server);
    int ups = 0;
    client->watch_link([&] { ++ups; }, {});
    client->start();
    ASSERT_TRUE(run_until(io, [&] { return server.accepted() >= 3; }));
    EXPECT_EQ(ups, 0);
    EXPECT_NE(client->state(), ConnectionState::Connected);
    EXPECT_NE(client->last_error().find("bad_type"), std::string::npos) << client->last_error();
    std::optional<RedisClient::Result> got;
    client->command({"GET", "k"}, [&](RedisClient::Result r) { got = std::move(r); });
    ASSERT_TRUE(run_until(io, [&] { return got.has_value(); }));
    ASSERT_FALSE(*got);
    EXPECT_EQ(got->error().code, RedisError::Code::NotConnected);
    EXPECT_NE(got->error().detail.find("not RESP2"), std::string::npos) << got->error().detail;
    client->stop();
    server.close();
}

struct HostileReply {
    std::string_view name;
    std::string bytes;
    RedisError::Code code;
    std::string_view says;
};

TEST(RedisHostileServer, BadRepliesDropTheConnectionWithTheReason) {
    const std::vector<HostileReply> cases = {
        {"2 GB bulk string", "$2147483648\r\n", RedisError::Code::Protocol, "bulk_too_long"},
        {"billion-element array", "*1000000000\r\n", RedisError::Code::Protocol, "too_many_elements"},
        {"deep nesting", repeat("*1\r\n", 50), RedisError::Code::Protocol, "too_deep"},
        {"endless line", "+" + std::string(100'000, 'x'), RedisError::Code::Protocol, "line_too_long"},
        {"RESP3 map", "%1\r\n+a\r\n+b\r\n", RedisError::Code::Protocol, "bad_type"},
        {"two replies to one command", "+OK\r\n+OK\r\n", RedisError::Code::Protocol, "nobody asked for"},
    };
    for (const auto& c : cases) {
        asio::io_context io;
        FakeServer server(io, {"+PONG\r\n", c.bytes});
        auto client = client_of(io, server);
        std::vector<RedisError> downs;
        client->watch_link({}, [&](const RedisError& why) { downs.push_back(why); });
        client->start();
        ASSERT_TRUE(run_until(io, [&] { return client->state() == ConnectionState::Connected; })) << c.name;
        std::optional<RedisClient::Result> got;
        client->command({"GET", "k"}, [&](RedisClient::Result r) { got = std::move(r); });
        ASSERT_TRUE(run_until(io, [&] { return !downs.empty(); })) << c.name;
        EXPECT_EQ(downs[0].code, c.code) << c.name;
        EXPECT_NE(downs[0].detail.find(c.says), std::string::npos) << c.name << ": " << downs[0].detail;
        if (c.name != "two replies to one command") {
            ASSERT_TRUE(got.has_value()) << c.name;
            ASSERT_FALSE(*got) << c.name;
            EXPECT_EQ(got->error().code, c.code) << c.name;
        }
        // It comes back: the fake answers the next connection's PING again.
        ASSERT_TRUE(run_until(io, [&] { return server.accepted() >= 2 && client->state() == ConnectionState::Connected; })) << c.name;
        client->stop();
        server.close();
    }
}

TEST(RedisHostileServer, SubscriberDropsAConnectionThatAnswersLikeNoPubSub) {
    for (const std::string& odd : {std::string(":1\r\n"), std::string("*2\r\n$7\r\nmessage\r\n$1\r\nc\r\n"),
                                   std::string("-ERR only (P|S)SUBSCRIBE allowed\r\n")}) {
        asio::io_context io;
        FakeServer server(io, {"+PONG\r\n", odd});
        int messages = 0;
        auto sub = RedisSubscriber::create(io.get_executor(), RedisAddress{.host = "127.0.0.1", .port = server.port(), .path = {}},
                                           [&](std::string_view, std::string_view) { ++messages; }, quick());
        std::vector<RedisError> downs;
        sub->watch_link({}, [&](const RedisError& why) { downs.push_back(why); });
        sub->subscribe("c");
        sub->start();
        ASSERT_TRUE(run_until(io, [&] { return !downs.empty(); })) << odd;
        EXPECT_FALSE(downs[0].detail.empty());
        EXPECT_EQ(messages, 0) << odd;
        sub->stop();
        server.close();
    }
}

TEST(RedisHostileServer, SilentServerTimesOutTheHandshake) {
    asio::io_context io;
    FakeServer server(io, {});
    auto client = client_of(io, server);
    client->start();
    ASSERT_TRUE(run_until(io, [&] { return server.accepted() >= 2; }));
    EXPECT_NE(client->last_error().find("no PONG"), std::string::npos) << client->last_error();
    client->stop();
    server.close();
}

}  // namespace
}  // namespace xq::cluster
