// Watch-only sessions (a browser's WebSocket, issue 23; Peer::watch_only): what they may ask.
// Everything else is refused with WATCH_ONLY before it reaches a handler (request_handlers.cpp).

#include <type_traits>
#include <variant>

#include "server/dispatch/dispatcher.h"

namespace xq::server {

// What a watch-only session may ask: reading requests, and a person's Hello.
bool Dispatcher::watcher_may(const proto::ClientBody& body) {
    if (const auto* hello = std::get_if<proto::Hello>(&body)) return hello->computer_level == 0;
    return std::visit(
        [](const auto& m) {
            using T = std::decay_t<decltype(m)>;
            return std::is_same_v<T, proto::Ping> || std::is_same_v<T, proto::Pong> ||
                   std::is_same_v<T, proto::ListGames> || std::is_same_v<T, proto::WatchGame> ||
                   std::is_same_v<T, proto::Leave> || std::is_same_v<T, proto::Mute> ||
                   std::is_same_v<T, proto::ListArchive> || std::is_same_v<T, proto::GetArchived> ||
                   std::is_same_v<T, proto::GetProfile> || std::is_same_v<T, proto::GetLeaderboard>;
        },
        body);
}

}  // namespace xq::server
