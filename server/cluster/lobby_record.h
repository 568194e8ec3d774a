#pragma once
// The lobby's records in Redis (docs/cluster.md, "The lobby"): the hash `xq:lobby` maps a game id
// (decimal) to "<owner node>|<summary bytes>", and every change is announced on the channel
// `xq:lobby` as "P|<game>|<owner>|<summary bytes>" (put) or "R|<game>|<owner>" (remove). The
// summary is opaque here (the node passes an encoded GameSummary). Node ids hold no '|'
// (valid_node_id), so the first bars split a record and the summary may contain any byte.
//
// Anything in Redis may be garbage (another program, an older version, a hostile writer): every
// decoder is bounded and answers nullopt rather than trusting a record.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xq::cluster {

inline constexpr std::string_view kLobbyKey = "xq:lobby";      // the hash
inline constexpr std::string_view kLobbyChannel = "xq:lobby";  // its changes
// The games each node has in the hash, so a dead node's entries are found without a scan.
std::string lobby_index_key(std::string_view node);

struct LobbyEntry {
    std::string owner;    // the node that owns the game
    std::string summary;  // opaque bytes
    bool operator==(const LobbyEntry&) const = default;
};

struct LobbyChange {
    std::uint64_t game = 0;
    LobbyEntry entry;     // for a remove, only the owner
    bool removed = false;
};

// A game id as written in the hash: canonical decimal (no sign, no leading zero, no spaces).
std::optional<std::uint64_t> parse_lobby_game(std::string_view text);

std::string encode_lobby_value(std::string_view owner, std::string_view summary);
std::optional<LobbyEntry> decode_lobby_value(std::string_view value, std::size_t max_summary_bytes);

std::string encode_lobby_put(std::uint64_t game, std::string_view owner, std::string_view summary);
std::string encode_lobby_remove(std::uint64_t game, std::string_view owner);
std::optional<LobbyChange> decode_lobby_change(std::string_view message, std::size_t max_summary_bytes);

}  // namespace xq::cluster
