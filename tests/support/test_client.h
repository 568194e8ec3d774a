#pragma once
// A blocking protocol client for server tests: real TCP on loopback, every read bounded by a
// timeout so a broken server fails the test instead of hanging it.

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>

#include "proto/frame.h"
#include "proto/messages.h"

namespace xq::test {

class TestClient {
public:
    explicit TestClient(std::uint16_t port, std::chrono::milliseconds timeout = std::chrono::seconds(5));
    // A server at another address (the LAN test reaches one in another network namespace).
    TestClient(const std::string& address, std::uint16_t port,
               std::chrono::milliseconds timeout = std::chrono::seconds(5));
    // From a chosen local address (127.0.0.2, ...): another client address for per-address limits.
    TestClient(const std::string& address, std::uint16_t port, std::chrono::milliseconds timeout,
               const std::string& from);
    // Over TLS (issue 18): the handshake is done here; throws if it fails. peer_fingerprint() is the
    // certificate's the server showed (the tests compare it to the server's own).
    // `context`: a client context to share (bench/login_storm opens hundreds of connections, and a
    // fresh one loads the system's trust store each time: tens of ms); null makes one.
    struct Tls {};
    TestClient(Tls, const std::string& address, std::uint16_t port,
               std::chrono::milliseconds timeout = std::chrono::seconds(5),
               std::shared_ptr<boost::asio::ssl::context> context = nullptr);
    ~TestClient();
    const std::string& peer_fingerprint() const { return fingerprint_; }

    // Sends a request with a fresh request id and returns that id.
    std::uint64_t send(proto::ClientBody body);
    void send_raw(std::string_view bytes);

    // The next message, or nullopt on timeout or when the server closed the connection.
    std::optional<proto::ServerMessage> next();
    // The reply to request `id`; other messages that arrive first are kept for next()/wait_for().
    proto::ServerMessage reply(std::uint64_t id);
    // Sends and waits for the reply.
    proto::ServerMessage call(proto::ClientBody body) { return reply(send(std::move(body))); }
    // The first message whose body is a T (earlier ones of other kinds are dropped).
    template <class T>
    std::optional<T> wait_for() {
        return wait_for<T>([](const T&) { return true; });
    }
    // The first T that `accept` takes (PlayerConnection also carries lag updates, say).
    template <class T, class Accept>
    std::optional<T> wait_for(Accept accept) {
        while (auto m = next())
            if (auto* body = std::get_if<T>(&m->body); body && accept(*body)) return *body;
        return std::nullopt;
    }
    // True when the server has closed the connection (reads EOF within the timeout).
    bool closed_by_server();

    // Hello with this name; expects Welcome.
    void hello(const std::string& name);

    // The server's Pings are answered with a Pong (at once, like every client of the project, or
    // `delay` later: a client faking lag) and never show up in next()/reply().
    void set_pong_delay(std::chrono::milliseconds delay) { pong_delay_ = delay; }
    std::size_t pings_answered() const { return pings_answered_; }
    // Reads for `time` (a player thinking), keeping what arrives for next() and answering Pings.
    void idle(std::chrono::milliseconds time);

private:
    std::optional<proto::ServerMessage> read_one();
    std::optional<proto::ServerMessage> read_any(std::chrono::steady_clock::time_point deadline);
    // Sends the Pongs that are due; the time until the next one (none: nothing queued).
    std::optional<std::chrono::milliseconds> send_due_pongs();
    // Takes the Pings among the frames already received, so they are answered now rather than
    // when the test gets round to reading them.
    void take_pings();

    boost::asio::io_context io_;
    boost::asio::ip::tcp::socket socket_;
    std::shared_ptr<boost::asio::ssl::context> tls_context_;
    std::unique_ptr<boost::asio::ssl::stream<boost::asio::ip::tcp::socket&>> tls_;  // null: plain
    std::string fingerprint_;
    proto::FrameReader reader_;
    std::deque<proto::ServerMessage> pending_;
    std::deque<std::string> payloads_;
    std::chrono::milliseconds timeout_;
    std::uint64_t next_id_ = 1;
    bool eof_ = false;
    std::chrono::milliseconds pong_delay_{0};
    std::deque<std::pair<std::uint64_t, std::chrono::steady_clock::time_point>> pongs_due_;  // nonce, when
    std::size_t pings_answered_ = 0;
};

// For wait_for<PlayerConnection>: a seat's connection changed to `connected` (the same event
// also carries lag updates, which a test waiting for a disconnection must skip).
inline auto seat_connected(proto::Side side, bool connected) {
    return [=](const proto::PlayerConnection& p) { return p.side == side && p.player.connected == connected; };
}

}  // namespace xq::test
