#include "support/delay_proxy.h"

#include <deque>
#include <string>
#include <utility>

namespace xq::test {
namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

using Clock = std::chrono::steady_clock;

// One direction of one connection: what was read, each chunk with the time it may leave.
struct Pipe {
    explicit Pipe(asio::any_io_executor ex) : wake(ex, Clock::time_point::max()) {}
    std::deque<std::pair<Clock::time_point, std::string>> queue;
    asio::steady_timer wake;  // the writer sleeps on it; the reader cancels it
    bool reader_done = false;
};

asio::awaitable<void> read_side(std::shared_ptr<tcp::socket> from, std::shared_ptr<Pipe> pipe,
                                std::chrono::milliseconds delay) {
    char buffer[16384];
    for (;;) {
        boost::system::error_code ec;
        const std::size_t n =
            co_await from->async_read_some(asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
        if (ec) break;
        pipe->queue.emplace_back(Clock::now() + delay, std::string(buffer, n));
        pipe->wake.cancel_one();
    }
    pipe->reader_done = true;
    pipe->wake.cancel_one();
}

asio::awaitable<void> write_side(std::shared_ptr<tcp::socket> to, std::shared_ptr<tcp::socket> from,
                                 std::shared_ptr<Pipe> pipe) {
    for (;;) {
        boost::system::error_code ec;
        if (pipe->queue.empty()) {
            if (pipe->reader_done) break;
            pipe->wake.expires_at(Clock::time_point::max());
            co_await pipe->wake.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            continue;
        }
        if (pipe->queue.front().first > Clock::now()) {
            asio::steady_timer until(to->get_executor(), pipe->queue.front().first);
            co_await until.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            continue;
        }
        const std::string chunk = std::move(pipe->queue.front().second);
        pipe->queue.pop_front();
        co_await asio::async_write(*to, asio::buffer(chunk), asio::redirect_error(asio::use_awaitable, ec));
        if (ec) break;
    }
    boost::system::error_code ignored;
    to->shutdown(tcp::socket::shutdown_send, ignored);
    from->close(ignored);
}

void relay(std::shared_ptr<tcp::socket> from, std::shared_ptr<tcp::socket> to, std::chrono::milliseconds delay) {
    auto pipe = std::make_shared<Pipe>(from->get_executor());
    asio::co_spawn(from->get_executor(), read_side(from, pipe, delay), asio::detached);
    asio::co_spawn(from->get_executor(), write_side(to, from, pipe), asio::detached);
}

}  // namespace

DelayProxy::DelayProxy(std::uint16_t upstream_port, std::chrono::milliseconds one_way)
    : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
      upstream_port_(upstream_port),
      one_way_(one_way) {
    port_ = acceptor_.local_endpoint().port();
    asio::co_spawn(io_, accept_loop(), asio::detached);
    thread_ = std::thread([this] { io_.run(); });
}

DelayProxy::~DelayProxy() {
    io_.stop();
    thread_.join();
}

asio::awaitable<void> DelayProxy::accept_loop() {
    for (;;) {
        boost::system::error_code ec;
        auto client = std::make_shared<tcp::socket>(
            co_await acceptor_.async_accept(asio::redirect_error(asio::use_awaitable, ec)));
        if (ec) co_return;
        auto upstream = std::make_shared<tcp::socket>(io_);
        co_await upstream->async_connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), upstream_port_),
                                         asio::redirect_error(asio::use_awaitable, ec));
        if (ec) continue;
        client->set_option(tcp::no_delay(true));
        upstream->set_option(tcp::no_delay(true));
        relay(client, upstream, one_way_);
        relay(upstream, client, one_way_);
    }
}

}  // namespace xq::test
