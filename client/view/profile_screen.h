#pragma once
// An account's profile: its ratings per speed ('?' while provisional), the rating-history plot,
// wins, draws and losses, and its archived games (a click replays one). On one's own profile, a
// form to change the password.

#include <SFML/Graphics.hpp>

#include "client/view/screen_context.h"

namespace xq::client {

class ProfileScreen {
public:
    explicit ProfileScreen(ScreenContext& context) : ctx_(context) {
        old_password_.set_masked(true);
        new_password_.set_masked(true);
    }
    void handle(const sf::Event& event);
    void draw(sf::RenderTarget& target, ui::Input& in);

private:
    void draw_ratings(sf::RenderTarget& target, Rect r, const ProfileView& p);
    void draw_password(sf::RenderTarget& target, ui::Input& in, Rect r);
    void draw_games(sf::RenderTarget& target, ui::Input& in, Rect r);
    void submit_password();

    ScreenContext& ctx_;
    ui::TextField old_password_{"", 200};
    ui::TextField new_password_{"", 200};
    ui::ScrollArea games_scroll_;
};

}  // namespace xq::client
