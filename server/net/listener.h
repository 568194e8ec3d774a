#pragma once
// Accepts TCP connections and turns each into a Session, enforcing the connection caps (in total
// and per client address) before any byte is read. One sweep timer checks every session's
// timeouts, so sessions need no timer of their own.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

#include "server/net/session.h"

namespace xq::server {

struct ListenerLimits {
    std::size_t max_connections = 18000;
    std::size_t max_per_address = 64;
};

class Listener {
public:
    // `handler` gets every session's frames; the listener only counts sessions per address. With
    // `tls`, every connection is TLS (a handshake first, counted against the caps like any other).
    // With `site`, a connection whose first bytes are an HTTP request is served the watch page
    // and may become a WebSocket (session.h).
    Listener(asio::io_context& io, const tcp::endpoint& endpoint, ListenerLimits limits, SessionLimits session_limits,
             SessionHandler& handler, std::shared_ptr<boost::asio::ssl::context> tls = nullptr,
             const web::Site* site = nullptr);

    void start();
    void stop();
    std::uint16_t port() const { return port_; }

    // Sessions report their end here so the caps free their slot.
    void released(const Session& session);
    std::size_t connections() const { return total_; }

private:
    asio::awaitable<void> accept_loop();
    void arm_sweep();
    void sweep();

    tcp::acceptor acceptor_;
    asio::steady_timer sweep_timer_;
    bool stopped_ = false;
    // Open sessions by id, for the sweep; a session's own handlers keep it alive.
    std::unordered_map<std::uint64_t, std::weak_ptr<Session>> sessions_;
    std::uint16_t port_ = 0;
    ListenerLimits limits_;
    SessionLimits session_limits_;
    SessionHandler& handler_;
    std::shared_ptr<boost::asio::ssl::context> tls_;  // null: plain TCP
    const web::Site* site_;  // null: frames only
    std::unordered_map<std::string, std::size_t> per_address_;  // by address group (address_group.h)
    std::size_t total_ = 0;
    std::uint64_t next_id_ = 1;
};

}  // namespace xq::server
