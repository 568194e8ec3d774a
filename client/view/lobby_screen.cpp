#include "lobby_screen.h"

#include <algorithm>
#include <cstdlib>

#include "client/online/online_client.h"
#include "client/view/copy_watch_link.h"
#include "client/view/records.h"

namespace xq::client {

void LobbyScreen::handle(const sf::Event& event) {
    time_picker_.handle(event);
    game_field_.handle(event);
    if (player_field_.handle(event)) ctx_.online.list_archive(player_field_.value());
    if (code_field_.handle(event)) {
        const auto id = std::strtoull(game_field_.value().c_str(), nullptr, 10);
        if (id != 0) ctx_.online.join(id, code_field_.value());
    }
}

// One game in a list: who plays on the left, what kind of game before the button at the right
// end. A narrow list puts the details under the names, so that the names keep their room.
int LobbyScreen::game_row(sf::RenderTarget& target, ui::Input& in, const Rect& row, const std::string& who,
                          sf::Color who_color, const std::string& details, const std::string& action, bool accent,
                          const std::string& second) {
    const sf::Font& font = ctx_.resources.font();
    ui::box(target, row, row.contains(in.mouse) ? sf::Color(62, 58, 52) : sf::Color(44, 41, 38), ui::color::kPanelLine, 1);
    const bool narrow = row.w < 480;
    const float button_w = narrow ? std::clamp(row.w * 0.22f, 64.0f, 112.0f) : 112.0f;
    const Rect button{row.x + row.w - button_w - 8, row.y + 4, button_w, row.h - 8};
    // The second button (a live game's "Copy link") stands left of the first.
    const float second_w = second.empty() ? 0 : button_w;
    const Rect second_button{button.x - second_w - 6, button.y, second_w, button.h};
    const float room = (second.empty() ? button.x : second_button.x) - row.x - 18;
    if (narrow) {
        ui::text(target, font, ui::elide(font, who, 15, room), {row.x + 10, row.y + 4}, 15, who_color);
        ui::text(target, font, ui::elide(font, details, 12, room), {row.x + 10, row.y + 25}, 12, ui::color::kMuted);
    } else {
        const float details_w = ui::text(target, font, ui::elide(font, details, 14, room * 0.45f),
                                         {button.x - second_w - 18, row.y + 10}, 14, ui::color::kMuted,
                                         ui::Align::Right);
        ui::text(target, font, ui::elide(font, who, 16, room - details_w - 16), {row.x + 10, row.y + 8}, 16, who_color);
    }
    if (!second.empty() && ui::button(target, font, in, second_button, second)) return 2;
    return ui::button(target, font, in, button, action, true, accent) ? 1 : 0;
}

void LobbyScreen::draw_lists(sf::RenderTarget& target, ui::Input& in, const LobbyLayout& l) {
    const Rect r = l.lists;
    const auto tabs = l.tabs();
    const sf::Font& font = ctx_.resources.font();
    if (ui::button(target, font, in, tabs[0], "Games", true, tab_ == 0)) tab_ = 0;
    if (ui::button(target, font, in, tabs[1], "Archive", true, tab_ == 1)) {
        tab_ = 1;
        ctx_.online.list_archive();
    }
    if (ui::button(target, font, in, tabs[2], "Refresh")) {
        ctx_.online.refresh();
        if (tab_ == 1) ctx_.online.list_archive();
    }
    // The lists scroll under the tabs: in a small window every game stays in reach.
    const Rect records_row{r.x, r.y + r.h - 36, r.w, 36};
    const float records_h = tab_ == 1 ? records_row.h + 8 : 0;
    float y = lists_scroll_.begin(target, in, {r.x, r.y + 44, r.w, r.h - 44 - records_h});
    const float row_h = r.w < 480 ? 46 : 40;
    const auto row_at = [&](float at) { return Rect{r.x, at, r.w, row_h - 4}; };
    const auto heading = [&](const std::string& words) {
        ui::text(target, font, ui::elide(font, words, 17, r.w), {r.x, y}, 17, ui::color::kAccent);
        y += 28;
    };
    if (tab_ == 0) {
        heading("Open games — waiting for an opponent");
        if (ctx_.lobby.open.empty()) {
            ui::text(target, font, ui::elide(font, "None yet: create one on the right.", 15, r.w - 10), {r.x + 10, y}, 15,
                     ui::color::kMuted);
            y += row_h;
        }
        for (const auto& g : ctx_.lobby.open) {
            const std::string plays = g.host_color == "random" ? "random colour" : "plays " + g.host_color;
            // The server's computer opponents host as "bot level N"; the server gives no person that
            // name (a person who asks for it is called "bot level N (person)").
            const bool computer = g.host.size() == 11 && g.host.starts_with("bot level ") && g.host[10] >= '1' &&
                                  g.host[10] <= '8';
            const std::string who = computer ? "Computer, level " + g.host.substr(10) : g.host;
            const std::string rating = g.host_rating.empty() ? "" : " " + g.host_rating;
            const std::string details = std::string(g.rated ? "Rated " : "Casual ") + g.speed + " " + to_string(g.time_control) +
                                        (g.spectator_delay ? "  delay " + std::to_string(g.spectator_delay) : "");
            if (game_row(target, in, row_at(y), who + rating + " (" + plays + ")",
                         computer ? sf::Color(150, 200, 240) : ui::color::kText, details, "Join", true))
                ctx_.online.join(g.id);
            y += row_h;
        }
        y += 12;
        heading("Live games — watch");
        if (ctx_.lobby.live.empty()) {
            ui::text(target, font, "No game is being played.", {r.x + 10, y}, 15, ui::color::kMuted);
            y += row_h;
        }
        for (const auto& g : ctx_.lobby.live) {
            const std::string info = std::string(g.rated ? "Rated " : "Casual ") + to_string(g.time_control) + "   move " +
                                     std::to_string((g.plies + 1) / 2) + "   " + std::to_string(g.spectators) + " watching";
            const auto named = [](const std::string& name, const std::string& rating) {
                return rating.empty() ? name : name + " " + rating;
            };
            // A public game's watch page (issue 23): its link to the clipboard, to pass on.
            const auto link = g.is_private ? std::nullopt : ctx_.online.watch_link(g.id);
            const int clicked = game_row(target, in, row_at(y), named(g.red, g.red_rating) + "  vs  " + named(g.black, g.black_rating),
                                         ui::color::kText, info, "Watch", false, link ? "Copy link" : "");
            if (clicked == 1) ctx_.online.watch(g.id);
            if (clicked == 2 && link) copy_watch_link(ctx_.online, *link);
            y += row_h;
        }
    } else {
        const std::string& who = ctx_.lobby.archive_player;
        const std::string title = (who.empty() ? "Finished games (" : who + "'s games (") +
                                  std::to_string(ctx_.lobby.archive_total) +
                                  (ctx_.lobby.archive_total_capped ? "+)" : ")");
        // The player filter beside the heading, or under it in a narrow list.
        const bool narrow = r.w < 480;
        const float filter_w = std::min(300.0f, r.w);
        const Rect filter{r.x + r.w - filter_w, narrow ? y + 26 : y - 4, filter_w, 30};
        ui::text(target, font, ui::elide(font, title, 17, narrow ? r.w : r.w - filter_w - 10), {r.x, y}, 17,
                 ui::color::kAccent);
        player_field_.draw(target, font, in, {filter.x, filter.y, filter.w - 110, 30}, "player's name");
        if (ui::button(target, font, in, {filter.x + filter.w - 104, filter.y, 104, 30}, "Filter"))
            ctx_.online.list_archive(player_field_.value());
        y += narrow ? 64 : 34;
        for (const auto& g : ctx_.lobby.archive) {
            if (game_row(target, in, row_at(y), g.red + "  vs  " + g.black, ui::color::kText,
                         archive_date(g) + "   " + g.result + "  " + g.reason, "Replay", false))
                ctx_.online.open_archived(g.id);
            y += row_h;
        }
        if (!ctx_.lobby.archive_next.empty()) {
            if (ui::button(target, font, in, {r.x, y + 4, 160, 30}, "Older games")) ctx_.online.more_archive();
            y += 40;
        }
    }
    lists_scroll_.end(target, in, y);
    // Records from files, under the archive's list and outside its scrolling.
    if (tab_ == 1) draw_records_buttons(target, ctx_, in, records_row);
}

// The forms from `top` down (scrolled by the caller); returns where they end.
float LobbyScreen::draw_forms(sf::RenderTarget& target, ui::Input& in, Rect r, float top) {
    const sf::Font& font = ctx_.resources.font();
    const auto chosen = time_control_.choice();  // an error only while the custom fields are invalid
    const LobbyForms f = lobby_forms(r, top, time_control_, ctx_.lobby.seeking);
    ui::box(target, f.new_game, ui::color::kPanel, ui::color::kPanelLine, 1);
    ui::text(target, font, "New game", {r.x + 14, f.new_game.y + 10}, 19, ui::color::kText);
    time_picker_.draw(target, font, in, f.picker);
    if (f.label_w > 0) ui::text(target, font, "Colour", {r.x + 14, f.colour_row.y + 7}, 15, ui::color::kMuted);
    const std::pair<ColorPick, const char*> picks[] = {{ColorPick::Random, "Random"}, {ColorPick::Red, "Red"},
                                                       {ColorPick::Black, "Black"}};
    const auto colour_cells = row_cells<3>(f.colour_row, 6);
    for (std::size_t i = 0; i < 3; ++i)
        if (ui::button(target, font, in, colour_cells[i], picks[i].second, true, color_ == picks[i].first))
            color_ = picks[i].first;
    if (ui::button(target, font, in, f.privacy, private_ ? "Private (join code)" : "Public", true, private_))
        private_ = !private_;
    // Rated or casual (rated needs an account: said on the button itself), and the spectator delay.
    if (f.label_w > 0) ui::text(target, font, "Play", {r.x + 14, f.rated_row.y + 7}, 15, ui::color::kMuted);
    const bool account = !ctx_.online.account().empty();
    if (!account) rated_ = false;
    const auto rated_cells = row_cells<3>(f.rated_row, 6);
    if (ui::button(target, font, in, rated_cells[0], "Casual", true, !rated_)) rated_ = false;
    if (ui::button(target, font, in, rated_cells[1], account ? "Rated" : "Rated: log in", account, rated_)) rated_ = true;
    static constexpr std::uint32_t kDelays[] = {0, 1, 3, 5, 10};
    if (ui::button(target, font, in, rated_cells[2], delay_ == 0 ? "No delay" : "Delay " + std::to_string(delay_),
                   true, delay_ != 0)) {
        const auto* it = std::ranges::find(kDelays, delay_);
        delay_ = (it == std::end(kDelays) || it + 1 == std::end(kDelays)) ? kDelays[0] : *(it + 1);
    }
    const std::string kind = rated_ ? ", rated" : "";
    if (ui::button(target, font, in, f.create, "Create game (" + time_control_.label() + kind + ")", chosen.has_value(), true))
        ctx_.online.create(**chosen, color_, private_, 0, rated_, delay_);

    // Quick match takes the picker's time control: one button, until it is seeking.
    const Rect q = f.quick_match;
    ui::box(target, q, ui::color::kPanel, ui::color::kPanelLine, 1);
    if (ctx_.lobby.seeking) {
        ui::text(target, font, "Quick match", {q.x + 14, q.y + 10}, 19, ui::color::kText);
        ui::text(target, font,
                 ui::elide(font, "Looking for an opponent (" + to_string(*ctx_.lobby.seeking_time_control) + ")…", 15,
                           q.w - 28),
                 {q.x + 14, q.y + 40}, 15, ui::color::kAccent);
        if (ui::button(target, font, in, {q.x + 14, q.y + 64, q.w - 28, 32}, "Cancel")) ctx_.online.cancel_seek();
    } else if (ui::button(target, font, in, f.quick_button,
                          "Quick match (" + time_control_.label() + (rated_ ? ", rated" : "") + ")", chosen.has_value())) {
        ctx_.online.quick_match(**chosen, rated_);
    }

    ui::box(target, f.private_join, ui::color::kPanel, ui::color::kPanelLine, 1);
    ui::text(target, font, "Join a private game", {r.x + 14, f.private_join.y + 10}, 17, ui::color::kText);
    game_field_.draw(target, font, in, f.game_field, "game #");
    code_field_.draw(target, font, in, f.code_field, "join code");
    if (ui::button(target, font, in, f.join_button, "Join")) {
        const auto id = std::strtoull(game_field_.value().c_str(), nullptr, 10);
        if (id != 0) ctx_.online.join(id, code_field_.value());
    }
    return f.bottom;
}

// Playing on this machine and leaving: in a bar that every window size keeps in view.
void LobbyScreen::draw_bar(sf::RenderTarget& target, ui::Input& in, const LobbyLayout& l) {
    const sf::Font& font = ctx_.resources.font();
    const auto cells = l.bar_buttons();
    if (ui::button(target, font, in, cells[0], "Play on this screen")) ctx_.start_hotseat();
    if (ui::button(target, font, in, cells[1], "Computer level " + std::to_string(ctx_.computer_level)))
        ctx_.computer_level = ctx_.computer_level % 8 + 1;
    // The server's computer at that level, at the time control chosen in the New game form, when
    // the server keeps one free (it hosts an open game while idle); else the engine on this machine.
    const auto chosen = time_control_.choice();
    const std::string bot = "bot level " + std::to_string(ctx_.computer_level);
    const bool server_bot = std::ranges::any_of(ctx_.lobby.open, [&](const LobbyGame& g) { return g.host == bot; });
    if (ui::button(target, font, in, cells[2], server_bot ? "Play it (" + time_control_.label() + ")" : "Play it offline",
                   !server_bot || chosen.has_value())) {
        if (server_bot)
            ctx_.online.create(**chosen, color_, false, ctx_.computer_level);
        else
            ctx_.start_computer(color_ == ColorPick::Black ? Color::Black : Color::Red, ctx_.computer_level);
    }
    if (ui::button(target, font, in, cells[3], "Disconnect")) ctx_.back();
}

void LobbyScreen::tick(TimePoint now) {
    // The lists go stale as games start and end elsewhere: ask again every few seconds.
    if (now - last_refresh_ > std::chrono::seconds(3)) {
        last_refresh_ = now;
        ctx_.online.refresh();
    }
}

void LobbyScreen::draw(sf::RenderTarget& target, ui::Input& in, TimePoint) {
    const sf::Font& font = ctx_.resources.font();
    const auto size = target.getView().getSize();
    const LobbyLayout l = lobby_layout(size.x, size.y);
    ui::box(target, {0, 0, size.x, size.y}, ui::color::kBackground);
    const Rect& h = l.header;
    const unsigned title = h.h < 60 ? 28 : 34;
    const float title_w = ui::text(target, font, "象棋", {h.x, (h.h - static_cast<float>(title) * 1.3f) / 2}, title,
                                   ui::color::kAccent);
    // A seat still held in a live game on this server (left from its screen, or kept by another
    // client of this user): offered at the header's right end.
    const bool held = ctx_.online.held_seat().has_value();
    const float return_w = std::min(240.0f, h.w * 0.4f);
    if (held && ui::button(target, font, in, {h.x + h.w - return_w, (h.h - 36) / 2, return_w, 36}, "Return to your game",
                           true, true))
        ctx_.online.return_to_game();
    // Who this session is: the account logged in, or a guest under its marked name (or, on a
    // server without accounts, the name as typed); a logged-in player may log out here.
    const std::string account = ctx_.online.account_line();
    const bool logged_in = account.starts_with("Logged in");
    const float logout_w = logged_in ? 110 : 0;
    if (logged_in && ui::button(target, font, in,
                                {h.x + h.w - (held ? return_w + 12 : 0) - logout_w, (h.h - 36) / 2, logout_w, 36},
                                "Log out"))
        ctx_.online.log_out();
    // The rating pages: the leaderboard for anyone, one's own profile for an account.
    float pages_right = h.x + h.w - (held ? return_w + 12 : 0) - (logged_in ? logout_w + 12 : 0);
    const float page_w = 120;
    if (logged_in) {
        pages_right -= page_w;
        if (ui::button(target, font, in, {pages_right, (h.h - 36) / 2, page_w, 36}, "My profile"))
            ctx_.online.open_profile(ctx_.online.account());
        pages_right -= 12;
    }
    pages_right -= page_w;
    if (ui::button(target, font, in, {pages_right, (h.h - 36) / 2, page_w, 36}, "Leaderboard"))
        ctx_.online.open_leaderboard(SpeedPool::Blitz);
    const float name_w = pages_right - 12 - (h.x + title_w + 20);
    const std::string who = account.empty() ? ctx_.online.player_name() : account;
    ui::text(target, font, ui::elide(font, ctx_.online.server_name() + " — " + who, 20, name_w),
             {h.x + title_w + 20, (h.h - 26) / 2}, 20, ui::color::kText);
    // The fields lose the focus to a click anywhere else, which the forms' scroll area hides from them.
    if (in.pressed && !l.forms.contains(in.press_at)) {
        game_field_.focus(false);
        code_field_.focus(false);
    }
    const float forms_top = forms_scroll_.begin(target, in, l.forms);
    forms_scroll_.end(target, in, draw_forms(target, in, l.forms, forms_top));
    draw_lists(target, in, l);
    draw_bar(target, in, l);
    ui::text(target, font, ui::elide(font, ctx_.status, 13, l.status.w), {l.status.x, l.status.y + 4}, 13,
             ui::color::kMuted);
}

}  // namespace xq::client
