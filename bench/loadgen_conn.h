#pragma once
// The load generator's connection: one TCP socket on the load generator's single thread, TLS unless
// the run is --plain. Frames in are handed to a callback as payloads; frames out are written to the
// kernel at once when no write is in flight, else appended to a buffer written in one system call
// when the last one is done. TLS is the server's own engine (tls/memory_engine.h, OpenSSL over
// memory), so the load generator pays for the cipher, not for an Asio SSL operation per frame:
// it must be cheaper than what it measures.

#include <utility>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <chrono>
#include <memory>
#include <functional>
#include <string>
#include <string_view>

#include "proto/frame.h"
#include "tls/memory_engine.h"

namespace xq::loadgen {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

class Conn {
public:
    using OnPayload = std::function<void(std::string_view payload)>;
    // Called once when the connection ends by itself (not by close()): a drop, an error, EOF.
    using OnDrop = std::function<void(const std::string& why)>;

    // `tls`: the run's client context (null: plain TCP); must outlive the connection.
    explicit Conn(asio::io_context& io, asio::ssl::context* tls = nullptr) : socket_(io), tls_context_(tls) {}
    Conn(const Conn&) = delete;
    Conn& operator=(const Conn&) = delete;

    // Connects (no delay on) and starts reading. The error is empty on success.
    asio::awaitable<std::string> connect(const tcp::endpoint& server, OnPayload on_payload, OnDrop on_drop);

    // Queues bytes that are already framed (length prefix included).
    void send(std::string_view frame_bytes);
    void close();
    bool open() const { return open_; }

private:
    asio::awaitable<void> read_loop();
    // Decrypted (or plain) bytes in; false when the connection ended.
    bool take(std::string_view bytes);
    void flush();
    void drop(const std::string& why);

    tcp::socket socket_;
    asio::ssl::context* tls_context_;
    asio::awaitable<std::string> handshake();
    std::unique_ptr<tls::MemoryEngine> tls_;
    proto::FrameReader frames_;
    OnPayload on_payload_;
    OnDrop on_drop_;
    std::string pending_;   // queued while a write is in flight
    std::string inflight_;  // the bytes of the write in flight
    bool writing_ = false;
    bool open_ = false;
};

}  // namespace xq::loadgen
