#include "copy_watch_link.h"

#include <SFML/Window/Clipboard.hpp>

#include "client/online/online_client.h"

namespace xq::client {

void copy_watch_link(OnlineClient& online, const std::string& link) {
    sf::Clipboard::setString(sf::String::fromUtf8(link.begin(), link.end()));
    online.notify("Watch link copied: " + link);
}

}  // namespace xq::client
