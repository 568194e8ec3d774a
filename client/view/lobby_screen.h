#pragma once
// The lobby: open games to join, live games to watch, archived games to replay; a form to create a
// game (time control, colour, private), quick match, and joining a private game by its code.

#include <SFML/Graphics.hpp>

#include "client/model/time_control_picker.h"
#include "client/view/screen_context.h"
#include "client/view/time_control_picker.h"

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
    TimeControlPicker time_control_{false, TimeControlChoice{10, 5, std::nullopt}};
    TimeControlPickerView time_picker_{time_control_};
    ColorPick color_ = ColorPick::Random;
    bool private_ = false;
    int tab_ = 0;  // 0: open and live games, 1: archive
    ui::TextField game_field_{"", 12};
    ui::TextField code_field_{"", 16};
    TimePoint last_refresh_{};
};

}  // namespace xq::client
