#pragma once
// LAN discovery datagrams. A client broadcasts the request to UDP port kDiscoveryPort; every
// server on the LAN answers the sender with one JSON reply naming itself and its game port.
//
//   request: the 20 bytes "XIANGQI-DISCOVER v1\n"
//   reply:   {"service":"xiangqi","version":1,"name":"Club","port":7777,"open_games":2,"live_games":5}

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace xq::proto {

inline constexpr std::uint16_t kDiscoveryPort = 7778;
inline constexpr std::string_view kDiscoveryRequest = "XIANGQI-DISCOVER v1\n";
inline constexpr std::size_t kMaxDiscoveryDatagram = 1024;

struct DiscoveryReply {
    std::string name;              // the server's --name
    std::uint16_t port = 0;        // its TCP game port; the address is the datagram's sender
    std::uint32_t open_games = 0;  // games waiting for an opponent
    std::uint32_t live_games = 0;  // games being played
    std::uint32_t version = 1;     // protocol version it speaks
};

bool is_discovery_request(std::string_view datagram);

// The reply as JSON, names cut so the datagram stays under kMaxDiscoveryDatagram.
std::string encode_discovery_reply(const DiscoveryReply& reply);

// Reads a reply; any datagram that is not one (wrong service, bad JSON, bad port) is an error.
std::expected<DiscoveryReply, std::string> parse_discovery_reply(std::string_view datagram);

}  // namespace xq::proto
