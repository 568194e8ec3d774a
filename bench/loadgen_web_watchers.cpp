// WebSocket watchers of the server run: a plain socket, the HTTP upgrade, then RFC 6455 frames
// (the client masks, the server does not), each carrying one protobuf message, as the watch page's.

#include "loadgen_web_watchers.h"

#include <algorithm>
#include <array>

#include "proto/codec.h"

namespace xq::loadgen {

struct WebWatchers::Watcher {
    explicit Watcher(asio::io_context& io) : socket(io) {}
    tcp::socket socket;
    std::string in;        // bytes read and not yet used
    std::string pending;   // frames queued while a write is in flight
    std::string inflight;  // the bytes of the write in flight
    bool writing = false;
    bool upgraded = false;
    bool welcomed = false;
    bool open = false;
    std::uint64_t next_rid = 1;
};

WebWatchers::WebWatchers(Run& run, std::size_t count, OnWatching on_watching, OnMove on_move)
    : run_(run), on_watching_(std::move(on_watching)), on_move_(std::move(on_move)) {
    for (std::size_t i = 0; i < count; ++i) watchers_.emplace_back(run_.io);
}

WebWatchers::~WebWatchers() { close(); }

std::size_t WebWatchers::size() const { return watchers_.size(); }

asio::awaitable<std::string> WebWatchers::open() {
    std::size_t next = 0, done = 0;
    std::string failure;
    const int window = std::max(1, run_.options.connect_window);
    for (int i = 0; i < window; ++i)
        asio::co_spawn(
            run_.io,
            [&]() -> asio::awaitable<void> {
                while (next < watchers_.size() && failure.empty()) {
                    Watcher& w = watchers_[next++];
                    if (auto error = co_await open_one(w); !error.empty()) failure = error;
                }
                ++done;
            },
            asio::detached);
    asio::steady_timer poll(run_.io);
    const auto deadline = Clock::now() + std::chrono::seconds(180);
    auto welcomed = [this] {
        return static_cast<std::size_t>(std::count_if(watchers_.begin(), watchers_.end(),
                                                      [](const Watcher& w) { return w.welcomed; }));
    };
    // The connectors refer to this frame's locals: wait for all of them before leaving.
    while (done < static_cast<std::size_t>(window) ||
           (failure.empty() && welcomed() < watchers_.size() && Clock::now() < deadline)) {
        poll.expires_after(std::chrono::milliseconds(10));
        boost::system::error_code ec;
        co_await poll.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
    if (!failure.empty()) co_return "web watcher: " + failure;
    if (const std::size_t n = welcomed(); n < watchers_.size())
        co_return "only " + std::to_string(n) + " of " + std::to_string(watchers_.size()) + " web watchers welcomed";
    co_return std::string();
}

asio::awaitable<std::string> WebWatchers::open_one(Watcher& w) {
    boost::system::error_code ec;
    co_await w.socket.async_connect(run_.options.server, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return "connect: " + ec.message();
    w.socket.set_option(tcp::no_delay(true), ec);
    w.open = true;
    // No Origin header: not a browser page, which the server's Origin rule allows (docs/web.md).
    const std::string request = "GET /ws HTTP/1.1\r\nHost: " + run_.options.server.address().to_string() + ":" +
                                std::to_string(run_.options.server.port()) +
                                "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    w.pending = request;
    flush(w);
    asio::co_spawn(run_.io, read_loop(w), asio::detached);
    co_return std::string();
}

asio::awaitable<void> WebWatchers::read_loop(Watcher& w) {
    std::array<char, 16 * 1024> buffer{};
    while (w.open) {
        boost::system::error_code ec;
        const std::size_t n =
            co_await w.socket.async_read_some(asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
        if (ec || !w.open || !take(w, std::string_view(buffer.data(), n))) break;
    }
    if (w.open && !run_.stopping) run_.stats.error("web watcher: connection dropped");
    w.open = false;
}

bool WebWatchers::take(Watcher& w, std::string_view bytes) {
    w.in.append(bytes);
    if (!w.upgraded) {
        const auto end = w.in.find("\r\n\r\n");
        if (end == std::string::npos) return true;
        if (w.in.rfind("HTTP/1.1 101", 0) != 0) {
            run_.stats.error("web watcher: upgrade refused: " + w.in.substr(0, w.in.find("\r\n")));
            return false;
        }
        w.in.erase(0, end + 4);
        w.upgraded = true;
        send(w, proto::ClientMessage{w.next_rid++, proto::Hello{"xq-loadgen-web", "watcher", proto::kProtocolVersion}});
    }
    // Whole frames: FIN and opcode, then a 7-bit, 16-bit or 64-bit length; servers never mask.
    std::size_t at = 0;
    while (w.in.size() - at >= 2) {
        const auto b0 = static_cast<std::uint8_t>(w.in[at]), b1 = static_cast<std::uint8_t>(w.in[at + 1]);
        std::size_t header = 2;
        std::uint64_t length = b1 & 0x7f;
        if (length == 126 || length == 127) {
            const std::size_t extra = length == 126 ? 2 : 8;
            if (w.in.size() - at < 2 + extra) break;
            length = 0;
            for (std::size_t i = 0; i < extra; ++i) length = length << 8 | static_cast<std::uint8_t>(w.in[at + 2 + i]);
            header += extra;
        }
        if (w.in.size() - at < header + length) break;
        const std::string_view payload(w.in.data() + at + header, static_cast<std::size_t>(length));
        const std::uint8_t opcode = b0 & 0x0f;
        if (opcode == 0x2 && (b0 & 0x80)) on_message(w, payload);
        else if (opcode == 0x9) send_frame(w, 0xA, payload);
        else if (opcode == 0x8) w.open = false;
        else if (opcode != 0xA) run_.stats.error("web watcher: unexpected frame opcode " + std::to_string(opcode));
        at += header + static_cast<std::size_t>(length);
    }
    w.in.erase(0, at);
    return w.open;
}

void WebWatchers::on_message(Watcher& w, std::string_view payload) {
    auto message = proto::decode_server(payload);
    if (!message) return run_.stats.error("web watcher: undecodable message: " + message.error().message);
    if (const auto* made = std::get_if<proto::MoveMade>(&message->body)) return on_move_(made->game_id, made->ply);
    if (const auto* ping = std::get_if<proto::Ping>(&message->body))
        return send(w, proto::ClientMessage{w.next_rid++, proto::Pong{ping->nonce}});
    if (std::holds_alternative<proto::Welcome>(message->body)) {
        w.welcomed = true;
        if (game_ != 0) send(w, proto::ClientMessage{w.next_rid++, proto::WatchGame{game_, ""}});
        return;
    }
    if (const auto* snap = std::get_if<proto::Snapshot>(&message->body)) return on_watching_(snap->game_id);
    if (const auto* e = std::get_if<proto::Error>(&message->body))
        run_.stats.error("web watcher: server error " + std::string(proto::code_name(e->code)) + ": " + e->message);
}

void WebWatchers::watch(std::uint64_t game) {
    game_ = game;
    for (Watcher& w : watchers_)
        if (w.welcomed && w.open) send(w, proto::ClientMessage{w.next_rid++, proto::WatchGame{game, ""}});
}

void WebWatchers::send(Watcher& w, const proto::ClientMessage& m) { send_frame(w, 0x2, proto::encode(m)); }

void WebWatchers::send_frame(Watcher& w, std::uint8_t opcode, std::string_view payload) {
    if (!w.open) return;
    std::string& out = w.pending;
    out.push_back(static_cast<char>(0x80 | opcode));
    if (payload.size() < 126) {
        out.push_back(static_cast<char>(0x80 | payload.size()));
    } else {  // the watcher's messages stay far below 64 KiB
        out.push_back(static_cast<char>(0x80 | 126));
        out.push_back(static_cast<char>(payload.size() >> 8));
        out.push_back(static_cast<char>(payload.size() & 0xff));
    }
    // A fresh masking key per frame, as RFC 6455 asks of clients (xorshift: no security needed here).
    mask_seed_ ^= mask_seed_ << 13, mask_seed_ ^= mask_seed_ >> 17, mask_seed_ ^= mask_seed_ << 5;
    char key[4];
    for (int i = 0; i < 4; ++i) key[i] = static_cast<char>(mask_seed_ >> (8 * i));
    out.append(key, 4);
    for (std::size_t i = 0; i < payload.size(); ++i) out.push_back(static_cast<char>(payload[i] ^ key[i % 4]));
    flush(w);
}

void WebWatchers::flush(Watcher& w) {
    if (w.writing || w.pending.empty() || !w.open) return;
    w.writing = true;
    w.inflight.swap(w.pending);
    w.pending.clear();
    asio::async_write(w.socket, asio::buffer(w.inflight), [this, &w](const boost::system::error_code& ec, std::size_t) {
        w.writing = false;
        w.inflight.clear();
        if (ec) {
            if (w.open && !run_.stopping) run_.stats.error("web watcher: write: " + ec.message());
            w.open = false;
            return;
        }
        flush(w);
    });
}

void WebWatchers::close() {
    for (Watcher& w : watchers_) {
        w.open = false;
        boost::system::error_code ec;
        w.socket.close(ec);
    }
}

}  // namespace xq::loadgen
