#include "server/net/session.h"

#include <array>

#include "proto/frame.h"
#include "server/log/log.h"
#include "server/net/address_group.h"
#include "server/net/session_web.h"
#include "tls/memory_engine.h"

namespace xq::server {
namespace {

// Every session reads into this one buffer (the server has one thread; thread_local keeps servers
// on other threads, as in the tests, apart). A read takes at most this much, then the session goes
// to the back of the queue, so a flooding client cannot starve the others.
constexpr std::size_t kReadChunk = 8 * 1024;
thread_local std::array<char, kReadChunk> read_buffer;

// Output buffers larger than this are released once drained rather than kept for reuse.
constexpr std::size_t kKeepCapacity = 1024;

bool would_block(const boost::system::error_code& ec) {
    return ec == asio::error::would_block || ec == asio::error::try_again;
}

// Closes for which the peer is not owed its last frames: the connection is reset.
bool abortive(CloseReason reason) {
    switch (reason) {
        case CloseReason::Overflow:
        case CloseReason::WriteError:
        case CloseReason::IdleTimeout:
        case CloseReason::FrameTimeout:
        case CloseReason::FlushTimeout:
        case CloseReason::HandshakeFailed:
        case CloseReason::HandshakeTimeout: return true;
        default: return false;
    }
}

void trim(std::string& buffer) {
    buffer.clear();
    if (buffer.capacity() > kKeepCapacity) std::string().swap(buffer);
}

}  // namespace

void* HandlerSlot::allocate(std::size_t size) {
    if (used_ || size > sizeof storage_) return ::operator new(size);
    used_ = true;
    return storage_;
}

void HandlerSlot::deallocate(void* pointer) {
    if (pointer == storage_) used_ = false;
    else ::operator delete(pointer);
}

// Asio frees an operation's memory before it calls the handler, so the slot is free again by
// the time on_small_read() reads anew.
struct Session::ReadHandler {
    std::shared_ptr<Session> self;
    using allocator_type = SlotAllocator<void>;
    allocator_type get_allocator() const noexcept { return allocator_type(&self->read_slot_); }
    void operator()(const boost::system::error_code& ec, std::size_t n) const { self->on_small_read(ec, n); }
};

std::string_view to_string(CloseReason reason) {
    switch (reason) {
        case CloseReason::PeerClosed: return "peer_closed";
        case CloseReason::ReadError: return "read_error";
        case CloseReason::WriteError: return "write_error";
        case CloseReason::BadFrame: return "bad_frame";
        case CloseReason::Overflow: return "write_queue_overflow";
        case CloseReason::IdleTimeout: return "idle_timeout";
        case CloseReason::FrameTimeout: return "frame_timeout";
        case CloseReason::FlushTimeout: return "flush_timeout";
        case CloseReason::ByServer: return "closed_by_server";
        case CloseReason::HandshakeFailed: return "tls_handshake_failed";
        case CloseReason::HandshakeTimeout: return "tls_handshake_timeout";
    }
    return "closed";
}

// A TLS session's OpenSSL over memory (tls/memory_engine.h) and its close timer. The session's
// own reads and writes carry the ciphertext, so TLS costs no Asio operation per frame, and an
// idle connection holds the SSL object and two small memory buffers, not Asio's 80-odd KB.
struct Session::Tls {
    Tls(tls::ssl::context& context, const asio::any_io_executor& executor)
        : engine(context, tls::MemoryEngine::Role::Server), shutdown_timer(executor) {}
    tls::MemoryEngine engine;
    asio::steady_timer shutdown_timer;
};

// How long a closing TLS session waits for the peer's close_notify before the socket just closes.
constexpr auto kTlsShutdownTimeout = std::chrono::seconds(2);

namespace {
thread_local std::array<char, kReadChunk> plain_buffer;  // what a TLS read decrypted
thread_local std::string cipher_out;                     // what a TLS write encrypted
}  // namespace

Session::Session(tcp::socket socket, std::uint64_t id, const SessionLimits& limits, SessionHandler& handler,
                 tls::ssl::context* tls, const web::Site* site)
    : socket_(std::move(socket)), id_(id), limits_(limits), handler_(handler), site_(site) {
    if (tls) tls_ = std::make_unique<Tls>(*tls, socket_.get_executor());
    boost::system::error_code ec;
    const auto endpoint = socket_.remote_endpoint(ec);
    peer_ = ec ? "unknown" : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
    group_ = ec ? "unknown" : server::address_group(endpoint.address());
    socket_.set_option(tcp::no_delay(true), ec);
    // Reads and writes are tried directly and must never block the server's one thread.
    socket_.non_blocking(true, ec);
}

Session::~Session() = default;

void Session::start() {
    last_read_ = Clock::now();
    // The sweep closes a handshake that takes longer than the limit (silent, slow or partial).
    handshaking_ = tls_ != nullptr;
    read_small();
}

// Ciphertext in: the handshake first, then the decrypted bytes are framed as a plain session's.
bool Session::take_tls(std::string_view ciphertext) {
    auto& engine = tls_->engine;
    engine.feed(ciphertext);
    if (handshaking_) {
        const auto status = engine.handshake();
        if (!send_tls()) return false;  // the handshake's reply (or the alert of a failure)
        if (status == tls::MemoryEngine::Status::Failed) {
            log(LogLevel::Debug, "session ", id_, " TLS handshake: ", engine.error());
            shut(CloseReason::HandshakeFailed);
            return false;
        }
        if (status != tls::MemoryEngine::Status::Done) return true;
        handshaking_ = false;
        last_read_ = Clock::now();
    }
    for (;;) {
        std::size_t n = 0;
        const auto status = engine.read(plain_buffer.data(), plain_buffer.size(), n);
        if (n > 0) {
            if (!take_plain(std::string_view(plain_buffer.data(), n))) return false;
            continue;
        }
        if (status == tls::MemoryEngine::Status::Done) return send_tls();  // a key update's answer, say
        if (status == tls::MemoryEngine::Status::Closed) {
            shut(CloseReason::PeerClosed);
        } else {
            log(LogLevel::Debug, "session ", id_, " TLS read: ", engine.error());
            shut(CloseReason::ReadError);
        }
        return false;
    }
}

// What the engine encrypted goes to the kernel now when no write is in flight, as a plain frame
// does; what the kernel does not take is queued. False when that closed the session.
bool Session::send_tls() {
    auto& engine = tls_->engine;
    const std::size_t size = engine.output_size();
    if (size == 0) return true;
    std::size_t sent = 0;
    if (!writing_) {
        cipher_out.clear();
        engine.take_output(cipher_out);
        boost::system::error_code ec;
        sent = socket_.write_some(asio::buffer(cipher_out), ec);
        if (ec && !would_block(ec)) {
            fail(CloseReason::WriteError);
            return false;
        }
        if (sent == cipher_out.size()) return true;
    }
    if (queued_bytes() + size - sent > limits_.max_queue_bytes || queued_frames_ >= limits_.max_queue_frames) {
        fail(CloseReason::Overflow);
        return false;
    }
    if (writing_) engine.take_output(pending_);
    else pending_.append(std::string_view(cipher_out).substr(sent));
    ++queued_frames_;
    if (!writing_) start_write();
    return true;
}

// A read, not a readiness wait: Asio tries it at once (the completion is posted, never run
// inside this call) and otherwise leaves it on the descriptor's edge-triggered registration,
// where a wait would re-arm the descriptor with an epoll_ctl each time: a system call a move.
void Session::read_small() { socket_.async_read_some(asio::buffer(small_), ReadHandler{shared_from_this()}); }

void Session::on_small_read(const boost::system::error_code& ec, std::size_t n) {
    if (!took(ec, std::string_view(small_.data(), n))) return;
    // A full small buffer may have left bytes behind.
    if (n == small_.size()) read_on();
    else read_small();
}

void Session::read_on() {
    if (!reading()) return;
    boost::system::error_code ec;
    const std::size_t n = socket_.read_some(asio::buffer(read_buffer), ec);
    if (would_block(ec)) return read_small();
    if (!took(ec, std::string_view(read_buffer.data(), n))) return;
    // A full buffer may have left bytes behind: read again, but after the others' turn.
    if (n == read_buffer.size()) asio::post(socket_.get_executor(), [self = shared_from_this()] { self->read_on(); });
    else read_small();
}

bool Session::took(const boost::system::error_code& ec, std::string_view bytes) {
    if (!reading()) return false;  // closed meanwhile: the read completed as aborted
    if (ec) {
        // A TLS peer that closes without close_notify reads as a truncated stream: a plain hang-up.
        const bool ended = ec == asio::error::eof || ec == tls::ssl::error::stream_truncated;
        if (!ended) log(LogLevel::Debug, "session ", id_, " read: ", ec.message());
        shut(ended ? CloseReason::PeerClosed : CloseReason::ReadError);
        return false;
    }
    // A handshake's bytes do not count as activity: a slowloris handshake times out all the same.
    if (!handshaking_) last_read_ = Clock::now();
    return tls_ ? take_tls(bytes) : take_plain(bytes);
}

// A frame's length prefix starts with 0x00 (kMaxFrameBytes is far below 2^24), an HTTP request
// with its method's capital letter: one look at the first byte, then one branch a read.
bool Session::take_plain(std::string_view bytes) {
    if (mode_ == Mode::Unsniffed) {
        const bool http = site_ && !bytes.empty() && bytes.front() >= 'A' && bytes.front() <= 'Z';
        mode_ = http ? Mode::Web : Mode::Framed;
    }
    return mode_ == Mode::Framed ? take_frames(bytes) : take_web(bytes);
}

bool Session::take_frames(std::string_view bytes) {
    const auto self = shared_from_this();
    const bool had_partial = !partial_.empty();
    if (had_partial) {
        partial_.append(bytes);
        bytes = partial_;
    }
    std::size_t used = 0;
    while (bytes.size() - used >= proto::kFrameHeaderBytes) {
        const auto* h = reinterpret_cast<const unsigned char*>(bytes.data() + used);
        const std::size_t length = std::size_t{h[0]} << 24 | std::size_t{h[1]} << 16 | std::size_t{h[2]} << 8 | h[3];
        // Refused on the header alone: the body is never buffered.
        if (length > proto::kMaxFrameBytes) {
            handler_.on_bad_frame(self, {proto::DecodeErrorCode::Oversize,
                                         "frame announces " + std::to_string(length) + " bytes; the limit is " +
                                             std::to_string(proto::kMaxFrameBytes),
                                         0});
            close(CloseReason::BadFrame, true);
            return false;
        }
        if (bytes.size() - used - proto::kFrameHeaderBytes < length) break;
        handler_.on_frame(self, bytes.substr(used + proto::kFrameHeaderBytes, length));
        used += proto::kFrameHeaderBytes + length;
        if (!reading()) return false;
    }
    // Keep the unfinished frame; the frame timeout counts from its first byte.
    if (had_partial) partial_.erase(0, used);
    else partial_.assign(bytes.substr(used));
    if (partial_.empty()) {
        if (partial_.capacity() > kKeepCapacity) std::string().swap(partial_);
        partial_since_ = {};
    } else if (used > 0 || !had_partial) {
        partial_since_ = last_read_;
    }
    return true;
}

void Session::deliver(std::string_view payload) {
    if (closed_ || closing_ || failing_) return;
    if (mode_ == Mode::Web) return deliver_ws(payload);
    const auto size = static_cast<std::uint32_t>(payload.size());
    const std::array<char, proto::kFrameHeaderBytes> header{static_cast<char>(size >> 24), static_cast<char>(size >> 16),
                                                            static_cast<char>(size >> 8), static_cast<char>(size)};
    write_frame(std::string_view(header.data(), header.size()), payload);
}

void Session::write_frame(std::string_view header, std::string_view payload) {
    if (tls_) {
        // No frame goes to a peer before its handshake: the dispatcher meets a session by its frames.
        if (handshaking_) return;
        if (!tls_->engine.write(header, payload)) return fail(CloseReason::WriteError);
        send_tls();
        return;
    }
    std::size_t sent = 0;
    if (!writing_) {
        // Nothing queued: hand the frame to the kernel now, which usually takes all of it.
        const std::array<asio::const_buffer, 2> frame{asio::buffer(header.data(), header.size()),
                                                      asio::buffer(payload.data(), payload.size())};
        boost::system::error_code ec;
        sent = socket_.write_some(frame, ec);
        if (ec && !would_block(ec)) return fail(CloseReason::WriteError);
        if (sent == header.size() + payload.size()) return;
    }
    const std::size_t rest = header.size() + payload.size() - sent;
    if (queued_bytes() + rest > limits_.max_queue_bytes || queued_frames_ >= limits_.max_queue_frames)
        return fail(CloseReason::Overflow);
    if (sent < header.size()) pending_.append(header.data() + sent, header.size() - sent);
    pending_.append(payload.substr(sent < header.size() ? 0 : sent - header.size()));
    ++queued_frames_;
    if (!writing_) start_write();
}

void Session::start_write() {
    writing_ = true;
    inflight_.swap(pending_);
    auto done = [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) { self->on_written(ec); };
    asio::async_write(socket_, asio::buffer(inflight_), std::move(done));
}

void Session::on_written(const boost::system::error_code& ec) {
    writing_ = false;
    if (closed_) return;
    if (ec) return shut(CloseReason::WriteError);
    trim(inflight_);
    if (!pending_.empty()) return start_write();
    queued_frames_ = 0;
    if (closing_) shut(close_reason_);
}

void Session::close(CloseReason reason, bool flush) {
    if (closed_) return;
    if (web_ && !closing_ && !failing_ && !abortive(reason)) close_ws(reason);
    close_reason_ = reason;
    if (!closing_) closing_since_ = Clock::now();
    closing_ = true;
    if (!flush) return shut(reason);
    // Flushing: on_written() shuts once the queue has drained; with nothing queued, a posted shut
    // keeps the handler from being called back inside the request that asked for the close.
    if (!writing_) fail(reason);
}

std::optional<CloseReason> Session::timed_out(Clock::time_point now) const {
    // A close waiting for its output to drain reads nothing more, so the timeouts below no longer
    // apply; a peer that never reads would hold it open (and its socket) for ever.
    if (closing_ && !closed_ && !failing_)
        return now >= closing_since_ + limits_.frame_timeout ? std::optional(CloseReason::FlushTimeout) : std::nullopt;
    if (handshaking_ && reading())
        return now >= last_read_ + limits_.handshake_timeout ? std::optional(CloseReason::HandshakeTimeout)
                                                             : std::nullopt;
    if (!reading()) return std::nullopt;
    if (partial_since_ != Clock::time_point{} && now >= partial_since_ + limits_.frame_timeout)
        return CloseReason::FrameTimeout;
    if (now >= last_read_ + limits_.idle_timeout) return CloseReason::IdleTimeout;
    return std::nullopt;
}

void Session::fail(CloseReason reason) {
    if (closed_ || failing_) return;
    failing_ = true;
    asio::post(socket_.get_executor(), [self = shared_from_this(), reason] { self->shut(reason); });
}

void Session::shut(CloseReason reason) {
    if (closed_) return;
    closed_ = true;
    boost::system::error_code ignored;
    if (tls_ && !abortive(reason) && !handshaking_ && !writing_) {
        close_tls();  // closes the socket once close_notify is through
    } else {
        if (abortive(reason)) {
            // Reset, not a FIN: a FIN waits behind the unsent output, which a peer that does not read
            // never lets through, so it would neither hear of the close nor free the kernel's buffer.
            socket_.set_option(asio::socket_base::linger(true, 0), ignored);
        } else {
            socket_.shutdown(tcp::socket::shutdown_both, ignored);
        }
        socket_.close(ignored);  // the pending wait or write completes as aborted
    }
    trim(pending_);
    queued_frames_ = 0;
    handler_.on_closed(shared_from_this(), reason);
}

// A clean TLS close: the pending read is cancelled, close_notify goes out, and the socket closes
// when the peer answers with its own or after kTlsShutdownTimeout, whichever comes first (a
// silent peer would otherwise hold the socket for ever).
void Session::close_tls() {
    boost::system::error_code ignored;
    socket_.cancel(ignored);
    tls_->engine.shutdown();
    inflight_.clear();
    tls_->engine.take_output(inflight_);
    tls_->shutdown_timer.expires_after(kTlsShutdownTimeout);
    tls_->shutdown_timer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        boost::system::error_code ignore;
        if (!ec) self->socket_.close(ignore);
    });
    asio::async_write(socket_, asio::buffer(inflight_),
                      [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
                          if (ec || self->tls_->engine.peer_closed()) return self->end_tls();
                          self->drain_tls();
                      });
}

// Reads, discarding, until the peer's close_notify (or the end of the stream, or the timer).
void Session::drain_tls() {
    socket_.async_read_some(asio::buffer(small_), [self = shared_from_this()](const boost::system::error_code& ec,
                                                                               std::size_t n) {
        if (ec) return self->end_tls();
        auto& engine = self->tls_->engine;
        engine.feed(std::string_view(self->small_.data(), n));
        for (;;) {
            std::size_t got = 0;
            const auto status = engine.read(plain_buffer.data(), plain_buffer.size(), got);
            if (got > 0) continue;
            if (status == tls::MemoryEngine::Status::Done) return self->drain_tls();
            return self->end_tls();  // close_notify, or a TLS error
        }
    });
}

void Session::end_tls() {
    boost::system::error_code ignored;
    tls_->shutdown_timer.cancel();
    socket_.close(ignored);
}

}  // namespace xq::server
