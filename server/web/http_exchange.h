#pragma once
// One connection's HTTP requests, bytes in and response bytes out: the only place Boost.Beast is
// included (http_exchange.cpp), so a change here recompiles one file, not the server (a Beast
// file takes half a minute and a gigabyte to compile). The session (server/net) feeds it what it
// read and writes what it answers; after a WebSocket upgrade the session frames the rest itself
// (ws_frame.h).
//
// Routes: "/" and "/g/<id>" answer the page (the page reads the path itself: a private or unknown
// game gets the same page, so a guessed link tells nothing), "/assets/<file>" the bundle, "/ws" the
// WebSocket upgrade. GET and HEAD only; no request has a body.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "server/web/site.h"

namespace xq::server::web {

struct HttpLimits {
    std::size_t header_bytes = 8 * 1024;  // request line and fields together
    std::size_t target_bytes = 2048;      // the URL
    std::size_t requests = 100;           // per connection, then "Connection: close"
};

class HttpExchange {
public:
    explicit HttpExchange(const Site& site, HttpLimits limits = {});
    ~HttpExchange();

    enum class Next {
        More,     // answered what was complete; reading on
        Close,    // the last response is in `out`: close once it is written
        Upgrade,  // `out` holds the 101; the connection speaks WebSocket from now on (leftover())
    };
    // Parses the bytes that arrived and appends each complete request's response to `out`.
    Next take(std::string_view bytes, std::string& out);
    // After Upgrade: the bytes that followed the upgrade request (the first WebSocket frames).
    std::string leftover();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace xq::server::web
