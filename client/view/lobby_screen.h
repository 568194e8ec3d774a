#pragma once
// The lobby: open games to join, live games to watch, archived games to replay; a form to create a
// game (time control, colour, private), quick match, and joining a private game by its code.

#include <SFML/Graphics.hpp>

#include "client/model/layout.h"
#include "client/model/time_control_picker.h"
#include "client/view/screen_context.h"
#include "client/view/time_control_picker.h"

namespace xq::client {

class LobbyScreen {
public:
    explicit LobbyScreen(ScreenContext& context) : ctx_(context) {}
    void handle(const sf::Event& event);
    void draw(sf::RenderTarget& target, ui::Input& in, TimePoint now);
    // The screen's timer, every turn of the loop while it is shown, whether or not a frame is drawn.
    void tick(TimePoint now);

private:
    void draw_lists(sf::RenderTarget& target, ui::Input& in, const LobbyLayout& l);
    float draw_forms(sf::RenderTarget& target, ui::Input& in, Rect r, float top);
    void draw_bar(sf::RenderTarget& target, ui::Input& in, const LobbyLayout& l);
    // One game in a list; 1 when its action button was clicked, 2 for the optional second button.
    int game_row(sf::RenderTarget& target, ui::Input& in, const Rect& row, const std::string& who, sf::Color who_color,
                 const std::string& details, const std::string& action, bool accent, const std::string& second = {});

    ScreenContext& ctx_;
    TimeControlPicker time_control_{false, kLobbyDefaultControl};
    TimeControlPickerView time_picker_{time_control_};
    ColorPick color_ = ColorPick::Random;
    bool private_ = false;
    bool rated_ = false;  // for Create and Quick match; needs a login
    std::uint32_t delay_ = 0;  // spectators see the game this many moves behind
    int tab_ = 0;  // 0: open and live games, 1: archive
    ui::TextField game_field_{"", 20};  // a game number is up to 20 digits
    ui::TextField code_field_{"", 16};
    ui::TextField player_field_{"", 40};  // the archive's player filter
    TimePoint last_refresh_{};
    ui::ScrollArea forms_scroll_;
    ui::ScrollArea lists_scroll_;
};

}  // namespace xq::client
