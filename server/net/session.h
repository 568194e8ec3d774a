#pragma once
// One client connection. A session only moves bytes: it cuts the inbound stream into frames and
// hands each payload to its handler, and writes frames out. It knows nothing of games. Its limits
// keep one bad client from costing the server memory or a socket forever.
//
// Built for many idle connections: no coroutine and no timer per session, one pending operation
// (a read into a small buffer of the session's own, enough for a move) while idle, longer input
// read on into one buffer shared by all sessions, and outbound frames written at once, queued
// only when the kernel cannot take them. The listener calls timed_out() from one sweep timer for
// all sessions.
//
// One port serves the browser too (issue 23, docs/web.md): the first bytes after the TLS handshake
// (or of a plain connection) tell a frame's length prefix (0x00) from an HTTP request (a method's
// capital letter). An HTTP session answers from server/web and may become a WebSocket, whose
// binary frames then carry the same messages to the same handler as a watch-only Peer
// (session_web.cpp). Its state lives behind one pointer, as TLS's does.
//
// A TLS session (issue 18) runs the same reads, framing and queue over OpenSSL driven in memory
// (tls/memory_engine.h): ciphertext is read and written as a plain session's bytes are, each
// frame one record handed to the kernel at once. Its state lives behind one pointer, so the plain
// session stays as small as before.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "proto/codec.h"
#include "server/net/asio.h"
#include "server/dispatch/peer.h"

namespace boost::asio::ssl {
class context;
}
namespace xq::server::web {
class Site;
}

namespace xq::server {

struct SessionLimits {
    std::size_t max_queue_bytes = 1 << 20;  // unsent output; a client that never reads is closed
    std::size_t max_queue_frames = 4096;
    std::chrono::milliseconds idle_timeout{std::chrono::minutes(2)};     // no byte at all
    std::chrono::milliseconds frame_timeout{std::chrono::seconds(10)};  // a frame begun but unfinished
    std::chrono::milliseconds handshake_timeout{std::chrono::seconds(10)};  // TLS: accepted to handshake done
};

class Session;

// What a session reports. Called on the server's single thread.
class SessionHandler {
public:
    virtual ~SessionHandler() = default;
    // `payload` is valid only during the call.
    virtual void on_frame(const std::shared_ptr<Session>& session, std::string_view payload) = 0;
    // The byte stream cannot be framed (a header over the cap); the session closes after this.
    virtual void on_bad_frame(const std::shared_ptr<Session>& session, const proto::DecodeError& error) = 0;
    virtual void on_closed(const std::shared_ptr<Session>& session, CloseReason reason) = 0;
};

// Room for one pending operation of a session, so that operation needs no allocation of its own
// (Asio's default reuses blocks sized for the largest operation it has seen: several hundred
// bytes held by every idle connection). Larger or concurrent requests fall back to the heap.
class HandlerSlot {
public:
    // A read of the session's small buffer takes 152 bytes (Asio 1.74, x86-64).
    static constexpr std::size_t kSlotBytes = 152;

    void* allocate(std::size_t size);
    void deallocate(void* pointer);

private:
    alignas(std::max_align_t) unsigned char storage_[kSlotBytes];
    bool used_ = false;
};

template <class T>
struct SlotAllocator {
    using value_type = T;
    HandlerSlot* slot;
    explicit SlotAllocator(HandlerSlot* s) noexcept : slot(s) {}
    template <class U>
    SlotAllocator(const SlotAllocator<U>& other) noexcept : slot(other.slot) {}
    T* allocate(std::size_t n) { return static_cast<T*>(slot->allocate(sizeof(T) * n)); }
    void deallocate(T* pointer, std::size_t) { slot->deallocate(pointer); }
    template <class U>
    bool operator==(const SlotAllocator<U>& other) const noexcept { return slot == other.slot; }
};

class Session final : public Peer, public std::enable_shared_from_this<Session> {
public:
    using Clock = std::chrono::steady_clock;

    // `limits` must outlive the session (the listener's copy); so must `tls` (null: plain TCP) and
    // `site` (null: no HTTP, every connection speaks frames).
    Session(tcp::socket socket, std::uint64_t id, const SessionLimits& limits, SessionHandler& handler,
            boost::asio::ssl::context* tls = nullptr, const web::Site* site = nullptr);
    ~Session() override;

