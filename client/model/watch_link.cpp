#include "watch_link.h"

namespace xq::client {

std::string watch_link(std::string_view host, std::uint16_t port, bool tls, std::uint64_t game_id) {
    std::string out = tls ? "https://" : "http://";
    // A URL's host is an IPv6 address only inside brackets (RFC 3986): "[::1]:7777".
    const bool v6 = host.find(':') != std::string_view::npos && !host.starts_with('[');
    out += v6 ? "[" + std::string(host) + "]" : std::string(host);
    out += ":" + std::to_string(port) + "/g/" + std::to_string(game_id);
    return out;
}

}  // namespace xq::client
