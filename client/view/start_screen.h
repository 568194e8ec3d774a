#pragma once
// The first screen: a server's address and the player's name, the servers found on the LAN, and
// the ways to play without a remote server (host a LAN game, hotseat).

#include <SFML/Graphics.hpp>

#include "client/view/login_panel.h"
#include "client/view/screen_context.h"
#include "client/view/time_control_picker.h"

namespace xq::client {

class StartScreen {
public:
    StartScreen(ScreenContext& context, std::string address, std::string name);
    void handle(const sf::Event& event);
    void draw(sf::RenderTarget& target, ui::Input& in, TimePoint now);
    // The screen's timer, every turn of the loop while it is shown, whether or not a frame is drawn.
    void tick(TimePoint now);
    std::string name() const { return name_field_.value(); }

private:
    // False (with the reason shown) when it cannot: no address, or no name. `fingerprint`: the
    // certificate LAN discovery announced for that server, if any.
    bool connect(const std::string& address, const std::string& fingerprint = {});
    void draw_main(sf::RenderTarget& target, ui::Input& in, TimePoint now);
    // The clock picker for games on this machine, over the screen until a valid choice is made.
    void draw_clock_picker(sf::RenderTarget& target, ui::Input& in);

    ScreenContext& ctx_;
    ui::TextField address_field_;
    ui::TextField name_field_;
    LoginPanel login_{ctx_};
    std::string error_;
    TimePoint last_search_{};
    Color computer_side_ = Color::Red;
    TimeControlPickerView clock_picker_{ctx_.local_clock};
    bool choosing_clock_ = false;
};

}  // namespace xq::client
