#include "server/cluster/lobby_record.h"

#include <charconv>

#include "server/cluster/lease.h"

namespace xq::cluster {

std::string lobby_index_key(std::string_view node) { return "xq:lobby:node:" + std::string(node); }

std::optional<std::uint64_t> parse_lobby_game(std::string_view text) {
    if (text.empty() || text.size() > 20 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
    std::uint64_t id = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return id;
}

std::string encode_lobby_value(std::string_view owner, std::string_view summary) {
    std::string out;
    out.reserve(owner.size() + 1 + summary.size());
    out.append(owner).push_back('|');
    out.append(summary);
    return out;
}

std::optional<LobbyEntry> decode_lobby_value(std::string_view value, std::size_t max_summary_bytes) {
    const auto bar = value.find('|');
    if (bar == std::string_view::npos) return std::nullopt;
    const auto owner = value.substr(0, bar);
    const auto summary = value.substr(bar + 1);
    if (!valid_node_id(owner) || summary.size() > max_summary_bytes) return std::nullopt;
    return LobbyEntry{std::string(owner), std::string(summary)};
}

std::string encode_lobby_put(std::uint64_t game, std::string_view owner, std::string_view summary) {
    return "P|" + std::to_string(game) + "|" + encode_lobby_value(owner, summary);
}

std::string encode_lobby_remove(std::uint64_t game, std::string_view owner) {
    return "R|" + std::to_string(game) + "|" + std::string(owner);
}

std::optional<LobbyChange> decode_lobby_change(std::string_view message, std::size_t max_summary_bytes) {
    if (message.size() < 2 || message[1] != '|' || (message[0] != 'P' && message[0] != 'R')) return std::nullopt;
    const bool removed = message[0] == 'R';
    message.remove_prefix(2);
    const auto bar = message.find('|');
    if (bar == std::string_view::npos) return std::nullopt;
    const auto game = parse_lobby_game(message.substr(0, bar));
    if (!game) return std::nullopt;
    const auto rest = message.substr(bar + 1);
    if (removed) {
        if (!valid_node_id(rest)) return std::nullopt;
        return LobbyChange{*game, LobbyEntry{std::string(rest), {}}, true};
    }
    auto entry = decode_lobby_value(rest, max_summary_bytes);
    if (!entry) return std::nullopt;
    return LobbyChange{*game, std::move(*entry), false};
}

}  // namespace xq::cluster
