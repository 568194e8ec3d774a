#pragma once
// Where a server is: a host name or address and a TCP port, as typed by a person or found on the LAN.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xq::client {

struct Endpoint {
    std::string host;  // name, IPv4 or IPv6 address (without brackets)
    std::uint16_t port = 7777;
    friend bool operator==(const Endpoint&, const Endpoint&) = default;
};

// "host", "host:port", "[v6addr]:port", "[v6addr]" or "v6addr" (no port; more than one colon means
// an IPv6 address). nullopt for an empty host or a port that is not 1 to 65535.
std::optional<Endpoint> parse_endpoint(std::string_view text, std::uint16_t default_port = 7777);

// "host:port", with brackets around an IPv6 address: "[::1]:7777".
std::string to_string(const Endpoint& endpoint);

}  // namespace xq::client
