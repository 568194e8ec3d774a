#pragma once
// Browser-side clients for tests of the game port's web face (issue 23), plain or TLS, every wait
// bounded: a raw connection that writes any bytes and reads HTTP responses, and a WebSocket
// watcher (Boost.Beast's client, so the server's framing is checked against another
// implementation). Beast stays in web_client.cpp.

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "proto/messages.h"

namespace xq::test {

struct HttpReply {
    int status = 0;
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;
    std::string header(const std::string& name) const {
        const auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
};

// A client's WebSocket frame as browsers send it (masked, FIN set unless `last` is false), for
// tests that write frames by hand. `first` is the first byte: FIN, reserved bits and opcode.
std::string ws_client_frame(std::uint8_t first, std::string_view payload);

class WebConnection {
public:
    WebConnection(std::uint16_t port, bool tls, std::chrono::milliseconds timeout = std::chrono::seconds(20));
    ~WebConnection();
    // Writes everything (true), or the server closed the connection (true too: the error is
    // the next read's); false when the bytes did not go out within the timeout.
    bool write(std::string_view bytes);
    // The next whole response (after a HEAD request, `head`: no body follows); none when the
    // server closed the connection or nothing came within the timeout.
    std::optional<HttpReply> read_reply(bool head = false);
    // "GET target" with a Host; the response.
    std::optional<HttpReply> get(const std::string& target, const std::string& method = "GET");
    // True when the server closes the connection within `limit`.
    bool closed_within(std::chrono::milliseconds limit);

    struct Impl;  // web_client.cpp's, over a plain or a TLS stream

private:
    std::unique_ptr<Impl> impl_;
};

class WsClient {
public:
    struct Options {
        bool tls = false;
        std::string origin;  // none: no Origin header
        std::string host;    // default: 127.0.0.1:<port>
        std::string target = "/ws";
    };
    WsClient(std::uint16_t port, Options options, std::chrono::milliseconds timeout = std::chrono::seconds(20));
    ~WsClient();

    // The handshake's answer: 101 when the socket is open, else the refusal's status.
    int status() const;
    std::uint64_t send(proto::ClientBody body);
    void send_frame(std::string_view bytes, bool binary = true);  // one WebSocket message as is
    // The next message (the server's Pings answered and skipped); none on timeout or close.
    std::optional<proto::ServerMessage> next();
    proto::ServerMessage reply(std::uint64_t id);
    proto::ServerMessage call(proto::ClientBody body) { return reply(send(std::move(body))); }
    template <class T>
    std::optional<T> wait_for() {
        while (auto m = next())
            if (auto* body = std::get_if<T>(&m->body)) return *body;
        return std::nullopt;
    }
    void hello(const std::string& name);
    // The close code the server sent (1000, 1009, ...) once it closed; none if it did not within
    // the timeout. Messages before the close are skipped.
    std::optional<int> closed_by_server();
    void close();  // a clean close from our side

    struct Impl;  // web_client.cpp's, over a plain or a TLS stream

private:
    std::unique_ptr<Impl> impl_;
    std::deque<proto::ServerMessage> pending_;
    std::uint64_t next_id_ = 1;
};

}  // namespace xq::test
