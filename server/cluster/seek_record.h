#pragma once
// Quick-match seeks in Redis (docs/cluster.md, "A quick match"): the hash `xq:seeks` maps a seek
// id to "<node>|<session>|<added ms>|<order>|<seek bytes>": the node the player is on, the
// player's session there, when Redis added it (its clock, milliseconds since 1970: one clock for
// every node, so waiting times compare), its place in arrival order (INCR of `xq:seeks:order`,
// which breaks ties within a millisecond) and the seek itself, opaque here (the node's encoded seek).
// A claimed seek leaves a tombstone `xq:seek:claimed:<id>` for a while, so that its node, which
// re-adds its seeks after a reconnection, does not offer it again and a cancel can tell
// "already paired" from "unknown".
//
// Redis content is untrusted: decoders are bounded and answer nullopt.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xq::cluster {

inline constexpr std::string_view kSeeksKey = "xq:seeks";
inline constexpr std::string_view kSeekOrderKey = "xq:seeks:order";
inline constexpr std::string_view kMatcherLeaseKey = "xq:lease:matcher";
std::string seek_tombstone_key(std::string_view id);

struct SeekRecord {
    std::string id;
    std::string node;
    std::uint64_t session = 0;
    std::int64_t added_ms = 0;
    std::uint64_t order = 0;
    std::string bytes;
    bool operator==(const SeekRecord&) const = default;
};

// Seek ids are 1-128 of [A-Za-z0-9_:-] (ours are "<node>:<process epoch>:<counter>").
bool valid_seek_id(std::string_view id);

// The value's start, before the time and order that the add script inserts.
std::string encode_seek_head(std::string_view node, std::uint64_t session);
std::optional<SeekRecord> decode_seek(std::string_view id, std::string_view value, std::size_t max_bytes);

}  // namespace xq::cluster
