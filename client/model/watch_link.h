#pragma once
// The link that opens a game in a browser (the server's watch page, issue 23), for "Copy watch
// link": the page is served on the game port itself, over TLS unless the server runs --plain.

#include <cstdint>
#include <string>
#include <string_view>

namespace xq::client {

// "https://host:port/g/ID" ("http://" on a plain connection); an IPv6 address is bracketed.
std::string watch_link(std::string_view host, std::uint16_t port, bool tls, std::uint64_t game_id);

}  // namespace xq::client
