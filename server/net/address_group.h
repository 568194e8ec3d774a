#pragma once
// The unit that per-address limits count by. One IPv4 address is one household or NAT; one IPv6
// host is given a whole /64 (SLAAC and privacy addresses change within it at will), so counting
// exact IPv6 addresses would let one machine look like 2^64 clients. IPv4-mapped IPv6
// addresses (a dual-stack socket's IPv4 peers) count as the IPv4 address.

#include <string>

#include "server/net/asio.h"

namespace xq::server {

// "192.0.2.7" for IPv4, "2001:db8:1:2::/64" for IPv6.
std::string address_group(const asio::ip::address& address);

}  // namespace xq::server
