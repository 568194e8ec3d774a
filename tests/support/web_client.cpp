// The web clients of web_client.h over Boost.Beast: every operation is asynchronous and run on the
// client's own io_context up to a deadline, so a silent server fails a test instead of hanging it.
#include "web_client.h"

#include <utility>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "proto/codec.h"

namespace xq::test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using Plain = tcp::socket;
using Tls = asio::ssl::stream<tcp::socket>;

// Runs handlers until `done` or the deadline; false on timeout.
bool run_until(asio::io_context& io, const bool& done, Clock::time_point deadline) {
    while (!done) {
        const auto now = Clock::now();
        if (now >= deadline) return false;
        io.restart();
        io.run_one_for(deadline - now);
    }
    return true;
}

// What every connection needs before its stream: the loop, a client TLS context (the test
// server's certificate is self-signed: not checked here; tls_net_test checks pinning).
struct Base {
    asio::io_context io;
    asio::ssl::context tls_context{asio::ssl::context::tls_client};
    std::chrono::milliseconds timeout;
    std::uint16_t port;
    Clock::time_point deadline() const { return Clock::now() + timeout; }
};

tcp::socket& lowest(Plain& s) { return s; }
tcp::socket& lowest(Tls& s) { return s.next_layer(); }

template <class Stream>
Stream open(Base& base, bool tls) {
    if constexpr (std::is_same_v<Stream, Tls>) {
        Tls stream(base.io, base.tls_context);
        stream.next_layer().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), base.port));
        if (!tls) throw std::logic_error("a TLS stream for a plain connection");
        stream.handshake(asio::ssl::stream_base::client);
        return stream;
    } else {
        Plain stream(base.io);
        stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), base.port));
        return stream;
    }
}

}  // namespace

std::string ws_client_frame(std::uint8_t first, std::string_view payload) {
    std::string frame{static_cast<char>(first)};
    if (payload.size() < 126) {
        frame.push_back(static_cast<char>(0x80 | payload.size()));
    } else if (payload.size() <= 0xFFFF) {
        frame.push_back(static_cast<char>(0x80 | 126));
        frame.push_back(static_cast<char>(payload.size() >> 8));
        frame.push_back(static_cast<char>(payload.size()));
    } else {
        frame.push_back(static_cast<char>(0x80 | 127));
        for (int i = 7; i >= 0; --i)
            frame.push_back(static_cast<char>(static_cast<std::uint64_t>(payload.size()) >> (8 * i)));
    }
    const char key[4] = {0x37, static_cast<char>(0xfa), 0x21, 0x3d};
    frame.append(key, 4);
    for (std::size_t i = 0; i < payload.size(); ++i) frame.push_back(static_cast<char>(payload[i] ^ key[i % 4]));
    return frame;
}

// ---- WebConnection ----

struct WebConnection::Impl : Base {
    virtual ~Impl() = default;
    virtual bool write(std::string_view bytes) = 0;
    virtual std::optional<HttpReply> read_reply(bool head) = 0;
    virtual bool closed_within(std::chrono::milliseconds limit) = 0;
};

namespace {

template <class Stream>
struct HttpLink final : WebConnection::Impl {
    std::optional<Stream> stream;
    beast::flat_buffer buffer;

