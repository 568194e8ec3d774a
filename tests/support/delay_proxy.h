#pragma once
// A TCP proxy on loopback that holds every byte for a fixed time in each direction, so a client
// behind it has a round trip of twice that (this machine has no netem). Bytes only: TLS passes
// through untouched. Runs on its own thread; each accepted connection gets its own upstream one.

#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange

#include <boost/asio.hpp>

namespace xq::test {

class DelayProxy {
public:
    DelayProxy(std::uint16_t upstream_port, std::chrono::milliseconds one_way);
    ~DelayProxy();
    DelayProxy(const DelayProxy&) = delete;
    DelayProxy& operator=(const DelayProxy&) = delete;

    std::uint16_t port() const { return port_; }

private:
    boost::asio::awaitable<void> accept_loop();

    boost::asio::io_context io_{1};
    boost::asio::ip::tcp::acceptor acceptor_;
    std::uint16_t upstream_port_;
    std::chrono::milliseconds one_way_;
    std::uint16_t port_ = 0;
    std::thread thread_;
};

}  // namespace xq::test
