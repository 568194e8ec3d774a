#include "session.h"

#include <array>
#include <vector>

#include "server/log.h"

namespace xq::server {
namespace {

using Clock = std::chrono::steady_clock;
// Moves are tens of bytes; a small buffer per connection keeps 15,000 connections cheap, and
// larger frames simply take several reads.
constexpr std::size_t kReadChunk = 512;
constexpr std::size_t kMaxGather = 64;  // frames written in one system call

}  // namespace

std::string_view to_string(CloseReason reason) {
    switch (reason) {
        case CloseReason::PeerClosed: return "peer_closed";
        case CloseReason::ReadError: return "read_error";
        case CloseReason::WriteError: return "write_error";
        case CloseReason::BadFrame: return "bad_frame";
        case CloseReason::Overflow: return "write_queue_overflow";
        case CloseReason::IdleTimeout: return "idle_timeout";
        case CloseReason::FrameTimeout: return "frame_timeout";
        case CloseReason::ByServer: return "closed_by_server";
    }
    return "closed";
}

Session::Session(tcp::socket socket, std::uint64_t id, const SessionLimits& limits, SessionHandler& handler)
    : socket_(std::move(socket)),
      id_(id),
      limits_(limits),
      handler_(handler),
      wake_writer_(socket_.get_executor()),
      watchdog_timer_(socket_.get_executor()) {
    boost::system::error_code ec;
    const auto endpoint = socket_.remote_endpoint(ec);
    peer_ = ec ? "unknown" : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
    socket_.set_option(tcp::no_delay(true), ec);
}

std::string Session::peer_address() const { return peer_.substr(0, peer_.rfind(':')); }

void Session::start() {
    last_read_ = Clock::now();
    const auto exec = socket_.get_executor();
    // Each coroutine holds the session alive through its parameter, which is copied into the
    // coroutine frame at creation (a shared_from_this() inside the body would run too late).
    asio::co_spawn(exec, read_loop(shared_from_this()), asio::detached);
    asio::co_spawn(exec, write_loop(shared_from_this()), asio::detached);
    asio::co_spawn(exec, watchdog(shared_from_this()), asio::detached);
}

void Session::deliver(std::shared_ptr<const std::string> frame) {
    if (closed_ || closing_) return;
    if (queued_bytes_ + frame->size() > limits_.max_queue_bytes || queue_.size() >= limits_.max_queue_frames) {
        shut(CloseReason::Overflow);
        return;
    }
    queued_bytes_ += frame->size();
    queue_.push_back(std::move(frame));
    wake_writer_.cancel();
}

void Session::close(CloseReason reason, bool flush) {
    if (closed_) return;
    close_reason_ = reason;
    closing_ = true;
    if (!flush || queue_.empty()) shut(reason);
    else wake_writer_.cancel();  // the writer drains the queue, then shuts
}

void Session::shut(CloseReason reason) {
    if (closed_) return;
    closed_ = true;
    boost::system::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    wake_writer_.cancel();
    watchdog_timer_.cancel();
    queue_.clear();
    queued_bytes_ = 0;
    handler_.on_closed(shared_from_this(), reason);
}

asio::awaitable<void> Session::read_loop(std::shared_ptr<Session> self) {
    std::array<char, kReadChunk> buffer{};
    while (!closed_ && !closing_) {
        boost::system::error_code ec;
        const std::size_t n =
            co_await socket_.async_read_some(asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
        if (closed_) co_return;
        if (ec) {
            if (ec != asio::error::eof) log(LogLevel::Debug, "session ", id_, " read: ", ec.message());
            shut(ec == asio::error::eof ? CloseReason::PeerClosed : CloseReason::ReadError);
            co_return;
        }
        last_read_ = Clock::now();
        const bool had_partial = frames_.mid_frame();
        auto payloads = frames_.feed(std::string_view(buffer.data(), n));
        if (!payloads) {
            handler_.on_bad_frame(self, payloads.error());
            close(CloseReason::BadFrame, true);
            co_return;
        }
        for (auto& payload : *payloads) {
            handler_.on_frame(self, std::move(payload));
            if (closed_ || closing_) co_return;
        }
        // The frame timeout counts from the first byte of a frame that is still incomplete.
        if (!frames_.mid_frame()) partial_since_ = {};
        else if (!had_partial || partial_since_ == Clock::time_point{}) partial_since_ = last_read_;
    }
}

asio::awaitable<void> Session::write_loop([[maybe_unused]] std::shared_ptr<Session> self) {
    std::vector<asio::const_buffer> gather;
    while (!closed_) {
        if (queue_.empty()) {
            if (closing_) break;
            boost::system::error_code ec;
            wake_writer_.expires_at(Clock::time_point::max());
            co_await wake_writer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            continue;
        }
        // Keep the frames alive while the write is in flight: deliver() may append meanwhile.
        const std::size_t count = std::min(queue_.size(), kMaxGather);
        std::vector<std::shared_ptr<const std::string>> batch(queue_.begin(), queue_.begin() + static_cast<long>(count));
        gather.clear();
        for (const auto& frame : batch) gather.emplace_back(asio::buffer(*frame));
        boost::system::error_code ec;
        co_await asio::async_write(socket_, gather, asio::redirect_error(asio::use_awaitable, ec));
        if (closed_) co_return;
        if (ec) {
            shut(CloseReason::WriteError);
            co_return;
        }
        for (std::size_t i = 0; i < count; ++i) {
            queued_bytes_ -= queue_.front()->size();
            queue_.pop_front();
        }
    }
    if (closing_) shut(close_reason_);
}

asio::awaitable<void> Session::watchdog([[maybe_unused]] std::shared_ptr<Session> self) {
    while (!closed_) {
        const bool partial = partial_since_ != Clock::time_point{};
        auto deadline = last_read_ + limits_.idle_timeout;
        if (partial) deadline = std::min(deadline, partial_since_ + limits_.frame_timeout);
        if (Clock::now() >= deadline) {
            shut(partial && Clock::now() >= partial_since_ + limits_.frame_timeout ? CloseReason::FrameTimeout
                                                                                  : CloseReason::IdleTimeout);
            co_return;
        }
        boost::system::error_code ec;
        watchdog_timer_.expires_at(deadline);
        co_await watchdog_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
}

}  // namespace xq::server
