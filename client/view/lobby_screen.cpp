#include "lobby_screen.h"

#include <algorithm>
#include <cstdlib>

#include "client/online/online_client.h"
#include "client/view/records.h"

namespace xq::client {

void LobbyScreen::handle(const sf::Event& event) {
    game_field_.handle(event);
    if (player_field_.handle(event)) ctx_.online.list_archive(player_field_.value());
    if (code_field_.handle(event)) {
        const auto id = std::strtoull(game_field_.value().c_str(), nullptr, 10);
        if (id != 0) ctx_.online.join(id, code_field_.value());
    }
}

void LobbyScreen::draw_lists(sf::RenderTarget& target, ui::Input& in, Rect r) {
    const sf::Font& font = ctx_.resources.font();
    if (ui::button(target, font, in, {r.x, r.y, 150, 32}, "Games", true, tab_ == 0)) tab_ = 0;
    if (ui::button(target, font, in, {r.x + 156, r.y, 150, 32}, "Archive", true, tab_ == 1)) {
        tab_ = 1;
        ctx_.online.list_archive();
    }
    if (ui::button(target, font, in, {r.x + r.w - 110, r.y, 110, 32}, "Refresh")) {
        ctx_.online.refresh();
        if (tab_ == 1) ctx_.online.list_archive();
    }
    float y = r.y + 46;
    const float row_h = 40;
    const auto row_box = [&](float at) {
        const Rect row{r.x, at, r.w, row_h - 4};
        ui::box(target, row, row.contains(in.mouse) ? sf::Color(62, 58, 52) : sf::Color(44, 41, 38), ui::color::kPanelLine, 1);
        return row;
    };
    if (tab_ == 0) {
        ui::text(target, font, "Open games — waiting for an opponent", {r.x, y}, 17, ui::color::kAccent);
        y += 28;
        if (ctx_.lobby.open.empty()) {
            ui::text(target, font, "None yet: create one on the right.", {r.x + 10, y}, 15, ui::color::kMuted);
            y += row_h;
        }
        for (const auto& g : ctx_.lobby.open) {
            if (y > r.y + r.h * 0.5f) break;
            const Rect row = row_box(y);
            const std::string plays = g.host_color == "random" ? "random colour" : "plays " + g.host_color;
            // The server's computer opponents host as "bot level N".
            const bool computer = g.host.starts_with("bot level ");
            const std::string who = computer ? "Computer, level " + g.host.substr(10) : g.host;
            ui::text(target, font, ui::elide(font, who + " (" + plays + ")", 16, row.w - 260), {row.x + 10, row.y + 8}, 16,
                     computer ? sf::Color(150, 200, 240) : ui::color::kText);
            ui::text(target, font, to_string(g.time_control), {row.x + row.w - 140, row.y + 9}, 15, ui::color::kMuted,
                     ui::Align::Right);
            if (ui::button(target, font, in, {row.x + row.w - 120, row.y + 4, 112, row.h - 8}, "Join", true, true))
                ctx_.online.join(g.id);
            y += row_h;
        }
        y += 12;
        ui::text(target, font, "Live games — watch", {r.x, y}, 17, ui::color::kAccent);
        y += 28;
        if (ctx_.lobby.live.empty()) ui::text(target, font, "No game is being played.", {r.x + 10, y}, 15, ui::color::kMuted);
        for (const auto& g : ctx_.lobby.live) {
            if (y > r.y + r.h - row_h) break;
            const Rect row = row_box(y);
            ui::text(target, font, ui::elide(font, g.red + "  vs  " + g.black, 16, row.w - 330), {row.x + 10, row.y + 8}, 16,
                     ui::color::kText);
            const std::string info = to_string(g.time_control) + "   move " + std::to_string((g.plies + 1) / 2) + "   " +
                                     std::to_string(g.spectators) + " watching";
            ui::text(target, font, info, {row.x + row.w - 140, row.y + 9}, 14, ui::color::kMuted, ui::Align::Right);
            if (ui::button(target, font, in, {row.x + row.w - 120, row.y + 4, 112, row.h - 8}, "Watch"))
                ctx_.online.watch(g.id);
            y += row_h;
        }
        return;
    }
    const std::string& who = ctx_.lobby.archive_player;
    ui::text(target, font, (who.empty() ? "Finished games (" : who + "'s games (") + std::to_string(ctx_.lobby.archive_total) + ")",
             {r.x, y}, 17, ui::color::kAccent);
    player_field_.draw(target, font, in, {r.x + r.w - 300, y - 4, 190, 30}, "player's name");
    if (ui::button(target, font, in, {r.x + r.w - 104, y - 4, 104, 30}, "Filter"))
        ctx_.online.list_archive(player_field_.value());
    y += 34;
    // Records from files beside the server's: under the archive's list.
    const float bottom = r.y + r.h - draw_records_buttons(target, ctx_, in, {r.x, r.y + r.h - 36, r.w, 36}) - 8;
    for (const auto& g : ctx_.lobby.archive) {
        if (y > bottom - row_h) break;
        const Rect row = row_box(y);
        ui::text(target, font, ui::elide(font, g.red + "  vs  " + g.black, 16, row.w - 430), {row.x + 10, row.y + 8}, 16,
                 ui::color::kText);
        ui::text(target, font, archive_date(g) + "   " + g.result + "  " + g.reason, {row.x + row.w - 140, row.y + 9}, 14,
                 ui::color::kMuted, ui::Align::Right);
        if (ui::button(target, font, in, {row.x + row.w - 120, row.y + 4, 112, row.h - 8}, "Replay"))
            ctx_.online.open_archived(g.id);
        y += row_h;
    }
}

void LobbyScreen::draw_forms(sf::RenderTarget& target, ui::Input& in, Rect r) {
    const sf::Font& font = ctx_.resources.font();
    const auto& controls = standard_time_controls();
    float y = r.y;
    ui::box(target, {r.x, y, r.w, 250}, ui::color::kPanel, ui::color::kPanelLine, 1);
    ui::text(target, font, "New game", {r.x + 14, y + 10}, 19, ui::color::kText);
    y += 46;
    ui::text(target, font, "Time", {r.x + 14, y + 7}, 15, ui::color::kMuted);
    if (ui::button(target, font, in, {r.x + 90, y, r.w - 104, 32}, to_string(controls[time_control_])))
        time_control_ = (time_control_ + 1) % controls.size();
    y += 40;
    ui::text(target, font, "Colour", {r.x + 14, y + 7}, 15, ui::color::kMuted);
    const float cw = (r.w - 104 - 12) / 3;
    const std::pair<ColorPick, const char*> picks[] = {{ColorPick::Random, "Random"}, {ColorPick::Red, "Red"},
                                                       {ColorPick::Black, "Black"}};
    for (int i = 0; i < 3; ++i)
        if (ui::button(target, font, in, {r.x + 90 + static_cast<float>(i) * (cw + 6), y, cw, 32}, picks[i].second, true,
                       color_ == picks[i].first))
            color_ = picks[i].first;
    y += 40;
    if (ui::button(target, font, in, {r.x + 90, y, r.w - 104, 32}, private_ ? "Private (join code)" : "Public",
                   true, private_))
        private_ = !private_;
    y += 44;
    if (ui::button(target, font, in, {r.x + 14, y, r.w - 28, 38}, "Create game", true, true))
        ctx_.online.create(controls[time_control_], color_, private_);
    y = r.y + 262;

    ui::box(target, {r.x, y, r.w, 106}, ui::color::kPanel, ui::color::kPanelLine, 1);
    ui::text(target, font, "Quick match", {r.x + 14, y + 10}, 19, ui::color::kText);
    if (ctx_.lobby.seeking) {
        ui::text(target, font, "Looking for an opponent (" + to_string(*ctx_.lobby.seeking_time_control) + ")…",
                 {r.x + 14, y + 40}, 15, ui::color::kAccent);
        if (ui::button(target, font, in, {r.x + 14, y + 64, r.w - 28, 32}, "Cancel")) ctx_.online.cancel_seek();
    } else if (ui::button(target, font, in, {r.x + 14, y + 52, r.w - 28, 38},
                          "Find an opponent (" + to_string(controls[time_control_]) + ")")) {
        ctx_.online.quick_match(controls[time_control_]);
    }
    y += 118;

    ui::box(target, {r.x, y, r.w, 100}, ui::color::kPanel, ui::color::kPanelLine, 1);
    ui::text(target, font, "Join a private game", {r.x + 14, y + 10}, 17, ui::color::kText);
    game_field_.draw(target, font, in, {r.x + 14, y + 44, 90, 32}, "game #");
    code_field_.draw(target, font, in, {r.x + 112, y + 44, r.w - 222, 32}, "join code");
    if (ui::button(target, font, in, {r.x + r.w - 102, y + 44, 88, 32}, "Join")) {
        const auto id = std::strtoull(game_field_.value().c_str(), nullptr, 10);
        if (id != 0) ctx_.online.join(id, code_field_.value());
    }
    y += 112;
    if (ui::button(target, font, in, {r.x, y, r.w, 36}, "Play on this screen (hotseat)")) ctx_.start_hotseat();
    y += 44;
    const float half = (r.w - 8) / 2;
    if (ui::button(target, font, in, {r.x, y, half, 36}, "Computer level " + std::to_string(ctx_.computer_level)))
        ctx_.computer_level = ctx_.computer_level % 8 + 1;
    if (ui::button(target, font, in, {r.x + half + 8, y, half, 36}, "Play the computer")) {
        // A computer opponent the server keeps at that level, if any; else the engine on this machine.
        const std::string bot = "bot level " + std::to_string(ctx_.computer_level);
        const auto it = std::find_if(ctx_.lobby.open.begin(), ctx_.lobby.open.end(),
                                     [&](const LobbyGame& g) { return g.host == bot; });
        if (it != ctx_.lobby.open.end())
            ctx_.online.join(it->id);
        else
            ctx_.start_computer(color_ == ColorPick::Black ? Color::Black : Color::Red, ctx_.computer_level);
    }
    y += 44;
    if (ui::button(target, font, in, {r.x, y, r.w, 36}, "Disconnect")) ctx_.back();
}

void LobbyScreen::draw(sf::RenderTarget& target, ui::Input& in, TimePoint now) {
    // The lists go stale as games start and end elsewhere: ask again every few seconds.
    if (now - last_refresh_ > std::chrono::seconds(3)) {
        last_refresh_ = now;
        ctx_.online.refresh();
    }
    const sf::Font& font = ctx_.resources.font();
    const auto size = target.getView().getSize();
    ui::box(target, {0, 0, size.x, size.y}, ui::color::kBackground);
    ui::text(target, font, "象棋", {24, 14}, 34, ui::color::kAccent);
    ui::text(target, font, ctx_.online.server_name() + " — " + ctx_.online.player_name(), {110, 24}, 20, ui::color::kText);
    const float form_w = std::min(380.0f, size.x * 0.36f);
    draw_forms(target, in, {size.x - form_w - 24, 74, form_w, size.y - 110});
    draw_lists(target, in, {24, 74, size.x - form_w - 72, size.y - 110});
    ui::text(target, font, ctx_.status, {24, size.y - 26}, 13, ui::color::kMuted);
}

}  // namespace xq::client
