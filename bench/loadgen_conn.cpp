#include "loadgen_conn.h"

#include <array>

namespace xq::loadgen {

asio::awaitable<std::string> Conn::connect(const tcp::endpoint& server, OnPayload on_payload, OnDrop on_drop) {
    boost::system::error_code ec;
    co_await socket_.async_connect(server, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return ec.message();
    socket_.set_option(tcp::no_delay(true), ec);
    if (tls_context_) {
        // The load generator measures the server; it does not judge its certificate.
        tls_ = std::make_unique<asio::ssl::stream<tcp::socket&>>(socket_, *tls_context_);
        tls_->set_verify_mode(asio::ssl::verify_none);
        co_await tls_->async_handshake(asio::ssl::stream_base::client, asio::redirect_error(asio::use_awaitable, ec));
        if (ec) co_return "TLS handshake: " + ec.message();
    }
    on_payload_ = std::move(on_payload);
    on_drop_ = std::move(on_drop);
    open_ = true;
    asio::co_spawn(socket_.get_executor(), read_loop(), asio::detached);
    co_return std::string();
}

void Conn::send(std::string_view frame_bytes) {
    if (!open_) return;
    pending_.append(frame_bytes);
    if (!writing_) flush();
}

void Conn::flush() {
    writing_ = true;
    inflight_.swap(pending_);
    pending_.clear();
    auto done = [this](const boost::system::error_code& ec, std::size_t) {
        writing_ = false;
        if (!open_) return;
        if (ec) return drop("write: " + ec.message());
        if (!pending_.empty()) flush();
    };
    if (tls_) asio::async_write(*tls_, asio::buffer(inflight_), std::move(done));
    else asio::async_write(socket_, asio::buffer(inflight_), std::move(done));
}

void Conn::close() {
    if (!open_) return;
    open_ = false;
    boost::system::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
}

void Conn::drop(const std::string& why) {
    if (!open_) return;
    close();
    if (on_drop_) on_drop_(why);
}

asio::awaitable<void> Conn::read_loop() {
    std::array<char, 16 * 1024> buffer{};
    while (open_) {
        boost::system::error_code ec;
        const std::size_t n =
            tls_ ? co_await tls_->async_read_some(asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec))
                 : co_await socket_.async_read_some(asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
        if (!open_) co_return;
        if (ec) {
            const bool ended = ec == asio::error::eof || ec == asio::ssl::error::stream_truncated;
            drop(ended ? "closed by the server" : "read: " + ec.message());
            co_return;
        }
        auto payloads = frames_.feed(std::string_view(buffer.data(), n));
        if (!payloads) {
            drop("bad frame: " + payloads.error().message);
            co_return;
        }
        for (const std::string& payload : *payloads) {
            on_payload_(payload);
            if (!open_) co_return;
        }
    }
}

}  // namespace xq::loadgen
