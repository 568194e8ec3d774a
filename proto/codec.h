#pragma once
// Messages to bytes and back. encode() gives the payload of one frame; frame.h adds the length
// prefix. decode_*() never throws: a payload that is not a valid message comes back as a
// DecodeError saying how it failed, so the server can answer (or close) accordingly.

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include "messages.h"

namespace xq::proto {

enum class DecodeErrorCode : std::uint8_t {
    Truncated,     // the bytes end inside a field (or a frame)
    Oversize,      // larger than kMaxFrameBytes
    Unparsable,    // not a protobuf message of the expected type (garbage, bad UTF-8, ...)
    EmptyOneof,    // a valid message with no body
    UnknownKind,   // a body kind this side does not know (a newer peer): see the field number
    InvalidValue,  // a known kind with an enum field out of range
};

struct DecodeError {
    DecodeErrorCode code = DecodeErrorCode::Unparsable;
    std::string message;
    // The envelope's request id when the envelope itself was readable (EmptyOneof, UnknownKind,
    // InvalidValue), so the answer can echo it; 0 otherwise.
    std::uint64_t request_id = 0;
    friend bool operator==(const DecodeError&, const DecodeError&) = default;
};

// "truncated", "oversize", "unparsable", "empty_oneof", "unknown_kind", "invalid_value".
std::string_view code_name(DecodeErrorCode code);

// The serialized message, ready for frame().
std::string encode(const ClientMessage& message);
std::string encode(const ServerMessage& message);
// What one summary adds to an encoded GameList, its field's tag and length included: the server
// fills a list only while it fits one frame.
std::size_t encoded_size_in_list(const GameSummary& summary);
// An encoded reply's bytes around its GameList's summaries, at most (request id, oneof tag, length).
inline constexpr std::size_t kGameListEnvelopeBytes = 24;

// Reads one frame's payload (without the length prefix).
std::expected<ClientMessage, DecodeError> decode_client(std::string_view payload);
std::expected<ServerMessage, DecodeError> decode_server(std::string_view payload);

}  // namespace xq::proto
