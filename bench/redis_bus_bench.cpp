// Publish-to-deliver latency through our Redis client (server/cluster/), against two blocking
// raw sockets speaking RESP2 by hand to the same throw-away redis-server in the same run: the
// reference is what Redis itself plus the loopback cost, one message at a time.
//
//   redis_bus_bench [MESSAGES] [PAYLOAD_BYTES]      (defaults 20000, 100)
//
// Rows: raw sockets; RedisClient + RedisSubscriber; the Bus (envelope, sequence check), run in
// alternating rounds. Each prints p50/p99 in µs and its ratio to the raw row.

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "server/cluster/bus.h"
#include "server/log/log.h"
#include "support/temp_redis.h"

namespace {

using namespace xq::cluster;
using Clock = std::chrono::steady_clock;

struct Figures {
    double p50_us;
    double p99_us;
};

Figures percentiles(std::vector<double>& us) {
    if (std::getenv("XQ_BENCH_DEBUG")) {
        std::size_t over = 0;
        for (double u : us) over += u > 1000;
        std::printf("  (%zu samples over 1 ms)\n", over);
    }
    std::sort(us.begin(), us.end());
    return {us[us.size() / 2], us[us.size() * 99 / 100]};
}

int connect_unix(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) throw std::runtime_error("connect " + path);
    return fd;
}

// Reads from `fd` until `parser` completes `n` replies.
std::vector<Reply> read_replies(int fd, Parser& parser, std::size_t n) {
    std::vector<Reply> out;
    char buffer[65536];
    while (out.size() < n) {
        const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
        if (got <= 0) throw std::runtime_error("redis closed the connection");
        auto replies = parser.feed(std::string_view(buffer, static_cast<std::size_t>(got)));
        if (!replies) throw std::runtime_error(replies.error().detail);
        for (auto& r : *replies) out.push_back(std::move(r));
    }
    return out;
}

void send_all(int fd, const std::string& bytes) {
    if (::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(bytes.size())) throw std::runtime_error("send");
}

// The reference: PUBLISH on one socket, then wait for the message on the other.
std::vector<double> raw_sockets(const xq::test::TempRedis& redis, int messages, const std::string& payload) {
    const int sub = connect_unix(redis.socket_path().string());
    const int pub = connect_unix(redis.socket_path().string());
    Parser sub_parser, pub_parser;
    send_all(sub, encode_command({"SUBSCRIBE", "bench"}));
    read_replies(sub, sub_parser, 1);
    std::vector<double> us;
    const std::string command = encode_command({"PUBLISH", "bench", payload});
    for (int i = 0; i < messages; ++i) {
        const auto sent = Clock::now();
        send_all(pub, command);
        read_replies(sub, sub_parser, 1);
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - sent).count());
        read_replies(pub, pub_parser, 1);
    }
    ::close(sub);
    ::close(pub);
    return us;
}

// Our client and subscriber on one io_context, as in a node: publish, and publish the next one
// when the message has arrived.
std::vector<double> our_client(const xq::test::TempRedis& redis, int messages, const std::string& payload) {
    asio::io_context io{1};
    const auto address = *parse_redis_address(redis.unix_address());
    auto client = RedisClient::create(io.get_executor(), address);
    std::vector<double> us;
    Clock::time_point sent;
    std::function<void()> next = [&] {
        if (static_cast<int>(us.size()) == messages) return;
        sent = Clock::now();
        client->command({"PUBLISH", "bench", payload}, [](RedisClient::Result) {});
    };
    auto sub = RedisSubscriber::create(io.get_executor(), address, [&](std::string_view, std::string_view) {
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - sent).count());
        next();
    });
    sub->on_subscribed([&](std::string_view) { next(); });
    sub->subscribe("bench");
    client->watch_link([&] { sub->start(); }, {});
    client->start();
    while (static_cast<int>(us.size()) < messages) io.run_one();
    client->stop();
    sub->stop();
    return us;
}

// The bus: node n2 watches game 1, node n1 publishes its events.
std::vector<double> our_bus(const xq::test::TempRedis& redis, int messages, const std::string& payload) {
    asio::io_context io{1};
    const auto address = *parse_redis_address(redis.unix_address());
    auto pub1 = RedisClient::create(io.get_executor(), address);
    auto pub2 = RedisClient::create(io.get_executor(), address);
    std::vector<double> us;
    Clock::time_point sent;
    std::shared_ptr<Bus> sender;
    std::function<void()> next = [&] {
        if (static_cast<int>(us.size()) == messages) return;
        sent = Clock::now();
        sender->publish_game(1, payload);
    };
    BusHandlers receiving;
    receiving.on_game_message = [&](std::uint64_t, std::string_view, std::string_view) {
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - sent).count());
        next();
    };
    receiving.on_live = [&](std::optional<std::uint64_t> game) {
        if (game) next();
    };
    sender = Bus::create(io.get_executor(), pub1, "n1", {});
    auto receiver = Bus::create(io.get_executor(), pub2, "n2", receiving);
    pub1->watch_link([&] { sender->start(); receiver->start(); receiver->watch_game(1); }, {});
    pub1->start();
    pub2->start();
    while (static_cast<int>(us.size()) < messages) io.run_one();
    if (receiver->stats().gaps != 0) std::printf("warning: %llu gaps\n", static_cast<unsigned long long>(receiver->stats().gaps));
    sender->stop();
    receiver->stop();
    pub1->stop();
    pub2->stop();
    return us;
}

}  // namespace

int main(int argc, char** argv) {
    const int messages = argc > 1 ? std::atoi(argv[1]) : 20000;
    const std::size_t bytes = argc > 2 ? static_cast<std::size_t>(std::atoi(argv[2])) : 100;
    xq::server::set_log_level(xq::server::LogLevel::Warn);
    xq::test::TempRedis redis;
    const std::string payload(bytes, 'x');
    std::printf("publish->deliver, %d messages of %zu bytes, one at a time, Unix socket, redis-server %d\n", messages, bytes,
                static_cast<int>(redis.pid()));
    // In rounds, the rows taking turns, so that other load on the machine falls on all of them.
    constexpr int kRounds = 5;
    std::vector<double> raw_us, ours_us, bus_us;
    for (int round = 0; round < kRounds; ++round) {
        for (double u : raw_sockets(redis, messages / kRounds, payload)) raw_us.push_back(u);
        for (double u : our_client(redis, messages / kRounds, payload)) ours_us.push_back(u);
        for (double u : our_bus(redis, messages / kRounds, payload)) bus_us.push_back(u);
    }
    const auto raw = percentiles(raw_us);
    const auto ours = percentiles(ours_us);
    const auto bus = percentiles(bus_us);
    const auto row = [&](const char* name, Figures f) {
        std::printf("%-28s p50 %7.1f us  p99 %7.1f us  ratio to raw p50 %.2f  p99 %.2f\n", name, f.p50_us, f.p99_us, f.p50_us / raw.p50_us,
                    f.p99_us / raw.p99_us);
    };
    row("raw sockets (reference)", raw);
    row("RedisClient+Subscriber", ours);
    row("Bus (envelope, sequence)", bus);
    return 0;
}
