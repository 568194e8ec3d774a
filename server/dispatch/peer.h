#pragma once
// A connection as the dispatcher sees it: an id, a way to send it messages, a way to close it.
// Session (session.h) is the one over TCP; the fuzzer's fake peers are another. Nothing here
// knows of sockets, so the dispatcher builds and runs without Asio.

#include <cstdint>
#include <string>
#include <string_view>

namespace xq::server {

enum class CloseReason {
    PeerClosed,
    ReadError,
    WriteError,
    BadFrame,
    Overflow,
    IdleTimeout,
    FrameTimeout,
    FlushTimeout,  // a close that waited for its queued output longer than the frame timeout
    ByServer,
    HandshakeFailed,  // TLS: not a TLS client, or one that refused our certificate
    HandshakeTimeout  // TLS: a handshake unfinished after SessionLimits::handshake_timeout
};
std::string_view to_string(CloseReason reason);

class Peer {
public:
    virtual ~Peer() = default;

    // Unique for the server's lifetime; the participant id of the rooms.
    virtual std::uint64_t id() const = 0;
    // One encoded ServerMessage (the transport frames it). Never calls the dispatcher back, so a
    // broadcast may deliver to many peers in a loop; a peer that cannot take it closes itself.
    virtual void deliver(std::string_view payload) = 0;
    // Takes no more requests and closes after the queued output (or at once when `flush` is
    // false). The transport reports the close with Dispatcher::on_closed.
    virtual void close(CloseReason reason, bool flush = false) = 0;
    virtual bool open() const = 0;
    // Who the per-address limits count this peer as: its IPv4 address, or its IPv6 /64
    // (server/net/address_group.h). Fixed for the peer's life.
    virtual const std::string& address_group() const = 0;
    // A browser's WebSocket session (server/web): it may watch, never play, chat or log in
    // (Dispatcher::watcher_may), and sees no private game.
    virtual bool watch_only() const { return false; }
};

}  // namespace xq::server
