#pragma once
// Answers LAN discovery requests (proto/discovery.h) on a UDP port, so clients on the same network
// find this server without typing an address.

#include <functional>

#include "proto/discovery.h"
#include "server/net/asio.h"

namespace xq::server {

class DiscoveryResponder {
public:
    // `describe` is asked for the current reply (name, port, game counts) at each request.
    DiscoveryResponder(asio::io_context& io, const udp::endpoint& listen,
                       std::function<proto::DiscoveryReply()> describe);

    void start();
    void stop();
    std::uint16_t port() const { return socket_.local_endpoint().port(); }

private:
    asio::awaitable<void> serve();

    udp::socket socket_;
    std::function<proto::DiscoveryReply()> describe_;
};

}  // namespace xq::server
