#pragma once
// Answers LAN discovery requests (proto/discovery.h) on a UDP port, so clients on the same network
// find this server without typing an address. Only the LAN is answered: a sender on loopback or
// in the subnet of one of this machine's interfaces (asked of the kernel at each request), with
// a reply no larger than the request.

#include <functional>
#include <vector>

#include "proto/discovery.h"
#include "server/net/asio.h"

namespace xq::server {

// One address of this machine with its prefix length: the subnet it is on.
struct LocalSubnet {
    asio::ip::address address;
    unsigned prefix = 0;
};

// This machine's interface addresses (getifaddrs); empty when the kernel will not say.
std::vector<LocalSubnet> local_subnets();

// Loopback, or in one of `subnets` (same family, same first `prefix` bits; an IPv4-mapped IPv6
// sender counts as IPv4).
bool on_local_network(const asio::ip::address& sender, const std::vector<LocalSubnet>& subnets);

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