    bool write(std::string_view bytes) override {
        bool done = false;
        asio::async_write(*stream, asio::buffer(bytes.data(), bytes.size()),
                          [&](const beast::error_code&, std::size_t) { done = true; });
        if (run_until(io, done, deadline())) return true;
        abandon();
        return false;
    }
    std::optional<HttpReply> read_reply(bool head) override {
        http::response_parser<http::string_body> parser;
        parser.body_limit(16 << 20);
        parser.skip(head);
        bool done = false;
        beast::error_code error;
        http::async_read(*stream, buffer, parser, [&](const beast::error_code& ec, std::size_t) {
            error = ec;
            done = true;
        });
        if (!run_until(io, done, deadline())) return abandon(), std::nullopt;
        if (error) return std::nullopt;
        HttpReply reply;
        const auto& message = parser.get();
        reply.status = static_cast<int>(message.result_int());
        for (const auto& field : message) {
            std::string name(field.name_string());
            std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
            reply.headers[name] = std::string(field.value());
        }
        reply.body = message.body();
        return reply;
    }
    bool closed_within(std::chrono::milliseconds limit) override {
        const auto end = Clock::now() + limit;
        for (;;) {
            char scratch[4096];
            bool done = false;
            beast::error_code error;
            stream->async_read_some(asio::buffer(scratch), [&](const beast::error_code& ec, std::size_t) {
                error = ec;
                done = true;
            });
            if (!run_until(io, done, end)) return abandon(), false;
            if (error) return true;  // end of stream, reset, or a truncated TLS stream: closed
        }
    }
    // A timed-out operation is cancelled by closing the socket; its handler runs now.
    void abandon() {
        beast::error_code ignored;
        lowest(*stream).close(ignored);
        io.restart();
        io.run();
    }
};

template <class Stream>
std::unique_ptr<WebConnection::Impl> make_http(std::uint16_t port, bool tls, std::chrono::milliseconds timeout) {
    auto link = std::make_unique<HttpLink<Stream>>();
    link->port = port;
    link->timeout = timeout;
    link->stream.emplace(open<Stream>(*link, tls));
    return link;
}

}  // namespace

WebConnection::WebConnection(std::uint16_t port, bool tls, std::chrono::milliseconds timeout)
    : impl_(tls ? make_http<Tls>(port, true, timeout) : make_http<Plain>(port, false, timeout)) {}
WebConnection::~WebConnection() = default;

bool WebConnection::write(std::string_view bytes) { return impl_->write(bytes); }
std::optional<HttpReply> WebConnection::read_reply(bool head) { return impl_->read_reply(head); }
bool WebConnection::closed_within(std::chrono::milliseconds limit) { return impl_->closed_within(limit); }

std::optional<HttpReply> WebConnection::get(const std::string& target, const std::string& method) {
    write(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(impl_->port) + "\r\n\r\n");
    return read_reply(method == "HEAD");
}

// ---- WsClient ----

struct WsClient::Impl : Base {
    virtual ~Impl() = default;
    virtual void write(std::string_view bytes, bool binary) = 0;
    virtual std::optional<std::string> read() = 0;  // none: closed or timed out
    virtual void close() = 0;
    int status = 0;
    std::optional<int> close_code;  // once the server closed
};

namespace {

template <class Stream>
struct WsLink final : WsClient::Impl {
    std::optional<websocket::stream<Stream>> ws;
    beast::flat_buffer buffer;
    bool reading = false, got = false, ended = false, settled = false;

