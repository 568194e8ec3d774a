#pragma once
// One connection to Redis and its upkeep, shared by the command client (redis_client.h) and the
// subscriber (redis_subscriber.h): connect with a timeout (TCP or a Unix socket) and count as
// connected once the server has answered a PING, one writer that
// sends whatever is queued in one write (natural pipelining), a reader that feeds the RESP2
// parser, and after a loss a reconnection with exponential backoff until stop().
//
// Callback-based on the server's single io_context thread, as server/net is; handlers hold a
// shared_ptr to the connection, so the owner calls stop() and may then drop its pointer. Every
// handler of a connection that was dropped meanwhile is ignored (a generation count).

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/cluster/asio.h"
#include "server/cluster/redis_address.h"
#include "server/cluster/resp.h"

namespace xq::cluster {

enum class ConnectionState { Disconnected, Connecting, Connected, Stopped };
std::string_view to_string(ConnectionState state);

struct ConnectionOptions {
    std::chrono::milliseconds connect_timeout{2000};
    // A command (or the subscriber's keep-alive PING) unanswered this long: the server is taken
    // for dead and the connection is dropped and made again. RESP has no way to cancel one
    // command, and a late reply would otherwise be matched to the next one.
    std::chrono::milliseconds command_timeout{2000};
    std::chrono::milliseconds backoff_initial{50};
    std::chrono::milliseconds backoff_max{1000};
    std::size_t max_pending = 100'000;             // commands awaiting a reply
    std::size_t max_queued_bytes = 64 << 20;       // encoded commands not yet written
    std::chrono::milliseconds ping_interval{1000};  // the subscriber's keep-alive
    ParseLimits limits;
};

// Why a command failed or a connection went down.
struct RedisError {
    enum class Code {
        NotConnected,  // asked while there was no connection
        Disconnected,  // the connection went down before the reply came
        Timeout,       // no reply within command_timeout (the connection is dropped)
        Protocol,      // the server's bytes are not RESP2 within our limits (dropped)
        Overloaded,    // over max_pending or max_queued_bytes
        Server         // Redis answered with an error reply (-ERR, -NOSCRIPT, ...)
    };
    Code code;
    std::string detail;
};
std::string_view to_string(RedisError::Code code);

class RedisConnection : public std::enable_shared_from_this<RedisConnection> {
public:
    virtual ~RedisConnection() = default;
    RedisConnection(const RedisConnection&) = delete;
    RedisConnection& operator=(const RedisConnection&) = delete;

    // Connects, and reconnects after every loss, until stop().
    void start();
    // Closes for good. No callback of any kind is called after this returns (commands awaiting
    // replies are dropped unanswered), so an owner may stop() in its destructor.
    void stop();

    // `up` is called each time a connection is made (the first and every reconnection), `down`
    // each time a made connection is lost, with the reason. Both on the io_context's thread.
    void watch_link(std::function<void()> up, std::function<void(const RedisError&)> down);

    ConnectionState state() const { return state_; }
    const RedisAddress& address() const { return address_; }
    const ConnectionOptions& options() const { return options_; }
    // What ended the last connection or connection attempt (empty before any).
    const std::string& last_error() const { return last_error_; }

protected:
    RedisConnection(asio::any_io_executor executor, RedisAddress address, ConnectionOptions options);

    // A connection is up (called before the watchers' `up`).
    virtual void on_connected() = 0;
    // One reply arrived. May drop() or stop().
    virtual void on_reply(Reply reply) = 0;
    // The connection is gone (dropped, or lost); fail what waits on it. Not called by stop().
    virtual void on_disconnected(const RedisError& why) = 0;
    // stop() was called: cancel timers of one's own, forget what waits (without calling it).
    virtual void on_stopped() = 0;

    // Queues encoded commands for the writer. Only while Connected.
    void send(std::string_view bytes);
    std::size_t queued_bytes() const { return out_.size() + writing_.size(); }
    // Closes the current connection for `why` and schedules a reconnection.
    void drop(const RedisError& why);
    asio::any_io_executor executor() const { return executor_; }
    std::uint64_t generation() const { return generation_; }

private:
    void connect();
    void connect_to(const asio::generic::stream_protocol::endpoint& endpoint);
    void connected();
    void established(const Reply& pong);
    void abandon(const std::string& why);
    void connect_failed(const std::string& why);
    void fault(const RedisError& why);  // a read or write failed: drop(), or abandon() a handshake
    void read();
    void write();
    void schedule_reconnect();

    asio::any_io_executor executor_;
    RedisAddress address_;
    ConnectionOptions options_;
    asio::generic::stream_protocol::socket socket_;
    asio::ip::tcp::resolver resolver_;
    asio::steady_timer connect_timer_;
    asio::steady_timer retry_timer_;
    Parser parser_;
    std::array<char, 16 * 1024> in_{};
    std::string out_;      // queued while a write is in flight
    std::string writing_;  // the bytes of the write in flight
    ConnectionState state_ = ConnectionState::Disconnected;
    bool handshaking_ = false;  // connected, awaiting the PONG that makes it Connected
    std::uint64_t generation_ = 0;  // bumped by every drop and stop: older handlers are stale
    std::chrono::milliseconds backoff_;
    std::string last_error_;
    std::vector<std::function<void()>> up_;
    std::vector<std::function<void(const RedisError&)>> down_;
};

}  // namespace xq::cluster