    // Starts reading (a TLS session: the handshake first).
    void start();

    // Sends one message as a frame (the session adds the length prefix), now if the kernel takes
    // it, else queued. Over the queue bounds the session is closed instead: a slow reader is
    // dropped, never buffered without limit. Never calls the handler back (a failure closes the
    // session from a posted handler), so a broadcast may deliver to many sessions in a loop.
    void deliver(std::string_view payload) override;

    // Closes after the queued frames are written (or at once when `flush` is false).
    void close(CloseReason reason, bool flush = false) override;

    // Why the session should close at `now` (silent, or inside one frame, for too long; or closing
    // but unable to flush its output to a peer that does not read), if so.
    std::optional<CloseReason> timed_out(Clock::time_point now) const;

    std::uint64_t id() const override { return id_; }
    const std::string& peer() const { return peer_; }
    const std::string& address_group() const override { return group_; }
    bool open() const override { return !closed_; }
    bool watch_only() const override { return web_ != nullptr; }  // a browser's WebSocket
    std::size_t queued_bytes() const { return pending_.size() + inflight_.size(); }

    // What a session reads before it knows more is waiting: a move with its header fits.
    static constexpr std::size_t kSmallRead = 64;

private:
    void read_small();
    void on_small_read(const boost::system::error_code& ec, std::size_t n);
    // Reads on into the shared buffer until the kernel has nothing more (or a chunk was taken).
    void read_on();
    // A read's outcome: false when the session stopped reading (closed, or the stream ended).
    bool took(const boost::system::error_code& ec, std::string_view bytes);
    // Cuts the frames out of `bytes` (after any partial frame held) and hands them on. False when
    // the session stopped reading meanwhile.
    bool take_frames(std::string_view bytes);
    bool take_tls(std::string_view ciphertext);  // as take_frames(), for a TLS session's bytes
    // Plain (or decrypted) bytes: the first ones choose frames or HTTP, then each goes its way.
    bool take_plain(std::string_view bytes);
    bool take_web(std::string_view bytes);  // session_web.cpp: HTTP, then WebSocket frames
    bool take_ws(std::string_view bytes);
    void deliver_ws(std::string_view payload);
    void close_ws(CloseReason reason);  // a WebSocket's close frame, before the connection closes
    // One frame out (header and payload; an HTTP response is all payload), now or queued.
    void write_frame(std::string_view header, std::string_view payload);
    bool send_tls();   // the engine's ciphertext to the kernel, or queued
    void close_tls();  // close_notify, bounded by a timer, then the socket closes
    void drain_tls();  // reads until the peer's close_notify
    void end_tls();
    void start_write();
    void on_written(const boost::system::error_code& ec);
    void fail(CloseReason reason);  // closes from a posted handler: safe inside a broadcast
    void shut(CloseReason reason);
    bool reading() const { return !closed_ && !closing_ && !failing_; }

    struct ReadHandler;
    struct Tls;
    struct Web;
    enum class Mode : std::uint8_t { Unsniffed, Framed, Web };

    tcp::socket socket_;
    HandlerSlot read_slot_;  // the pending read's operation
    std::array<char, kSmallRead> small_;
    std::uint64_t id_;
    const SessionLimits& limits_;
    SessionHandler& handler_;
    std::string peer_;
    std::string group_;  // what the per-address limits count (address_group.h)
    std::string partial_;   // an unfinished inbound frame, header included
    std::string pending_;   // queued frames not yet handed to the kernel
    std::string inflight_;  // the bytes of the write in progress
    std::size_t queued_frames_ = 0;
    Clock::time_point last_read_;
    Clock::time_point partial_since_;  // when the unfinished frame began
    Clock::time_point closing_since_;  // when a close began to wait for the queue to drain
    bool writing_ = false;
    bool closing_ = false;  // no more input; close once the queue drains
    bool failing_ = false;  // a close is posted; nothing more in or out
    bool closed_ = false;
    bool handshaking_ = false;  // TLS: the handshake has not finished; no frame yet
    std::unique_ptr<Tls> tls_;  // null: plain TCP
    Mode mode_ = Mode::Unsniffed;
    const web::Site* site_;     // null: frames only
    std::unique_ptr<Web> web_;  // an HTTP or WebSocket session's state; null: frames
    CloseReason close_reason_ = CloseReason::ByServer;
};

}  // namespace xq::server
