#pragma once
// The leaderboard: a tab per speed, and its best players by rating (rank, name, rating, rated
// games); a click on a row opens that player's profile.

#include <SFML/Graphics.hpp>

#include "client/view/screen_context.h"

namespace xq::client {

class LeaderboardScreen {
public:
    explicit LeaderboardScreen(ScreenContext& context) : ctx_(context) {}
    void draw(sf::RenderTarget& target, ui::Input& in);

private:
    ScreenContext& ctx_;
    ui::ScrollArea scroll_;
};

// The header both rating pages share: a way back to the lobby and the page's title. Returns the
// header's bottom.
float draw_page_header(sf::RenderTarget& target, ScreenContext& ctx, ui::Input& in, const std::string& title);

}  // namespace xq::client
