#include "server/web/ws_frame.h"

namespace xq::server::web {
namespace {

// Buffers larger than this are released once used rather than kept by an idle watcher.
constexpr std::size_t kKeepCapacity = 1024;

void release(std::string& buffer) {
    buffer.clear();
    if (buffer.capacity() > kKeepCapacity) std::string().swap(buffer);
}

void unmask(std::string_view masked, const unsigned char* key, std::string& out) {
    const std::size_t start = out.size();
    out.append(masked);
    for (std::size_t i = 0; i < masked.size(); ++i) out[start + i] = static_cast<char>(out[start + i] ^ key[i % 4]);
}

}  // namespace

std::size_t ws_header(WsOpcode opcode, std::size_t payload_size, WsHeader& out) {
    out[0] = static_cast<char>(0x80 | static_cast<unsigned>(opcode));  // FIN: never fragmented
    if (payload_size < 126) {
        out[1] = static_cast<char>(payload_size);
        return 2;
    }
    if (payload_size <= 0xFFFF) {
        out[1] = 126;
        out[2] = static_cast<char>(payload_size >> 8);
        out[3] = static_cast<char>(payload_size);
        return 4;
    }
    out[1] = 127;
    for (int i = 0; i < 8; ++i) out[2 + i] = static_cast<char>(static_cast<std::uint64_t>(payload_size) >> (56 - 8 * i));
    return 10;
}

std::string ws_close_payload(WsClose code, std::string_view reason) {
    const auto c = static_cast<std::uint16_t>(code);
    std::string payload{static_cast<char>(c >> 8), static_cast<char>(c)};
    payload.append(reason.substr(0, 123));
    return payload;
}

std::optional<WsReader::Error> WsReader::take(std::string_view bytes,
                                              const std::function<bool(const Frame&)>& on_frame) {
    const bool buffered = !buffer_.empty();
    if (buffered) {
        buffer_.append(bytes);
        bytes = buffer_;
    }
    std::size_t used = 0;
    std::optional<Error> error;
    bool stopped = false;
    while (!error && !stopped) {
        const auto* h = reinterpret_cast<const unsigned char*>(bytes.data() + used);
        const std::size_t available = bytes.size() - used;
        if (available < 2) break;
        const bool fin = h[0] & 0x80;
        const auto opcode = static_cast<WsOpcode>(h[0] & 0x0F);
        const bool control = (h[0] & 0x08) != 0;
        if (h[0] & 0x70) {
            error = Error{WsClose::ProtocolError, "reserved bits set: no extension was agreed"};
            break;
        }
        if (!(h[1] & 0x80)) {
            error = Error{WsClose::ProtocolError, "a client's frames must be masked"};
            break;
        }
        std::size_t header = 2;
        std::uint64_t length = h[1] & 0x7F;
        if (length == 126) header = 4;
        if (length == 127) header = 10;
        if (available < header) break;
        if (length == 126) length = std::uint64_t{h[2]} << 8 | h[3];
        if (length == 127) {
            length = 0;
            for (int i = 0; i < 8; ++i) length = length << 8 | h[2 + i];
        }
        const bool known = opcode == WsOpcode::Continuation || opcode == WsOpcode::Text ||
                           opcode == WsOpcode::Binary || opcode == WsOpcode::Close || opcode == WsOpcode::Ping ||
                           opcode == WsOpcode::Pong;
        if (!known) {
            error = Error{WsClose::ProtocolError, "unknown opcode " + std::to_string(h[0] & 0x0F)};
            break;
        }
        if (control && (!fin || length > 125)) {
            error = Error{WsClose::ProtocolError, "a control frame must be whole and at most 125 bytes"};
            break;
        }
        if (opcode == WsOpcode::Text) {
            error = Error{WsClose::Unsupported, "binary frames only: each holds one protobuf ClientMessage"};
            break;
        }
        if (opcode == WsOpcode::Continuation && !fragmented_) {
            error = Error{WsClose::ProtocolError, "a continuation frame with no message begun"};
            break;
        }
        if (opcode == WsOpcode::Binary && fragmented_) {
            error = Error{WsClose::ProtocolError, "a new message inside a fragmented one"};
            break;
        }
        // Refused on the header alone: the body is never buffered.
        if (!control && (length > max_message_ || message_.size() + length > max_message_)) {
            error = Error{WsClose::TooBig, "a message of more than " + std::to_string(max_message_) + " bytes"};
            break;
        }
        if (available < header + 4 || available - header - 4 < length) break;
        const auto* key = h + header;
        const std::string_view masked = bytes.substr(used + header + 4, length);
        used += header + 4 + length;
        if (control) {
            control_.clear();
            unmask(masked, key, control_);
            stopped = !on_frame(Frame{opcode, control_});
            continue;
        }
        unmask(masked, key, message_);
        fragmented_ = !fin;
        if (fin) {
            stopped = !on_frame(Frame{WsOpcode::Binary, message_});
            release(message_);
        }
    }
    if (error || stopped) {
        release(buffer_);
        return error;
    }
    // Keep the unfinished frame for the next read.
    if (buffered) buffer_.erase(0, used);
    else buffer_.assign(bytes.substr(used));
    if (buffer_.empty()) release(buffer_);
    return std::nullopt;
}

}  // namespace xq::server::web
