#pragma once
// Runs an io_context until a condition holds, or fails the test after a generous deadline (other
// processes are involved: redis-server on a loaded 2-core machine).

#include <gtest/gtest.h>

#include <chrono>
#include <expected>
#include <functional>
#include <optional>

#include "server/cluster/asio.h"
#include "server/cluster/redis_connection.h"

namespace xq::test {

namespace asio = cluster::asio;

inline constexpr auto kPatience = std::chrono::seconds(20);

// True when `done` came to hold; the io_context is left ready to run again.
inline bool run_until(asio::io_context& io, const std::function<bool()>& done, std::chrono::milliseconds limit = kPatience) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        io.restart();
        io.run_one_for(std::chrono::milliseconds(50));
    }
    return true;
}

// Runs the handlers that are ready now, and those they post, for `span` (to show that something
// does NOT happen, e.g. no message after an unsubscribe; never a stand-in for synchronisation).
inline void run_for(asio::io_context& io, std::chrono::milliseconds span) {
    io.restart();
    io.run_for(span);
}

// Starts a call that answers a handler with std::expected<T, RedisError>, runs until the answer
// comes, and returns its value (a test failure, naming the error, when there is none).
template <class T, class Start>
T answer(asio::io_context& io, Start start) {
    std::optional<std::expected<T, cluster::RedisError>> got;
    start([&](std::expected<T, cluster::RedisError> r) { got = std::move(r); });
    EXPECT_TRUE(run_until(io, [&] { return got.has_value(); }));
    EXPECT_TRUE(got && *got) << (got && !*got ? got->error().detail : "no answer");
    return got && *got ? **got : T{};
}

}  // namespace xq::test
