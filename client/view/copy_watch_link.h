#pragma once
// "Copy watch link": a public game's browser link (issue 23) to the system clipboard, and a toast
// that says what was copied, from the lobby and from the game screen alike.

#include <string>

namespace xq::client {

class OnlineClient;

void copy_watch_link(OnlineClient& online, const std::string& link);

}  // namespace xq::client
