#include "server/net/listener.h"

#include <algorithm>
#include <vector>

#include <fcntl.h>

#include "server/log/log.h"
#include "server/net/address_group.h"

namespace xq::server {
namespace {

// Timeouts are seconds to minutes; a sweep every quarter of the shorter one (at most a second)
// closes a session at most that late, for a scan of every session once a second.
std::chrono::milliseconds sweep_period(const SessionLimits& limits) {
    const auto shorter = std::min({limits.idle_timeout, limits.frame_timeout, limits.handshake_timeout});
    return std::clamp(shorter / 4, std::chrono::milliseconds(10), std::chrono::milliseconds(1000));
}

}  // namespace

Listener::Listener(asio::io_context& io, const tcp::endpoint& endpoint, ListenerLimits limits,
                   SessionLimits session_limits, SessionHandler& handler, std::shared_ptr<boost::asio::ssl::context> tls,
                   const web::Site* site)
    : acceptor_(io),
      sweep_timer_(io),
      limits_(limits),
      session_limits_(session_limits),
      handler_(handler),
      tls_(std::move(tls)),
      site_(site) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(asio::socket_base::max_listen_connections);
    ::fcntl(acceptor_.native_handle(), F_SETFD, FD_CLOEXEC);
    port_ = acceptor_.local_endpoint().port();
}

void Listener::start() {
    asio::co_spawn(acceptor_.get_executor(), accept_loop(), asio::detached);
    arm_sweep();
}

void Listener::stop() {
    stopped_ = true;
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    sweep_timer_.cancel();
}

void Listener::arm_sweep() {
    if (stopped_) return;
    sweep_timer_.expires_after(sweep_period(session_limits_));
    sweep_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec || stopped_) return;
        sweep();
        arm_sweep();
    });
}

void Listener::sweep() {
    flush_log_summaries();  // a flood's last window is reported within a sweep of its end
    // Closing a session calls released(), which edits the map: collect first, then close.
    const auto now = Session::Clock::now();
    std::vector<std::pair<std::shared_ptr<Session>, CloseReason>> expired;
    for (const auto& [id, weak] : sessions_)
        if (auto session = weak.lock())
            if (const auto reason = session->timed_out(now)) expired.emplace_back(std::move(session), *reason);
    for (const auto& [session, reason] : expired) session->close(reason);
}

void Listener::released(const Session& session) {
    sessions_.erase(session.id());
    if (total_ > 0) --total_;
    const auto it = per_address_.find(session.address_group());
    if (it != per_address_.end() && --it->second == 0) per_address_.erase(it);
}

asio::awaitable<void> Listener::accept_loop() {
    while (acceptor_.is_open()) {
        boost::system::error_code ec;
        tcp::socket socket = co_await acceptor_.async_accept(asio::redirect_error(asio::use_awaitable, ec));
        if (ec == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
        if (ec) {
            // Out of file descriptors and the like: log, breathe, go on accepting.
            log(LogLevel::Warn, "accept failed: ", ec.message());
            asio::steady_timer pause(acceptor_.get_executor(), std::chrono::milliseconds(50));
            co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            continue;
        }
        boost::system::error_code peer_ec;
        const auto remote = socket.remote_endpoint(peer_ec);
        // Counted by address group: an IPv6 /64 is one client (address_group.h).
        const std::string address = peer_ec ? "unknown" : address_group(remote.address());
        if (total_ >= limits_.max_connections || per_address_[address] >= limits_.max_per_address) {
            log(LogLevel::Warn, "refusing ", address, ": connection cap reached");
            if (per_address_[address] == 0) per_address_.erase(address);
            socket.close(peer_ec);
            continue;
        }
        // Asio opens sockets without close-on-exec: a child the server starts (xiangqi-server --bots)
        // would inherit every open connection and keep it alive after the session closed it.
        ::fcntl(socket.native_handle(), F_SETFD, FD_CLOEXEC);
        ++total_;
        ++per_address_[address];
        auto session = std::make_shared<Session>(std::move(socket), next_id_++, session_limits_, handler_, tls_.get(), site_);
        log(LogLevel::Debug, "session ", session->id(), " from ", session->peer());
        sessions_.emplace(session->id(), session);
        session->start();
    }
}

}  // namespace xq::server
