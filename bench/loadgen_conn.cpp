#include "loadgen_conn.h"

#include <array>

#include <openssl/ssl.h>

namespace xq::loadgen {
namespace {
thread_local std::array<char, 16 * 1024> plain_buffer;  // what a TLS read decrypted
}  // namespace

asio::awaitable<std::string> Conn::connect(const tcp::endpoint& server, OnPayload on_payload, OnDrop on_drop) {
    boost::system::error_code ec;
    co_await socket_.async_connect(server, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return ec.message();
    socket_.set_option(tcp::no_delay(true), ec);
    socket_.non_blocking(true, ec);  // writes are tried directly
    if (tls_context_) {
        tls_ = std::make_unique<tls::MemoryEngine>(*tls_context_, tls::MemoryEngine::Role::Client);
        // The load generator measures the server; it does not judge its certificate.
        SSL_set_verify(tls_->native_handle(), SSL_VERIFY_NONE, nullptr);
        if (std::string error = co_await handshake(); !error.empty()) co_return "TLS handshake: " + error;
    }
    on_payload_ = std::move(on_payload);
    on_drop_ = std::move(on_drop);
    open_ = true;
    asio::co_spawn(socket_.get_executor(), read_loop(), asio::detached);
    co_return std::string();
}

asio::awaitable<std::string> Conn::handshake() {
    std::array<char, 4096> buffer{};
    for (;;) {
        const auto status = tls_->handshake();
        boost::system::error_code ec;
        if (tls_->output_size() > 0) {
            std::string out;
            tls_->take_output(out);
            co_await asio::async_write(socket_, asio::buffer(out), asio::redirect_error(asio::use_awaitable, ec));
            if (ec) co_return ec.message();
        }
        if (status == tls::MemoryEngine::Status::Done) co_return std::string();
        if (status == tls::MemoryEngine::Status::Failed) co_return tls_->error();
        const std::size_t n =
            co_await socket_.async_read_some(asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
        if (ec) co_return ec.message();
        tls_->feed(std::string_view(buffer.data(), n));
    }
}

void Conn::send(std::string_view frame_bytes) {
    if (!open_) return;
    if (!tls_) pending_.append(frame_bytes);
    else if (tls_->write({}, frame_bytes)) tls_->take_output(pending_);
    else return drop("TLS write: " + tls_->error());
    if (!writing_) flush();
}

void Conn::flush() {
    // Straight to the kernel first, which usually takes it all: no operation, no wake-up.
    boost::system::error_code ec;
    const std::size_t sent = socket_.write_some(asio::buffer(pending_), ec);
    if (ec && ec != asio::error::would_block && ec != asio::error::try_again) return drop("write: " + ec.message());
    if (sent == pending_.size()) return pending_.clear();
    writing_ = true;
    inflight_.assign(pending_, sent);
    pending_.clear();
    asio::async_write(socket_, asio::buffer(inflight_), [this](const boost::system::error_code& error, std::size_t) {
        writing_ = false;
        if (!open_) return;
        if (error) return drop("write: " + error.message());
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

bool Conn::take(std::string_view bytes) {
    auto payloads = frames_.feed(bytes);
    if (!payloads) {
        drop("bad frame: " + payloads.error().message);
        return false;
    }
    for (const std::string& payload : *payloads) {
        on_payload_(payload);
        if (!open_) return false;
    }
    return true;
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
        if (!tls_) {
            if (!take(std::string_view(buffer.data(), n))) co_return;
            continue;
        }
        tls_->feed(std::string_view(buffer.data(), n));
        for (;;) {
            std::size_t got = 0;
            const auto status = tls_->read(plain_buffer.data(), plain_buffer.size(), got);
            if (got > 0) {
                if (!take(std::string_view(plain_buffer.data(), got))) co_return;
                continue;
            }
            if (status == tls::MemoryEngine::Status::Done) break;
            drop(status == tls::MemoryEngine::Status::Closed ? "closed by the server" : "TLS read: " + tls_->error());
            co_return;
        }
    }
}

}  // namespace xq::loadgen
