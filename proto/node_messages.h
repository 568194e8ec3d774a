#pragma once
// The envelopes nodes of a cluster send each other (cluster.proto), as plain structs, and their
// codec. The origin node forwards a client's request with who sent it; the owner answers with
// payloads for that session, asks it closed, or hears it is gone.

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "codec.h"

namespace xq::proto {

struct NodeIdentity {
    std::string name;
    std::string account;
    std::string address_group;
    bool watch_only = false;
    std::uint32_t computer_level = 0;
    friend bool operator==(const NodeIdentity&, const NodeIdentity&) = default;
};
struct NodeForward {
    NodeIdentity identity;
    std::string frame;  // one ClientMessage payload
    friend bool operator==(const NodeForward&, const NodeForward&) = default;
};
struct NodeDeliver {
    std::string payload;  // one ServerMessage payload
    std::vector<std::uint64_t> more_sessions;  // the same payload for these sessions too
    friend bool operator==(const NodeDeliver&, const NodeDeliver&) = default;
};
struct NodeClose {
    bool flush = false;
    friend bool operator==(const NodeClose&, const NodeClose&) = default;
};
struct NodeSessionClosed {
    friend bool operator==(const NodeSessionClosed&, const NodeSessionClosed&) = default;
};
struct NodePaired {
    std::string seek;  // its id in xq:seeks
    friend bool operator==(const NodePaired&, const NodePaired&) = default;
};
using NodeBody = std::variant<NodeForward, NodeDeliver, NodeClose, NodeSessionClosed, NodePaired>;
struct NodeMessage {
    std::uint64_t session = 0;
    NodeBody body;
    friend bool operator==(const NodeMessage&, const NodeMessage&) = default;
};

std::string encode(const NodeMessage& message);
// Bounded like a client frame (kMaxFrameBytes plus the envelope): a node's bytes are trusted
// less than nothing would be, never more than a client's.
std::expected<NodeMessage, DecodeError> decode_node(std::string_view payload);

// A quick-match seek as nodes put it in Redis for the matcher (cluster.proto's Seek).
struct NodeSeek {
    NodeIdentity identity;
    TimeControl time_control;
    bool rated = false;
    double rating = 0;
    friend bool operator==(const NodeSeek&, const NodeSeek&) = default;
};
std::string encode(const NodeSeek& seek);
std::expected<NodeSeek, DecodeError> decode_seek(std::string_view payload);

// A lobby entry's summary, as nodes share it through the lobby replica.
std::string encode(const GameSummary& summary);
std::expected<GameSummary, DecodeError> decode_summary(std::string_view payload);

}  // namespace xq::proto
