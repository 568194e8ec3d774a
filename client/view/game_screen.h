#pragma once
// The game: the board on the left; on the right the players with their clocks and captures, the
// move list, the buttons, offers, chat, and the result once there is one.

#include <optional>

#include <SFML/Graphics.hpp>

#include "client/model/layout.h"
#include "client/view/board_view.h"
#include "client/view/screen_context.h"

namespace xq::client {

class GameScreen {
public:
    explicit GameScreen(ScreenContext& context);
    void handle(const sf::Event& event);
    void draw(sf::RenderTarget& target, ui::Input& in, TimePoint now);
    // When this screen changes by itself (the game's clocks aside): the panel's layer after a frame
    // that left it stale, the resign button's confirmation running out; none otherwise.
    std::optional<TimePoint> next_change(TimePoint now) const;

private:
    void board_input(const BoardGeometry& g, ui::Input& in);
    void draw_panel(sf::RenderTarget& target, ui::Input& in, TimePoint now, Rect panel);
    float draw_player(sf::RenderTarget& target, ui::Input& in, Color side, Rect r, TimePoint now);
    void draw_moves(sf::RenderTarget& target, ui::Input& in, Rect r);
    int offer_rows(TimePoint now) const;
    void draw_offers(sf::RenderTarget& target, ui::Input& in, Rect r, TimePoint now);
    void draw_buttons(sf::RenderTarget& target, ui::Input& in, const PanelLayout& l, TimePoint now);
    void draw_chat(sf::RenderTarget& target, ui::Input& in, const PanelLayout& l);
    void draw_result(sf::RenderTarget& target, ui::Input& in, const BoardGeometry& g);
    std::string status_line() const;

    ScreenContext& ctx_;
    BoardView board_;
    ui::TextField chat_field_{"", 280};
    int move_scroll_ = 0;  // rows hidden above the move list when scrolled back
    bool result_hidden_ = false;
    static constexpr std::chrono::milliseconds kPanelEvery{100};  // the panel's layer at most this often
    sf::RenderTexture panel_layer_;
    TimePoint panel_drawn_{};
    bool panel_stale_ = false;  // the last frame showed the layer without painting it again
    bool typed_ = false;  // a key since the panel was last painted
    // Resign asks first: a second click before this time resigns.
    std::optional<TimePoint> confirm_resign_until_;
};

}  // namespace xq::client