    void handshake(const WsClient::Options& options) {
        if (!options.origin.empty())
            ws->set_option(websocket::stream_base::decorator(
                [origin = options.origin](websocket::request_type& r) { r.set(http::field::origin, origin); }));
        websocket::response_type response;
        bool done = false;
        beast::error_code error;
        const std::string host = options.host.empty() ? "127.0.0.1:" + std::to_string(port) : options.host;
        ws->async_handshake(response, host, options.target, [&](const beast::error_code& ec) {
            error = ec;
            done = true;
        });
        if (!run_until(io, done, deadline())) throw std::runtime_error("the WebSocket handshake timed out");
        status = error ? static_cast<int>(response.result_int()) : 101;
        if (error && status == 0) throw std::runtime_error("WebSocket handshake: " + error.message());
        ws->binary(true);
    }
    void write(std::string_view bytes, bool binary) override {
        ws->binary(binary);
        bool done = false;
        ws->async_write(asio::buffer(bytes.data(), bytes.size()), [&](const beast::error_code&, std::size_t) { done = true; });
        run_until(io, done, deadline());
    }
    // One read stays armed across calls: a Beast read cannot be cancelled without the socket.
    std::optional<std::string> read() override {
        if (!reading && !ended && !got) {
            reading = true;
            ws->async_read(buffer, [this](const beast::error_code& ec, std::size_t) {
                reading = false;
                settled = true;
                if (!ec) {
                    got = true;
                    return;
                }
                ended = true;
                if (ws->reason().code != websocket::close_code::none || ec == websocket::error::closed)
                    close_code = static_cast<int>(ws->reason().code);
            });
        }
        run_until(io, settled, deadline());
        if (!got) return std::nullopt;
        got = false;
        settled = ended;
        std::string message = beast::buffers_to_string(buffer.data());
        buffer.consume(buffer.size());
        return message;
    }
    void close() override {
        bool done = false;
        ws->async_close(websocket::close_code::normal, [&](const beast::error_code&) { done = true; });
        run_until(io, done, deadline());
    }
};

template <class Stream>
std::unique_ptr<WsClient::Impl> make_ws(std::uint16_t port, const WsClient::Options& options,
                                        std::chrono::milliseconds timeout) {
    auto link = std::make_unique<WsLink<Stream>>();
    link->port = port;
    link->timeout = timeout;
    link->ws.emplace(open<Stream>(*link, options.tls));
    link->handshake(options);
    return link;
}

}  // namespace

WsClient::WsClient(std::uint16_t port, Options options, std::chrono::milliseconds timeout)
    : impl_(options.tls ? make_ws<Tls>(port, options, timeout) : make_ws<Plain>(port, options, timeout)) {}
WsClient::~WsClient() = default;

int WsClient::status() const { return impl_->status; }

std::uint64_t WsClient::send(proto::ClientBody body) {
    const std::uint64_t id = next_id_++;
    send_frame(proto::encode(proto::ClientMessage{id, std::move(body)}));
    return id;
}

void WsClient::send_frame(std::string_view bytes, bool binary) { impl_->write(bytes, binary); }

std::optional<proto::ServerMessage> WsClient::next() {
    if (!pending_.empty()) {
        auto m = std::move(pending_.front());
        pending_.pop_front();
        return m;
    }
    while (auto bytes = impl_->read()) {
        auto message = proto::decode_server(*bytes);
        if (!message) throw std::runtime_error("the server sent an undecodable message: " + message.error().message);
        if (const auto* ping = std::get_if<proto::Ping>(&message->body)) {
            send_frame(proto::encode(proto::ClientMessage{0, proto::Pong{ping->nonce}}));
            continue;
        }
        return std::move(*message);
    }
    return std::nullopt;
}

proto::ServerMessage WsClient::reply(std::uint64_t id) {
    for (auto it = pending_.begin(); it != pending_.end(); ++it)
        if (it->request_id == id) {
            auto m = std::move(*it);
            pending_.erase(it);
            return m;
        }
    for (;;) {
        auto bytes = impl_->read();
        if (!bytes) throw std::runtime_error("no reply to request " + std::to_string(id));
        auto m = proto::decode_server(*bytes);
        if (!m) throw std::runtime_error("the server sent an undecodable message: " + m.error().message);
        if (const auto* ping = std::get_if<proto::Ping>(&m->body)) {
            send_frame(proto::encode(proto::ClientMessage{0, proto::Pong{ping->nonce}}));
            continue;
        }
        if (m->request_id == id) return std::move(*m);
        pending_.push_back(std::move(*m));
    }
}

void WsClient::hello(const std::string& name) {
    const auto welcome = call(proto::Hello{"web-test/1", name, proto::kProtocolVersion, 0, ""});
    if (!std::holds_alternative<proto::Welcome>(welcome.body)) throw std::runtime_error("no Welcome for " + name);
}

std::optional<int> WsClient::closed_by_server() {
    pending_.clear();
    while (impl_->read()) {}
    return impl_->close_code;
}

void WsClient::close() { impl_->close(); }

}  // namespace xq::test
