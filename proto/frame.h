#pragma once
// Framing: a 4-byte big-endian payload length, then the payload. A frame announcing more than
// kMaxFrameBytes is refused as soon as its header is seen, before any of its body is buffered.

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec.h"

namespace xq::proto {

inline constexpr std::size_t kFrameHeaderBytes = 4;

// The length prefix followed by the payload. Precondition: payload.size() <= kMaxFrameBytes (the
// peer would refuse a larger frame); checked by assert.
std::string frame(std::string_view payload);

// encode() then frame(): the bytes to write for one message.
std::string encode_frame(const ClientMessage& message);
std::string encode_frame(const ServerMessage& message);

// Cuts a byte stream into payloads. Feed it whatever the socket delivered; it hands back every
// payload completed so far and keeps at most one partial frame (header + kMaxFrameBytes).
// After an error the stream has lost its framing: every later feed() returns the same error.
class FrameReader {
public:
    explicit FrameReader(std::size_t max_payload = kMaxFrameBytes) : max_payload_(max_payload) {}

    // The payloads completed by `bytes`, in order, or Oversize when a header announces more than
    // the limit (the payloads completed before it in the same chunk are dropped with it).
    std::expected<std::vector<std::string>, DecodeError> feed(std::string_view bytes);

    // Bytes held for the frame in progress; never more than kFrameHeaderBytes + max_payload.
    std::size_t buffered() const { return header_.size() + body_.size(); }
    // True when the stream stopped inside a frame: at end of stream, the last frame is truncated.
    bool mid_frame() const { return buffered() > 0; }
    // Truncated when the stream ended inside a frame, otherwise nothing to report.
    std::expected<void, DecodeError> finish() const;

private:
    std::size_t max_payload_;
    std::string header_;        // up to kFrameHeaderBytes of the current frame's length
    std::string body_;          // the current frame's payload so far
    std::size_t expected_ = 0;  // the current frame's payload length once the header is complete
    std::optional<DecodeError> error_;
};

}  // namespace xq::proto
