#include "listener.h"

#include "server/log.h"

namespace xq::server {

Listener::Listener(asio::io_context& io, const tcp::endpoint& endpoint, ListenerLimits limits,
                   SessionLimits session_limits, SessionHandler& handler)
    : acceptor_(io), limits_(limits), session_limits_(session_limits), handler_(handler) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(asio::socket_base::max_listen_connections);
    port_ = acceptor_.local_endpoint().port();
}

void Listener::start() { asio::co_spawn(acceptor_.get_executor(), accept_loop(), asio::detached); }

void Listener::stop() {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
}

void Listener::released(const Session& session) {
    if (total_ > 0) --total_;
    const auto it = per_address_.find(session.peer_address());
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
        const std::string address = peer_ec ? "unknown" : remote.address().to_string();
        if (total_ >= limits_.max_connections || per_address_[address] >= limits_.max_per_address) {
            log(LogLevel::Warn, "refusing ", address, ": connection cap reached");
            if (per_address_[address] == 0) per_address_.erase(address);
            socket.close(peer_ec);
            continue;
        }
        ++total_;
        ++per_address_[address];
        auto session = std::make_shared<Session>(std::move(socket), next_id_++, session_limits_, handler_);
        log(LogLevel::Debug, "session ", session->id(), " from ", session->peer());
        session->start();
    }
}

}  // namespace xq::server
