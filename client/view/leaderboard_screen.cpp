#include "leaderboard_screen.h"

#include "client/online/online_client.h"
#include "client/view/rating_plot.h"

namespace xq::client {

float draw_page_header(sf::RenderTarget& target, ScreenContext& ctx, ui::Input& in, const std::string& title) {
    const sf::Font& font = ctx.resources.font();
    const auto size = target.getView().getSize();
    const float margin = size.x < 900 ? 12.0f : 24.0f;
    ui::box(target, {0, 0, size.x, size.y}, ui::color::kBackground);
    if (ui::button(target, font, in, {margin, 18, 110, 36}, "← Back")) ctx.online.close_page();
    ui::text(target, font, ui::elide(font, title, 28, size.x - 2 * margin - 130), {margin + 130, 16}, 28,
             ui::color::kAccent);
    ui::text(target, font, ui::elide(font, ctx.status, 13, size.x - 2 * margin), {margin, size.y - 20}, 13,
             ui::color::kMuted);
    return 70;
}

void LeaderboardScreen::draw(sf::RenderTarget& target, ui::Input& in) {
    const sf::Font& font = ctx_.resources.font();
    const RatingsModel& m = ctx_.online.ratings();
    const auto size = target.getView().getSize();
    const float margin = size.x < 900 ? 12.0f : 24.0f;
    float y = draw_page_header(target, ctx_, in, "Leaderboard");
    // A tab per speed.
    const float tab_w = std::min(150.0f, (size.x - 2 * margin) / 4 - 6);
    for (int i = 0; i < kSpeedPools; ++i) {
        const auto speed = static_cast<SpeedPool>(i);
        const Rect tab{margin + static_cast<float>(i) * (tab_w + 6), y, tab_w, 34};
        if (ui::button(target, font, in, tab, speed_name(speed), true, m.board_speed == speed))
            ctx_.online.open_leaderboard(speed);
    }
    y += 46;
    const Rect table{margin, y, size.x - 2 * margin, size.y - y - 30};
    const float rank_x = table.x + 14, name_x = table.x + 90, rating_x = table.x + table.w * 0.62f,
                games_x = table.x + table.w - 20;
    ui::text(target, font, "Rank", {rank_x, y}, 15, ui::color::kMuted);
    ui::text(target, font, "Player", {name_x, y}, 15, ui::color::kMuted);
    ui::text(target, font, "Rating", {rating_x, y}, 15, ui::color::kMuted, ui::Align::Right);
    ui::text(target, font, "Rated games", {games_x, y}, 15, ui::color::kMuted, ui::Align::Right);
    y += 26;
    float row_y = scroll_.begin(target, in, {table.x, y, table.w, table.y + table.h - y});
    if (!m.leaderboard_loaded) {
        ui::text(target, font, "Loading…", {name_x, row_y + 8}, 16, ui::color::kMuted);
        row_y += 40;
    } else if (m.leaderboard.empty()) {
        ui::text(target, font,
                 "Nobody has a settled " + std::string(speed_name(m.board_speed)) + " rating yet (" +
                     std::to_string(m.min_games) + " rated games and no '?').",
                 {name_x, row_y + 8}, 16, ui::color::kMuted);
        row_y += 40;
    }
    for (const auto& row : m.leaderboard) {
        const Rect r{table.x, row_y, table.w, 34};
        const bool hover = r.contains(in.mouse);
        ui::box(target, r, hover ? sf::Color(62, 58, 52) : sf::Color(44, 41, 38), ui::color::kPanelLine, 1);
        const sf::Color top = row.rank <= 3 ? ui::color::kAccent : ui::color::kText;
        ui::text(target, font, std::to_string(row.rank), {rank_x, row_y + 7}, 17, top);
        ui::text(target, font, ui::elide(font, row.name + (row.computer ? "  (computer)" : ""), 17, rating_x - name_x - 80),
                 {name_x, row_y + 7}, 17, row.computer ? sf::Color(150, 200, 240) : ui::color::kText);
        ui::text(target, font, rating_text(row.rating), {rating_x, row_y + 7}, 17, speed_color(m.board_speed),
                 ui::Align::Right);
        ui::text(target, font, std::to_string(row.games), {games_x, row_y + 7}, 17, ui::color::kMuted, ui::Align::Right);
        if (in.take_click(r)) ctx_.online.open_profile(row.name);
        row_y += 38;
    }
    scroll_.end(target, in, row_y);
}

}  // namespace xq::client
