#pragma once
// The lobby: open games to join, live games to watch, archived games to replay; a form to create a
// game (time control, colour, private), quick match, and joining a private game by its code.

#include <SFML/Graphics.hpp>

#include "client/view/screen_context.h"

namespace xq::client {

class LobbyScreen {
public:
    explicit LobbyScreen(ScreenContext& context) : ctx_(context) {}
    void handle(const sf::Event& event);
    void draw(sf::RenderTarget& target, ui::Input& in, TimePoint now);

private:
    void draw_lists(sf::RenderTarget& target, ui::Input& in, Rect r);
    void draw_forms(sf::RenderTarget& target, ui::Input& in, Rect r);

    ScreenContext& ctx_;
    std::size_t time_control_ = 3;  // index into standard_time_controls(): 10+5
    ColorPick color_ = ColorPick::Random;
    bool private_ = false;
    int tab_ = 0;  // 0: open and live games, 1: archive
    ui::TextField game_field_{"", 12};
    ui::TextField code_field_{"", 16};
    ui::TextField player_field_{"", 40};  // the archive's player filter
    TimePoint last_refresh_{};
};

}  // namespace xq::client
