#pragma once
// WebSocket framing (RFC 6455 section 5), the server's side: a browser's frames cut out of the
// byte stream and unmasked, and the headers of the frames the server sends. Written here rather
// than taken from Beast's websocket::stream, which needs its own socket, buffers and timers per
// connection: this way a web session stays the game port's Session (same queue limits, same TLS
// engine, same sweep), and a browser watcher costs what a desktop spectator costs (docs/web.md).

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace xq::server::web {

enum class WsOpcode : std::uint8_t { Continuation = 0, Text = 1, Binary = 2, Close = 8, Ping = 9, Pong = 10 };

// Close codes (RFC 6455 section 7.4.1) the server sends.
enum class WsClose : std::uint16_t {
    Normal = 1000,
    GoingAway = 1001,
    ProtocolError = 1002,
    Unsupported = 1003,  // a text frame: the page speaks protobuf in binary frames only
    Policy = 1008,
    TooBig = 1009,
};

// The longest header a server frame needs (2 bytes, 8 of length; a server never masks).
using WsHeader = std::array<char, 10>;

// Writes the header of one unfragmented server frame into `out`; returns its length (2, 4 or 10).
std::size_t ws_header(WsOpcode opcode, std::size_t payload_size, WsHeader& out);

// A close frame's payload: the code, then a reason (cut to fit a control frame's 125 bytes).
std::string ws_close_payload(WsClose code, std::string_view reason);

// Cuts a client's frames out of its byte stream. Each whole message (continuations joined) and
// each control frame goes to the callback unmasked. Sizes are checked on a frame's header alone,
// so at most one message of `max_message` bytes (plus a header) is ever buffered.
class WsReader {
public:
    explicit WsReader(std::size_t max_message) : max_message_(max_message) {}

    struct Frame {
        WsOpcode opcode;           // Binary, Close, Ping or Pong
        std::string_view payload;  // valid during the call only
    };
    struct Error {
        WsClose code;
        std::string message;
    };
    // Takes the bytes that arrived; the callback returns false to stop reading (the session
    // closed). The error that must end the connection, if the stream broke the protocol.
    std::optional<Error> take(std::string_view bytes, const std::function<bool(const Frame&)>& on_frame);

    // Holds part of a frame or of a fragmented message (the frame timeout runs).
    bool mid_frame() const { return !buffer_.empty() || fragmented_; }

private:
    std::size_t max_message_;
    std::string buffer_;   // the start of a frame whose rest has not arrived
    std::string message_;  // a fragmented message's parts so far
    std::string control_;  // an unmasked control frame's payload
    bool fragmented_ = false;
};

}  // namespace xq::server::web
