#include "discovery.h"

#include <nlohmann/json.hpp>

namespace xq::proto {

std::string discovery_request() {
    std::string request(kDiscoveryRequest);
    request.resize(kDiscoveryRequestBytes, '\0');
    return request;
}

bool is_discovery_request(std::string_view datagram) {
    return datagram.size() == kDiscoveryRequestBytes && datagram.starts_with(kDiscoveryRequest);
}

std::string encode_discovery_reply(const DiscoveryReply& reply) {
    // A server name is free text, cut to keep the reply no larger than the request. Cut on a
    // UTF-8 boundary so the JSON stays valid.
    std::string name = reply.name.substr(0, kMaxDiscoveryName);
    while (!name.empty() && (static_cast<unsigned char>(name.back()) & 0xC0) == 0x80) name.pop_back();
    if (!name.empty() && static_cast<unsigned char>(name.back()) >= 0xC0) name.pop_back();
    const nlohmann::ordered_json out = {{"service", "xiangqi"},      {"version", reply.version},
                                        {"name", name},              {"port", reply.port},
                                        {"open_games", reply.open_games}, {"live_games", reply.live_games},
                                        {"fingerprint", reply.fingerprint}};
    return out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::expected<DiscoveryReply, std::string> parse_discovery_reply(std::string_view datagram) {
    if (datagram.size() > kMaxDiscoveryDatagram) return std::unexpected("discovery reply too long");
    const auto j = nlohmann::json::parse(datagram, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::unexpected("discovery reply is not a JSON object");
    // value() would throw on a field of the wrong type; hostile datagrams must not reach that.
    const auto text = [&](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (text("service") != "xiangqi") return std::unexpected("not a xiangqi server");
    const auto number = [&](const char* key) -> std::expected<std::uint64_t, std::string> {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_number_unsigned()) return std::unexpected(std::string("missing ") + key);
        return it->get<std::uint64_t>();
    };
    const auto port = number("port");
    if (!port || *port == 0 || *port > 65535) return std::unexpected("bad port in discovery reply");
    DiscoveryReply reply;
    reply.port = static_cast<std::uint16_t>(*port);
    reply.name = text("name");
    reply.open_games = static_cast<std::uint32_t>(number("open_games").value_or(0));
    reply.live_games = static_cast<std::uint32_t>(number("live_games").value_or(0));
    reply.version = static_cast<std::uint32_t>(number("version").value_or(0));
    reply.fingerprint = text("fingerprint");
    if (!reply.fingerprint.empty() &&
        (reply.fingerprint.size() != 64 || reply.fingerprint.find_first_not_of("0123456789abcdef") != std::string::npos))
        return std::unexpected("bad fingerprint in discovery reply");
    return reply;
}

}  // namespace xq::proto
