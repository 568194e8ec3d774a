// Length-prefixed frames: writing them, and cutting a byte stream back into payloads.
#include "frame.h"

#include <algorithm>
#include <cassert>

namespace xq::proto {

std::string frame(std::string_view payload) {
    assert(payload.size() <= kMaxFrameBytes);
    const auto n = static_cast<std::uint32_t>(payload.size());
    std::string out;
    out.reserve(kFrameHeaderBytes + payload.size());
    out.push_back(static_cast<char>((n >> 24) & 0xff));
    out.push_back(static_cast<char>((n >> 16) & 0xff));
    out.push_back(static_cast<char>((n >> 8) & 0xff));
    out.push_back(static_cast<char>(n & 0xff));
    out.append(payload);
    return out;
}

std::string encode_frame(const ClientMessage& message) { return frame(encode(message)); }
std::string encode_frame(const ServerMessage& message) { return frame(encode(message)); }

std::expected<std::vector<std::string>, DecodeError> FrameReader::feed(std::string_view bytes) {
    if (error_) return std::unexpected(*error_);
    std::vector<std::string> payloads;
    while (!bytes.empty()) {
        if (header_.size() < kFrameHeaderBytes) {
            const std::size_t take = std::min(kFrameHeaderBytes - header_.size(), bytes.size());
            header_.append(bytes.substr(0, take));
            bytes.remove_prefix(take);
            if (header_.size() < kFrameHeaderBytes) break;
            std::size_t length = 0;
            for (const char c : header_) length = (length << 8) | static_cast<unsigned char>(c);
            // Refused on the header alone: the body is never buffered.
            if (length > max_payload_) {
                error_ = DecodeError{DecodeErrorCode::Oversize,
                                     "frame announces " + std::to_string(length) + " bytes; the limit is " +
                                         std::to_string(max_payload_),
                                     0};
                return std::unexpected(*error_);
            }
            expected_ = length;
            body_.reserve(length);
        }
        const std::size_t take = std::min(expected_ - body_.size(), bytes.size());
        body_.append(bytes.substr(0, take));
        bytes.remove_prefix(take);
        if (body_.size() == expected_) {
            payloads.push_back(std::move(body_));
            body_.clear();
            header_.clear();
            expected_ = 0;
        }
    }
    return payloads;
}

std::expected<void, DecodeError> FrameReader::finish() const {
    if (error_) return std::unexpected(*error_);
    if (!mid_frame()) return {};
    return std::unexpected(
        DecodeError{DecodeErrorCode::Truncated,
                    "the stream ended inside a frame (" + std::to_string(buffered()) + " bytes held)", 0});
}

}  // namespace xq::proto
