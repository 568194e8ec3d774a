#include "loadgen_conn.h"

#include <array>

namespace xq::loadgen {

asio::awaitable<std::string> Conn::connect(const tcp::endpoint& server, OnPayload on_payload, OnDrop on_drop) {
    boost::system::error_code ec;
    co_await socket_.async_connect(server, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return ec.message();
    socket_.set_option(tcp::no_delay(true), ec);
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
    asio::async_write(socket_, asio::buffer(inflight_), [this](const boost::system::error_code& ec, std::size_t) {
        writing_ = false;
        if (!open_) return;
        if (ec) return drop("write: " + ec.message());
        if (!pending_.empty()) flush();
    });
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
            co_await socket_.async_read_some(asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
        if (!open_) co_return;
        if (ec) {
            drop(ec == asio::error::eof ? "closed by the server" : "read: " + ec.message());
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
