#pragma once
// The start screen's account row: an account name, a password (drawn as dots) and Log in /
// Register. Either connects to the start screen's server first when not connected; the login is
// sent once the link is up (OnlineClient::log_in). Guests leave it empty and just Connect.

#include <functional>
#include <string>

#include "client/view/screen_context.h"

namespace xq::client {

class LoginPanel {
public:
    explicit LoginPanel(ScreenContext& context);
    // True when Enter was pressed in one of its fields (a login).
    bool handle(const sf::Event& event);
    // Draws the row in `r`; `connect` opens the connection the login goes over (the start
    // screen's Connect), returning false when it cannot (no address).
    void draw(sf::RenderTarget& target, ui::Input& in, const Rect& r, const std::function<bool()>& connect);
    // Logs in (or registers) with what is typed; the error to show, or "".
    std::string submit(bool create, const std::function<bool()>& connect);
    const std::string& account() const { return account_field_.value(); }

private:
    ScreenContext& ctx_;
    ui::TextField account_field_;
    ui::TextField password_field_;
    std::string error_;
};

}  // namespace xq::client
