#include "client/net/endpoint.h"

#include <charconv>

namespace xq::client {
namespace {

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::optional<std::uint16_t> parse_port(std::string_view text) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0 || value > 65535)
        return std::nullopt;
    return static_cast<std::uint16_t>(value);
}

std::optional<Endpoint> make(std::string_view host, std::optional<std::string_view> port, std::uint16_t fallback) {
    if (host.empty()) return std::nullopt;
    Endpoint endpoint{std::string(host), fallback};
    if (port) {
        const auto number = parse_port(*port);
        if (!number) return std::nullopt;
        endpoint.port = *number;
    }
    return endpoint;
}

}  // namespace

std::optional<Endpoint> parse_endpoint(std::string_view text, std::uint16_t default_port) {
    text = trim(text);
    if (text.starts_with('[')) {
        const auto close = text.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        const auto host = text.substr(1, close - 1);
        const auto rest = text.substr(close + 1);
        if (rest.empty()) return make(host, std::nullopt, default_port);
        if (!rest.starts_with(':')) return std::nullopt;
        return make(host, rest.substr(1), default_port);
    }
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) return make(text, std::nullopt, default_port);
    // Two colons or more: a bare IPv6 address, which cannot carry a port without brackets.
    if (text.find(':', colon + 1) != std::string_view::npos) return make(text, std::nullopt, default_port);
    return make(text.substr(0, colon), text.substr(colon + 1), default_port);
}

std::string to_string(const Endpoint& endpoint) {
    const std::string port = std::to_string(endpoint.port);
    if (endpoint.host.find(':') != std::string::npos) return "[" + endpoint.host + "]:" + port;
    return endpoint.host + ":" + port;
}

}  // namespace xq::client
