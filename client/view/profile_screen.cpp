#include "profile_screen.h"

#include "client/online/online_client.h"
#include "client/view/leaderboard_screen.h"
#include "client/view/rating_plot.h"

namespace xq::client {

void ProfileScreen::handle(const sf::Event& event) {
    old_password_.handle(event);
    if (new_password_.handle(event)) submit_password();
}

void ProfileScreen::submit_password() {
    if (new_password_.value().empty()) return;
    ctx_.online.change_password(old_password_.value(), new_password_.value());
    old_password_.set("");
    new_password_.set("");
}

// The ratings table: a row per speed in its plot colour, then the results.
void ProfileScreen::draw_ratings(sf::RenderTarget& target, Rect r, const ProfileView& p) {
    const sf::Font& font = ctx_.resources.font();
    ui::box(target, r, ui::color::kPanel, ui::color::kPanelLine, 1);
    float y = r.y + 10;
    ui::text(target, font, "Ratings", {r.x + 14, y}, 19, ui::color::kText);
    y += 34;
    ui::text(target, font, "Rated games", {r.x + r.w - 14, y}, 13, ui::color::kMuted, ui::Align::Right);
    y += 20;
    for (const auto& s : p.speeds) {
        ui::box(target, {r.x + 14, y + 9, 14, 4}, speed_color(s.speed));
        ui::text(target, font, speed_name(s.speed), {r.x + 36, y}, 17, ui::color::kText);
        ui::text(target, font, rating_text(s.rating), {r.x + r.w * 0.62f, y}, 19, speed_color(s.speed), ui::Align::Right);
        ui::text(target, font, std::to_string(s.games), {r.x + r.w - 14, y}, 17, ui::color::kMuted, ui::Align::Right);
        y += 30;
    }
    y += 8;
    ui::box(target, {r.x + 14, y, r.w - 28, 1}, ui::color::kPanelLine);
    y += 10;
    const float third = (r.w - 28) / 3;
    const std::pair<const char*, std::uint32_t> results[] = {{"Wins", p.wins}, {"Draws", p.draws}, {"Losses", p.losses}};
    const sf::Color colours[] = {ui::color::kGood, ui::color::kText, ui::color::kDanger};
    for (int i = 0; i < 3; ++i) {
        const float cx = r.x + 14 + third * (static_cast<float>(i) + 0.5f);
        ui::text(target, font, std::to_string(results[i].second), {cx, y}, 24, colours[i], ui::Align::Center);
        ui::text(target, font, results[i].first, {cx, y + 32}, 13, ui::color::kMuted, ui::Align::Center);
    }
    if (p.speeds.empty() || std::ranges::all_of(p.speeds, [](const auto& s) { return s.rating.provisional; }))
        ui::text(target, font, "'?': provisional, a few more rated games settle it", {r.x + 14, r.y + r.h - 24}, 12,
                 ui::color::kMuted);
}

// Changing the password of the account logged in: the answer shown under the form.
void ProfileScreen::draw_password(sf::RenderTarget& target, ui::Input& in, Rect r) {
    const sf::Font& font = ctx_.resources.font();
    ui::box(target, r, ui::color::kPanel, ui::color::kPanelLine, 1);
    ui::text(target, font, "Change password", {r.x + 14, r.y + 10}, 17, ui::color::kText);
    old_password_.draw(target, font, in, {r.x + 14, r.y + 40, r.w - 28, 30}, "current password");
    new_password_.draw(target, font, in, {r.x + 14, r.y + 76, r.w - 28, 30}, "new password (Enter)");
    const auto& status = ctx_.online.password_status();
    if (ui::button(target, font, in, {r.x + 14, r.y + 114, 120, 30}, "Change", !status.pending && !new_password_.value().empty()))
        submit_password();
    if (!status.text.empty()) {
        const auto lines = ui::wrap(font, status.text, 14, r.w - 160);
        float y = r.y + 112;
        for (const auto& line : lines) {
            ui::text(target, font, line, {r.x + 146, y}, 14,
                     status.pending ? ui::color::kMuted : status.ok ? ui::color::kGood : ui::color::kDanger);
            y += 17;
        }
    }
}

// The account's archived games, newest first; a click replays one.
void ProfileScreen::draw_games(sf::RenderTarget& target, ui::Input& in, Rect r) {
    const sf::Font& font = ctx_.resources.font();
    const LobbyModel& lobby = ctx_.lobby;
    ui::text(target, font,
             "Games (" + std::to_string(lobby.archive_total) + (lobby.archive_total_capped ? "+" : "") + ")",
             {r.x, r.y}, 17, ui::color::kAccent);
    float y = games_scroll_.begin(target, in, {r.x, r.y + 28, r.w, r.h - 28});
    if (lobby.archive.empty()) {
        ui::text(target, font, "No finished games yet.", {r.x + 10, y + 6}, 15, ui::color::kMuted);
        y += 34;
    }
    for (const auto& g : lobby.archive) {
        const Rect row{r.x, y, r.w, 34};
        ui::box(target, row, row.contains(in.mouse) ? sf::Color(62, 58, 52) : sf::Color(44, 41, 38), ui::color::kPanelLine, 1);
        const std::string details = archive_date(g) + "  " + to_string(g.time_control) + "  " + g.result;
        const float details_w = ui::text(target, font, details, {r.x + r.w - 10, y + 8}, 14, ui::color::kMuted, ui::Align::Right);
        ui::text(target, font, ui::elide(font, g.red + "  vs  " + g.black, 15, r.w - details_w - 30), {r.x + 10, y + 7}, 15,
                 ui::color::kText);
        if (in.take_click(row)) ctx_.online.open_archived(g.id);
        y += 38;
    }
    if (!lobby.archive_next.empty()) {
        if (ui::button(target, font, in, {r.x, y + 2, 160, 30}, "Older games")) ctx_.online.more_archive();
        y += 40;
    }
    games_scroll_.end(target, in, y);
}

void ProfileScreen::draw(sf::RenderTarget& target, ui::Input& in) {
    const RatingsModel& m = ctx_.online.ratings();
    const sf::Font& font = ctx_.resources.font();
    const auto size = target.getView().getSize();
    const float margin = size.x < 900 ? 12.0f : 24.0f, gap = 16;
    const bool own = !ctx_.online.account().empty() && m.profile_name == ctx_.online.account();
    std::string title = m.profile ? m.profile->name : m.profile_name;
    if (m.profile && m.profile->computer) title += "  (computer)";
    if (own) title += "  (you)";
    const float top = draw_page_header(target, ctx_, in, title);
    if (in.pressed) {  // the fields lose the focus to a click elsewhere
        old_password_.focus(false);
        new_password_.focus(false);
    }
    if (!m.profile_error.empty() || !m.profile) {
        ui::text(target, font, m.profile_error.empty() ? "Loading…" : m.profile_error, {margin, top + 10}, 18,
                 m.profile_error.empty() ? ui::color::kMuted : ui::color::kDanger);
        return;
    }
    const float left_w = std::clamp(size.x * 0.3f, 250.0f, 340.0f), bottom = size.y - 30;
    const Rect ratings{margin, top, left_w, 296};
    draw_ratings(target, ratings, *m.profile);
    if (own) draw_password(target, in, {margin, ratings.y + ratings.h + gap, left_w, 156});
    const float right_x = margin + left_w + gap * 1.5f, right_w = size.x - margin - right_x;
    const float plot_h = std::clamp((bottom - top) * 0.55f, 200.0f, 360.0f);
    draw_rating_plot(target, font, {right_x, top, right_w, plot_h}, m.profile->speeds);
    draw_games(target, in, {right_x, top + plot_h + gap, right_w, bottom - top - plot_h - gap});
}

}  // namespace xq::client
