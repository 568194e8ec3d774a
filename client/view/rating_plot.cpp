#include "rating_plot.h"

#include <chrono>
#include <cmath>
#include <cstdio>

namespace xq::client {

sf::Color speed_color(SpeedPool speed) {
    switch (speed) {
        case SpeedPool::Bullet: return {235, 110, 90};
        case SpeedPool::Blitz: return {240, 190, 70};
        case SpeedPool::Rapid: return {110, 190, 110};
        case SpeedPool::Classical: return {120, 160, 240};
    }
    return ui::color::kText;
}

namespace {

// "14:05" for points within one day, else "2026.11.27" (UTC).
std::string time_label(std::int64_t at_ms, bool same_day) {
    const std::chrono::sys_time<std::chrono::milliseconds> t{std::chrono::milliseconds(at_ms)};
    const auto day = std::chrono::floor<std::chrono::days>(t);
    if (same_day) {
        const std::chrono::hh_mm_ss hms(std::chrono::floor<std::chrono::minutes>(t - day));
        char text[8];
        std::snprintf(text, sizeof text, "%02d:%02d", static_cast<int>(hms.hours().count()),
                      static_cast<int>(hms.minutes().count()));
        return text;
    }
    const std::chrono::year_month_day ymd(day);
    char text[16];
    std::snprintf(text, sizeof text, "%04d.%02u.%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                  static_cast<unsigned>(ymd.day()));
    return text;
}

void segment(sf::RenderTarget& target, sf::Vector2f a, sf::Vector2f b, float width, sf::Color c) {
    const sf::Vector2f d = b - a;
    const float len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len < 0.5f) return;
    sf::RectangleShape bar({len, width});
    bar.setOrigin(0, width / 2);
    bar.setPosition(a);
    bar.setRotation(std::atan2(d.y, d.x) * 180.0f / 3.14159265f);
    bar.setFillColor(c);
    target.draw(bar);
}

}  // namespace

void draw_rating_plot(sf::RenderTarget& target, const sf::Font& font, const Rect& r,
                      const std::vector<SpeedRecordView>& speeds) {
    ui::box(target, r, sf::Color(34, 32, 30), ui::color::kPanelLine, 1);
    std::vector<const std::vector<RatingPointView>*> histories;
    for (const auto& s : speeds)
        if (!s.history.empty()) histories.push_back(&s.history);
    // Room for the rating labels on the left, the times under the axis, the legend on top.
    const Rect area{r.x + 54, r.y + 30, r.w - 70, r.h - 60};
    if (histories.empty()) {
        ui::text(target, font, "No rated games yet: the plot starts with the first one.", {r.x + r.w / 2, r.y + r.h / 2 - 10},
                 15, ui::color::kMuted, ui::Align::Center);
        return;
    }
    const PlotScale scale = plot_scale(histories);
    const auto at = [&](std::int64_t ms, int rating) {
        return sf::Vector2f(area.x + static_cast<float>(scale.x(ms)) * area.w,
                            area.y + area.h - static_cast<float>(scale.y(rating)) * area.h);
    };
    // Horizontal lines on the ticks, labelled on the left.
    for (int v = scale.low; v <= scale.high; v += scale.tick) {
        const float y = at(scale.first_ms, v).y;
        ui::box(target, {area.x, y, area.w, 1}, v == scale.low ? ui::color::kMuted : sf::Color(70, 66, 60));
        ui::text(target, font, std::to_string(v), {area.x - 8, y - 9}, 13, ui::color::kMuted, ui::Align::Right);
    }
    ui::box(target, {area.x, area.y, 1, area.h}, ui::color::kMuted);  // the rating axis
    const bool same_day = scale.last_ms - scale.first_ms < 24LL * 3600 * 1000;
    ui::text(target, font, time_label(scale.first_ms, same_day), {area.x, area.y + area.h + 6}, 13, ui::color::kMuted);
    if (scale.last_ms > scale.first_ms)
        ui::text(target, font, time_label(scale.last_ms, same_day), {area.x + area.w, area.y + area.h + 6}, 13,
                 ui::color::kMuted, ui::Align::Right);
    // One line per speed, a dot on every game; the legend names the speeds drawn.
    float legend_x = area.x;
    for (const auto& s : speeds) {
        if (s.history.empty()) continue;
        const sf::Color c = speed_color(s.speed);
        sf::Vector2f last{};
        for (std::size_t i = 0; i < s.history.size(); ++i) {
            const auto p = at(s.history[i].at_ms, s.history[i].rating);
            if (i > 0) segment(target, last, p, 2.5f, c);
            sf::CircleShape dot(3.5f, 12);
            dot.setOrigin(3.5f, 3.5f);
            dot.setPosition(p);
            dot.setFillColor(c);
            target.draw(dot);
            last = p;
        }
        ui::box(target, {legend_x, r.y + 12, 18, 4}, c);
        legend_x += 24 + ui::text(target, font, speed_name(s.speed), {legend_x + 22, r.y + 4}, 13, ui::color::kText) + 16;
    }
}

}  // namespace xq::client
