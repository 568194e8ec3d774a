#include "server/cluster/redis_address.h"

#include <charconv>

namespace xq::cluster {

std::string RedisAddress::to_string() const {
    if (is_unix()) return "unix:" + path;
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::expected<RedisAddress, std::string> parse_redis_address(std::string_view text) {
    if (text.starts_with("unix:")) {
        const std::string_view path = text.substr(5);
        if (path.empty()) return std::unexpected("unix: needs a socket path");
        // sockaddr_un holds 108 bytes with the terminating zero.
        if (path.size() > 107) return std::unexpected("socket path longer than 107 bytes");
        return RedisAddress{.host = {}, .port = 0, .path = std::string(path)};
    }
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) return std::unexpected("'" + std::string(text) + "' is neither host:port nor unix:/path");
    std::string_view host = text.substr(0, colon);
    const std::string_view port_text = text.substr(colon + 1);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    if (host.empty()) return std::unexpected("'" + std::string(text) + "' has no host");
    unsigned port = 0;
    const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 || port > 65535)
        return std::unexpected("'" + std::string(port_text) + "' is not a port (1-65535)");
    return RedisAddress{.host = std::string(host), .port = static_cast<std::uint16_t>(port), .path = {}};
}

}  // namespace xq::cluster
