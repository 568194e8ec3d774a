#include "server/cluster/redis_connection.h"

#include <algorithm>

#include "server/log/log.h"

namespace xq::cluster {

using server::log;
using server::LogLevel;

std::string_view to_string(ConnectionState state) {
    switch (state) {
        case ConnectionState::Disconnected: return "disconnected";
        case ConnectionState::Connecting: return "connecting";
        case ConnectionState::Connected: return "connected";
        case ConnectionState::Stopped: return "stopped";
    }
    return "unknown";
}

std::string_view to_string(RedisError::Code code) {
    switch (code) {
        case RedisError::Code::NotConnected: return "not_connected";
        case RedisError::Code::Disconnected: return "disconnected";
        case RedisError::Code::Timeout: return "timeout";
        case RedisError::Code::Protocol: return "protocol";
        case RedisError::Code::Overloaded: return "overloaded";
        case RedisError::Code::Server: return "server";
    }
    return "error";
}

RedisConnection::RedisConnection(asio::any_io_executor executor, RedisAddress address, ConnectionOptions options)
    : executor_(executor),
      address_(std::move(address)),
      options_(options),
      socket_(executor),
      resolver_(executor),
      connect_timer_(executor),
      retry_timer_(executor),
      parser_(options.limits),
      backoff_(options.backoff_initial) {}

void RedisConnection::watch_link(std::function<void()> up, std::function<void(const RedisError&)> down) {
    if (up) up_.push_back(std::move(up));
    if (down) down_.push_back(std::move(down));
}

void RedisConnection::start() {
    if (state_ != ConnectionState::Disconnected) return;
    connect();
}

void RedisConnection::stop() {
    if (state_ == ConnectionState::Stopped) return;
    state_ = ConnectionState::Stopped;
    handshaking_ = false;
    ++generation_;
    boost::system::error_code ec;
    socket_.close(ec);
    resolver_.cancel();
    connect_timer_.cancel();
    retry_timer_.cancel();
    up_.clear();
    down_.clear();
    on_stopped();
}

void RedisConnection::connect() {
    state_ = ConnectionState::Connecting;
    const auto gen = ++generation_;
    if (address_.is_unix()) {
        connect_to(asio::local::stream_protocol::endpoint(address_.path));
        return;
    }
    resolver_.async_resolve(address_.host, std::to_string(address_.port),
                            [self = shared_from_this(), gen](const boost::system::error_code& ec,
                                                            const asio::ip::tcp::resolver::results_type& results) {
                                if (gen != self->generation_) return;
                                if (ec || results.empty()) {
                                    self->connect_failed("cannot resolve " + self->address_.host + ": " + ec.message());
                                    return;
                                }
                                self->connect_to(results.begin()->endpoint());
                            });
}

void RedisConnection::connect_to(const asio::generic::stream_protocol::endpoint& endpoint) {
    const auto gen = generation_;
    // One deadline for the connect and the PING after it: a server that accepts nothing (a full
    // backlog) or answers nothing (a stopped process) must not hold us forever. Checked against
    // the state, not only cancelled, so an expiry already queued cannot end a made connection.
    connect_timer_.expires_after(options_.connect_timeout);
    connect_timer_.async_wait([self = shared_from_this(), gen](const boost::system::error_code& ec) {
        if (ec || gen != self->generation_ || self->state_ != ConnectionState::Connecting) return;
        const auto ms = std::to_string(self->options_.connect_timeout.count());
        self->abandon(self->handshaking_ ? "no PONG within " + ms + " ms of connecting" : "connect timed out after " + ms + " ms");
    });
    socket_.async_connect(endpoint, [self = shared_from_this(), gen](const boost::system::error_code& ec) {
        if (gen != self->generation_) return;
        if (ec) {
            self->abandon(ec.message());
            return;
        }
        self->connected();
    });
}

// The socket is open, but a Unix socket or a TCP backlog accepts even for a paused server: the
// connection counts as made only when the server answers a PING (within connect_timeout of the
// connect's start).
void RedisConnection::connected() {
    if (!address_.is_unix()) {
        boost::system::error_code ec;
        socket_.set_option(asio::ip::tcp::no_delay(true), ec);
    }
    parser_ = Parser(options_.limits);
    out_.clear();
    writing_.clear();
    handshaking_ = true;
    read();
    send(encode_command({"PING"}));
}

void RedisConnection::established(const Reply& pong) {
    connect_timer_.cancel();
    if (pong.type != Reply::Type::SimpleString || pong.text != "PONG") {
        abandon("answered PING with " + (pong.is_error() ? pong.text : std::string("something else than PONG")));
        return;
    }
    handshaking_ = false;
    state_ = ConnectionState::Connected;
    backoff_ = options_.backoff_initial;
    log(LogLevel::Info, "redis: connected to ", address_.to_string());
    const auto gen = generation_;
    on_connected();
    // A copy: a watcher may add watchers, or stop() (which clears them) or drop() us; after
    // either the others hear nothing of this connection.
    const auto watchers = up_;
    for (const auto& up : watchers) {
        if (gen != generation_) break;
        up();
    }
}

// A connection attempt that failed after the socket opened.
void RedisConnection::abandon(const std::string& why) {
    ++generation_;
    handshaking_ = false;
    boost::system::error_code ec;
    socket_.close(ec);
    connect_timer_.cancel();
    connect_failed(why);
}

void RedisConnection::connect_failed(const std::string& why) {
    if (last_error_ != why) log(LogLevel::Warn, "redis: cannot connect to ", address_.to_string(), ": ", why);
    last_error_ = why;
    schedule_reconnect();
}

void RedisConnection::schedule_reconnect() {
    state_ = ConnectionState::Disconnected;
    const auto gen = generation_;
    retry_timer_.expires_after(backoff_);
    backoff_ = std::min(backoff_ * 2, options_.backoff_max);
    retry_timer_.async_wait([self = shared_from_this(), gen](const boost::system::error_code& ec) {
        if (ec || gen != self->generation_) return;
        self->connect();
    });
}

void RedisConnection::read() {
    const auto gen = generation_;
    socket_.async_read_some(asio::buffer(in_), [self = shared_from_this(), gen](const boost::system::error_code& ec, std::size_t n) {
        if (gen != self->generation_) return;
        if (ec) {
            self->fault({RedisError::Code::Disconnected, "connection lost: " + ec.message()});
            return;
        }
        auto replies = self->parser_.feed(std::string_view(self->in_.data(), n));
        if (!replies) {
            self->fault({RedisError::Code::Protocol, "not RESP2 from " + self->address_.to_string() + ": " +
                                                         std::string(to_string(replies.error().code)) + ": " + replies.error().detail});
            return;
        }
        for (auto& reply : *replies) {
            if (self->handshaking_) self->established(reply);
            else self->on_reply(std::move(reply));
            if (gen != self->generation_) return;  // dropped or stopped by the reply's handler
        }
        self->read();
    });
}

void RedisConnection::send(std::string_view bytes) {
    out_.append(bytes);
    if (writing_.empty()) write();
}

void RedisConnection::write() {
    writing_.swap(out_);
    out_.clear();
    const auto gen = generation_;
    asio::async_write(socket_, asio::buffer(writing_), [self = shared_from_this(), gen](const boost::system::error_code& ec, std::size_t) {
        if (gen != self->generation_) return;
        if (ec) {
            self->fault({RedisError::Code::Disconnected, "write failed: " + ec.message()});
            return;
        }
        self->writing_.clear();
        if (!self->out_.empty()) self->write();
    });
}

void RedisConnection::fault(const RedisError& why) {
    if (handshaking_) abandon(why.detail);
    else drop(why);
}

void RedisConnection::drop(const RedisError& why) {
    if (state_ != ConnectionState::Connected) return;
    ++generation_;
    boost::system::error_code ec;
    socket_.close(ec);
    out_.clear();
    writing_.clear();
    last_error_ = why.detail;
    log(LogLevel::Warn, "redis: lost ", address_.to_string(), ": ", why.detail);
    schedule_reconnect();
    const auto gen = generation_;
    on_disconnected(why);
    const auto watchers = down_;  // a copy, as above
    for (const auto& down : watchers) {
        if (gen != generation_) break;
        down(why);
    }
}

}  // namespace xq::cluster
