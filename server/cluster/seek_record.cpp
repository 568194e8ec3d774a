#include "server/cluster/seek_record.h"

#include <algorithm>
#include <charconv>

#include "server/cluster/lease.h"

namespace xq::cluster {
namespace {

template <class T>
std::optional<T> decimal(std::string_view text) {
    if (text.empty() || text.size() > 20 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
    T value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// The next '|'-terminated field of `rest`, consumed.
std::optional<std::string_view> field(std::string_view& rest) {
    const auto bar = rest.find('|');
    if (bar == std::string_view::npos) return std::nullopt;
    const auto out = rest.substr(0, bar);
    rest.remove_prefix(bar + 1);
    return out;
}

}  // namespace

std::string seek_tombstone_key(std::string_view id) { return "xq:seek:claimed:" + std::string(id); }

bool valid_seek_id(std::string_view id) {
    return !id.empty() && id.size() <= 128 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == ':';
    });
}

std::string encode_seek_head(std::string_view node, std::uint64_t session) {
    return std::string(node) + "|" + std::to_string(session);
}

std::optional<SeekRecord> decode_seek(std::string_view id, std::string_view value, std::size_t max_bytes) {
    if (!valid_seek_id(id)) return std::nullopt;
    const auto node = field(value);
    const auto session = field(value);
    const auto added = field(value);
    const auto order = field(value);
    if (!node || !session || !added || !order || !valid_node_id(*node) || value.size() > max_bytes) return std::nullopt;
    const auto session_number = decimal<std::uint64_t>(*session);
    const auto added_ms = decimal<std::int64_t>(*added);
    const auto order_number = decimal<std::uint64_t>(*order);
    if (!session_number || !added_ms || !order_number) return std::nullopt;
    return SeekRecord{std::string(id), std::string(*node), *session_number, *added_ms, *order_number, std::string(value)};
}

}  // namespace xq::cluster
