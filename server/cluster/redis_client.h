#pragma once
// Commands to Redis on one connection: pipelined (any number in flight, written together), the
// replies matched to them in order (RESP2 answers in the order asked), each with a deadline. We
// write our own rather than use Debian 12's hiredis 0.14, which has no timeouts, frees its
// context under its callbacks and would bring C callbacks into an Asio server.
//
// Commands are refused at once (NotConnected) while there is no connection: nothing is buffered
// across a reconnection, so an owner never has a write land later than it believes. Watch the
// link (watch_link) to learn when to resynchronise.

#include <chrono>
#include <deque>
#include <expected>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "server/cluster/redis_connection.h"

namespace xq::cluster {

class RedisClient final : public RedisConnection {
public:
    using Result = std::expected<Reply, RedisError>;
    using ReplyHandler = std::function<void(Result)>;

    static std::shared_ptr<RedisClient> create(asio::any_io_executor executor, RedisAddress address, ConnectionOptions options = {});

    // Sends one command; `done` gets its reply, or why there is none (an error reply from Redis
    // is RedisError::Code::Server with its text). `done` is always called later, never inside
    // this call, and never after stop().
    void command(std::span<const std::string_view> args, ReplyHandler done);
    void command(std::initializer_list<std::string_view> args, ReplyHandler done) {
        command(std::span<const std::string_view>(args.begin(), args.size()), std::move(done));
    }

    // Commands sent and not yet answered.
    std::size_t in_flight() const { return pending_.size(); }

    // Use create().
    RedisClient(asio::any_io_executor executor, RedisAddress address, ConnectionOptions options);

private:
    struct Pending {
        ReplyHandler done;
        std::chrono::steady_clock::time_point deadline;
    };

    void on_connected() override;
    void on_reply(Reply reply) override;
    void on_disconnected(const RedisError& why) override;
    void on_stopped() override;
    void refuse(ReplyHandler done, RedisError why);
    void arm_timeout();

    std::deque<Pending> pending_;
    asio::steady_timer timeout_timer_;
    bool timer_armed_ = false;
};

}  // namespace xq::cluster
