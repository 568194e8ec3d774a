#pragma once
// One client connection. A session only moves bytes: it cuts the inbound stream into frames and
// hands each payload to its handler, and writes queued frames out one at a time. It knows nothing
// of games. Its limits keep one bad client from costing the server memory or a socket forever.

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "proto/frame.h"
#include "server/asio.h"

namespace xq::server {

struct SessionLimits {
    std::size_t max_queue_bytes = 1 << 20;  // unsent output; a client that never reads is closed
    std::size_t max_queue_frames = 4096;
    std::chrono::milliseconds idle_timeout{std::chrono::minutes(2)};     // no byte at all
    std::chrono::milliseconds frame_timeout{std::chrono::seconds(10)};  // a frame begun but unfinished
};

enum class CloseReason { PeerClosed, ReadError, WriteError, BadFrame, Overflow, IdleTimeout, FrameTimeout, ByServer };
std::string_view to_string(CloseReason reason);

class Session;

// What a session reports. Called on the server's single thread.
class SessionHandler {
public:
    virtual ~SessionHandler() = default;
    virtual void on_frame(const std::shared_ptr<Session>& session, std::string payload) = 0;
    // The byte stream cannot be framed (a header over the cap); the session closes after this.
    virtual void on_bad_frame(const std::shared_ptr<Session>& session, const proto::DecodeError& error) = 0;
    virtual void on_closed(const std::shared_ptr<Session>& session, CloseReason reason) = 0;
};

class Session : public std::enable_shared_from_this<Session> {
public:
    Session(tcp::socket socket, std::uint64_t id, const SessionLimits& limits, SessionHandler& handler);

    // Starts the reader, the writer and the watchdog.
    void start();

    // Queues one frame (length prefix included). Over the queue bounds the session is closed
    // instead: a slow reader is dropped, never buffered without limit. Shared so a broadcast
    // encodes once for every recipient.
    void deliver(std::shared_ptr<const std::string> frame);

    // Closes after the queued frames are written (or at once when `flush` is false).
    void close(CloseReason reason, bool flush = false);

    std::uint64_t id() const { return id_; }
    const std::string& peer() const { return peer_; }
    std::string peer_address() const;
    bool open() const { return !closed_; }
    std::size_t queued_bytes() const { return queued_bytes_; }

private:
    asio::awaitable<void> read_loop(std::shared_ptr<Session> self);
    asio::awaitable<void> write_loop(std::shared_ptr<Session> self);
    asio::awaitable<void> watchdog(std::shared_ptr<Session> self);
    void shut(CloseReason reason);

    tcp::socket socket_;
    std::uint64_t id_;
    SessionLimits limits_;
    SessionHandler& handler_;
    std::string peer_;
    proto::FrameReader frames_;
    asio::steady_timer wake_writer_;
    asio::steady_timer watchdog_timer_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    std::size_t queued_bytes_ = 0;
    std::chrono::steady_clock::time_point last_read_;
    std::chrono::steady_clock::time_point partial_since_;
    bool closing_ = false;  // no more input; close once the queue drains
    bool closed_ = false;
    CloseReason close_reason_ = CloseReason::ByServer;
};

}  // namespace xq::server
