#pragma once
// The two checks of a WebSocket handshake that are ours rather than Beast's (kept out of the
// Beast file so tests and the fuzzer reach them cheaply).

#include <string>
#include <string_view>

namespace xq::server::web {

// The Sec-WebSocket-Accept for a client's Sec-WebSocket-Key (RFC 6455 section 4.2.2).
std::string websocket_accept(std::string_view key);

// Whether a WebSocket handshake's Origin may open a session. The rule: no Origin at all (not a
// browser page: a browser always sends one), or an http/https origin whose host[:port] is exactly
// (ignoring case) the Host the request was sent to. A page of another site would otherwise open a
// socket in a visitor's browser and read, as that visitor, whatever the server tells a watcher.
bool origin_allowed(std::string_view origin, std::string_view host);

}  // namespace xq::server::web
