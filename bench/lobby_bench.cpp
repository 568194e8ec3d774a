// What the lobby replica (server/cluster/lobby_replica.h) costs Redis per game update, against
// the plain way in the same run and on the same throw-away redis-server: one HSET and one PUBLISH
// per update, pipelined through the same RedisClient. Both rows write every game's summary once
// per round and wait until a second node has seen all of them; they take turns, round by round.
//
//   lobby_bench [GAMES] [ROUNDS] [SUMMARY_BYTES]      (defaults 2000, 10, 200)
//
// Redis CPU is Redis's own account (INFO cpu, main thread); wall time is from the first write to
// the last update seen by the other node. The replica flushes without its coalescing interval
// here (every round's puts are one burst anyway), so its wall time is the cost, not the wait.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "server/cluster/lobby_replica.h"
#include "server/log/log.h"
#include "support/temp_redis.h"

namespace {

using namespace xq::cluster;
using Clock = std::chrono::steady_clock;

struct Totals {
    double redis_us = 0;
    double wall_us = 0;
    long updates = 0;
};

std::string command(const xq::test::TempRedis& redis, std::initializer_list<std::string_view> args) {
    return redis.raw_command(encode_command(args));
}

// Redis's main thread CPU time so far (INFO cpu): commands, scripts and socket I/O alike.
double redis_cpu_us(const xq::test::TempRedis& redis) {
    const std::string info = command(redis, {"INFO", "cpu"});
    double total = 0;
    for (const char* field : {"used_cpu_sys_main_thread:", "used_cpu_user_main_thread:"}) {
        const auto at = info.find(field);
        if (at == std::string::npos) throw std::runtime_error("INFO cpu has no main thread figures");
        total += std::atof(info.c_str() + at + std::strlen(field)) * 1e6;
    }
    return total;
}

void run_until(asio::io_context& io, const std::function<bool()>& done) {
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (!done()) {
        if (Clock::now() > deadline) throw std::runtime_error("the bench waited 60 s for Redis");
        io.restart();
        io.run_one_for(std::chrono::milliseconds(50));
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int games = argc > 1 ? std::atoi(argv[1]) : 2000;
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 10;
    const std::size_t bytes = argc > 3 ? static_cast<std::size_t>(std::atoi(argv[3])) : 200;
    xq::server::set_log_level(xq::server::LogLevel::Warn);
    xq::test::TempRedis redis;
    asio::io_context io{1};
    const auto address = *parse_redis_address(redis.unix_address());

    auto client_a = RedisClient::create(io.get_executor(), address);
    auto client_b = RedisClient::create(io.get_executor(), address);
    client_a->start();
    client_b->start();
    auto a = LobbyReplica::create(io.get_executor(), client_a, "a", LobbyReplicaOptions{.flush_every = std::chrono::milliseconds(0)});
    auto b = LobbyReplica::create(io.get_executor(), client_b, "b");
    long seen_by_b = 0;
    b->on_change([&](std::uint64_t, const LobbyEntry* entry) { seen_by_b += entry != nullptr; });
    a->start();
    b->start();
    // The plain way: its own channel, and a subscriber on the second node counting messages.
    long plain_seen = 0;
    auto subscriber = RedisSubscriber::create(io.get_executor(), address, [&](std::string_view, std::string_view) { ++plain_seen; });
    subscriber->subscribe("xq:plain");
    subscriber->start();
    run_until(io, [&] { return a->synced() && b->synced() && subscriber->live("xq:plain"); });

    Totals replica, plain;
    for (int round = 0; round < rounds; ++round) {
        const std::string summary = std::string(bytes - 4, 's') + std::to_string(1000 + round);

        double cpu = redis_cpu_us(redis);
        auto start = Clock::now();
        const long before = seen_by_b;
        for (int g = 0; g < games; ++g) a->put(static_cast<std::uint64_t>(g), summary);
        run_until(io, [&] { return seen_by_b - before == games; });
        replica.wall_us += std::chrono::duration<double, std::micro>(Clock::now() - start).count();
        replica.redis_us += redis_cpu_us(redis) - cpu;
        replica.updates += games;

        cpu = redis_cpu_us(redis);
        start = Clock::now();
        const long plain_before = plain_seen;
        long answered = 0;
        for (int g = 0; g < games; ++g) {
            const auto game = std::to_string(g);
            const auto value = encode_lobby_value("a", summary);
            client_a->command({"HSET", "xq:plain", game, value}, [&](RedisClient::Result) { ++answered; });
            client_a->command({"PUBLISH", "xq:plain", encode_lobby_put(static_cast<std::uint64_t>(g), "a", summary)},
                              [&](RedisClient::Result) { ++answered; });
        }
        run_until(io, [&] { return answered == 2L * games && plain_seen - plain_before == games; });
        plain.wall_us += std::chrono::duration<double, std::micro>(Clock::now() - start).count();
        plain.redis_us += redis_cpu_us(redis) - cpu;
        plain.updates += games;
    }
    std::printf("lobby writes: %d games x %d rounds, summaries of %zu bytes, one other node listening, redis-server %d\n", games, rounds,
                bytes, static_cast<int>(redis.pid()));
    const auto row = [&](const char* name, const Totals& t) {
        std::printf("%-34s Redis CPU %6.2f us/update  wall %6.2f us/update  ratio to plain: Redis %.2f  wall %.2f\n", name,
                    t.redis_us / static_cast<double>(t.updates), t.wall_us / static_cast<double>(t.updates), t.redis_us / plain.redis_us,
                    t.wall_us / plain.wall_us);
    };
    row("HSET+PUBLISH per update (reference)", plain);
    row("LobbyReplica (script per 256)", replica);
    a->stop();
    b->stop();
    subscriber->stop();
    client_a->stop();
    client_b->stop();
    return 0;
}
