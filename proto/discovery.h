#pragma once
// LAN discovery datagrams. A client broadcasts the request to UDP port kDiscoveryPort; every
// server on the LAN answers the sender with one JSON reply naming itself, its game port and its
// TLS certificate's fingerprint (so a LAN game needs no trust question; still checked at the
// handshake).
//
//   request: "XIANGQI-DISCOVER v2\n" padded with zero bytes to kDiscoveryRequestBytes, so that no
//            reply is larger than the request (a forged sender gains no amplification)
//   reply:   {"service":"xiangqi","version":1,"name":"Club","port":7777,"open_games":2,"live_games":5,
//             "fingerprint":"<64 hex>"}   (fingerprint "" for a --plain server)

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace xq::proto {

inline constexpr std::uint16_t kDiscoveryPort = 7778;
inline constexpr std::string_view kDiscoveryRequest = "XIANGQI-DISCOVER v2\n";
inline constexpr std::size_t kDiscoveryRequestBytes = 512;
inline constexpr std::size_t kMaxDiscoveryDatagram = 1024;
inline constexpr std::size_t kMaxDiscoveryName = 48;  // bytes: even all escaped, the reply fits the request

struct DiscoveryReply {
    std::string name;              // the server's --name
    std::uint16_t port = 0;        // its TCP game port; the address is the datagram's sender
    std::uint32_t open_games = 0;  // games waiting for an opponent
    std::uint32_t live_games = 0;  // games being played
    std::uint32_t version = 1;     // protocol version it speaks
    std::string fingerprint;       // hex SHA-256 of its TLS certificate; "": plain TCP
};

// The request, padded to kDiscoveryRequestBytes.
std::string discovery_request();

bool is_discovery_request(std::string_view datagram);

// The reply as JSON, the name cut to kMaxDiscoveryName bytes so the reply fits the request.
std::string encode_discovery_reply(const DiscoveryReply& reply);

// Reads a reply; any datagram that is not one (wrong service, bad JSON, bad port) is an error.
std::expected<DiscoveryReply, std::string> parse_discovery_reply(std::string_view datagram);

}  // namespace xq::proto
