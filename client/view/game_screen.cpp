#include "game_screen.h"

#include <algorithm>
#include <cmath>

#include "client/computer/analysis.h"
#include "client/online/online_client.h"
#include "client/view/copy_watch_link.h"

namespace xq::client {

namespace {

std::string side_name(Color c) { return c == Color::Red ? "Red" : "Black"; }

}  // namespace

GameScreen::GameScreen(ScreenContext& context) : ctx_(context), board_(context.resources.font()) {}

void GameScreen::handle(const sf::Event& event) {
    if (event.type == sf::Event::TextEntered || event.type == sf::Event::KeyPressed) typed_ = true;
    if (event.type == sf::Event::MouseButtonPressed && event.mouseButton.button == sf::Mouse::Right) {
        ctx_.game.cancel_premove();  // a right-click drops a queued premove (and any selection)
        ctx_.game.deselect();
        return;
    }
    if (chat_field_.handle(event)) {
        if (ctx_.actions && !chat_field_.value().empty()) ctx_.actions->chat(chat_field_.value());
        chat_field_.set("");
        return;
    }
    if (chat_field_.focused() || event.type != sf::Event::KeyPressed) return;
    GameModel& game = ctx_.game;
    switch (event.key.code) {
        case sf::Keyboard::Left: game.step(-1); break;
        case sf::Keyboard::Right: game.step(1); break;
        case sf::Keyboard::Up:
        case sf::Keyboard::Home: game.go_to(0); break;
        case sf::Keyboard::Down:
        case sf::Keyboard::End: game.go_live(); break;
        case sf::Keyboard::F: ctx_.flipped = !ctx_.flipped; break;
        case sf::Keyboard::Escape: game.deselect(); break;
        default: break;
    }
}

void GameScreen::board_input(const BoardGeometry& g, ui::Input& in) {
    GameModel& game = ctx_.game;
    if (in.pressed && g.outer().contains(in.press_at)) {
        in.pressed = false;
        const auto s = g.square_at(in.press_at);
        if (s) {
            const Piece p = game.shown_position().at(*s);
            // One's own piece is picked up to move it now, or to queue a premove while the opponent thinks.
            const bool own = p != Piece::None && ((game.can_move() && color_of(p) == game.shown_position().side_to_move()) ||
                                                  (game.can_premove() && color_of(p) == game.my_side()));
            if (own) {
                game.begin_drag(*s);
            } else if (const auto m = game.click(*s); m && ctx_.actions) {
                ctx_.actions->move(*m);
            }
        } else {
            game.deselect();
        }
    }
    if (in.released && game.dragging()) {
        if (const auto m = game.drop(g.square_at(in.release_at)); m && ctx_.actions) ctx_.actions->move(*m);
    }
}

std::string GameScreen::status_line() const {
    const GameModel& game = ctx_.game;
    if (!game.notice().empty()) return game.notice();
    if (game.result()) return game.result()->explanation;
    if (game.phase() == Phase::Waiting) {
        const auto& code = ctx_.online.join_code();
        // A private game is joined with its number and its code: the host reads both out.
        const auto id = ctx_.online.game_id();
        return "Waiting for an opponent…" +
               (code.empty() || !id ? std::string() : "  Game " + std::to_string(*id) + ", join code " + code);
    }
    if (!game.following_live())
        return "Move " + std::to_string(game.view_ply()) + " of " + std::to_string(game.ply_count()) +
               " — → or End returns to the game";
    if (game.premove()) return "Premove queued (right-click cancels)";
    if (game.pending()) return "Sending your move…";
    const Color to_move = game.position_at(game.ply_count()).side_to_move();
    std::string line = side_name(to_move) + " to move";
    if (game.my_side() == to_move) line = "Your move";
    if (game.general_in_check()) line += " — check!";
    return line;
}

float GameScreen::draw_player(sf::RenderTarget& target, ui::Input& in, Color side, Rect r, TimePoint now) {
    const GameModel& game = ctx_.game;
    const sf::Font& font = ctx_.resources.font();
    const bool running = game.clock().running() == side && !game.result();
    // Before the clocks start, the side to move has a first-move allowance instead.
    const auto first_move_left = game.clock().first_move_left(now);
    const bool awaiting_first = first_move_left && !game.result() && game.game().position().side_to_move() == side;
    const Millis first_move = first_move_left.value_or(0);
    ui::box(target, r, ui::color::kPanel, running ? ui::color::kAccent : ui::color::kPanelLine, running ? 2.0f : 1.0f);
    // Everything scales with the box: 76 pixels tall normally, less in a small window.
    const float k = std::clamp(r.h / 76.0f, 0.6f, 1.0f);
    const auto px = [k](float v) { return static_cast<unsigned>(std::lround(v * k)); };
    // A small general as the side's badge.
    const Piece general = make_piece(side, PieceType::General);
    const float badge = 14 * k;
    sf::CircleShape disc(badge, 32);
    disc.setOrigin(badge, badge);
    disc.setPosition(r.x + 10 + badge, r.y + 12 * k + badge);
    disc.setFillColor(sf::Color(247, 234, 205));
    disc.setOutlineColor(side == Color::Red ? sf::Color(178, 28, 28) : sf::Color(28, 28, 28));
    disc.setOutlineThickness(2);
    target.draw(disc);
    ui::text(target, font, piece_glyph(general, game.notation()), {r.x + 10 + badge, r.y + 12 * k + badge - 11 * k}, px(16),
             side == Color::Red ? sf::Color(178, 28, 28) : sf::Color(28, 28, 28), ui::Align::Center);
    const SeatInfo& seat = game.seat(side);
    std::string name = seat.name.empty() ? (game.phase() == Phase::Waiting ? "waiting…" : side_name(side)) : seat.name;
    if (game.my_side() == side) name += "  (you)";
    const float clock_w = std::clamp(r.w * 0.34f, 84.0f, 130.0f);
    const float name_x = r.x + 20 + 2 * badge;
    const float rating_w = seat.rating ? 70 * k : 0;
    const float name_w = ui::text(target, font, ui::elide(font, name, px(19), r.x + r.w - clock_w - 14 - name_x - rating_w),
                                  {name_x, r.y + 12 * k}, px(19), ui::color::kText);
    // An account's name opens its profile, where that leaves no live game unattended.
    const bool live_player = game.my_side() && !game.result();
    if (seat.rating && !live_player && !ctx_.hotseat && !ctx_.computer &&
        in.take_click({name_x, r.y + 10 * k, name_w, 26 * k}))
        ctx_.online.open_profile(seat.name);
    // The rating at the game's speed (and its change once a rated game ended), the measured lag.
    std::string rating = rating_text(seat.rating);
    if (!game.rating_change(side).empty()) rating += " " + game.rating_change(side);
    const float name_room = r.x + r.w - clock_w - 14 - name_x;
    if (!rating.empty()) {
        const bool up = game.rating_change(side).starts_with("+");
        const bool down = game.rating_change(side).starts_with("-");
        ui::text(target, font, rating, {r.x + r.w - clock_w - 14, r.y + 15 * k}, px(15),
                 up ? ui::color::kGood : down ? ui::color::kDanger : ui::color::kAccent, ui::Align::Right);
    }
    std::string sub;
    if (seat.connected && seat.lag_ms > 0 && !game.result()) sub = "lag " + lag_text(seat.lag_ms);
    if (!seat.connected && game.result()) {
        sub = "left";  // the game is over: there is nothing to return to
    } else if (!seat.connected) {
        sub = "disconnected";
        if (const auto left = game.grace_left(side, now))
            sub += *left > 0 ? " — may return for " + format_clock(*left) : " — may be claimed";
    }
    if (!sub.empty())
        ui::text(target, font, ui::elide(font, sub, px(13), name_room), {name_x, r.y + 38 * k}, px(13),
                 seat.connected ? ui::color::kMuted : ui::color::kDanger);
    // What this side has taken: the other side's missing pieces, as small discs.
    const auto taken = game.captured(~side);
    float x = name_x;
    const float small_r = 9 * k, y = r.y + r.h - 22 * k;
    for (Piece p : taken) {
        sf::CircleShape small(small_r, 20);
        small.setOrigin(small_r, small_r);
        small.setPosition(x + small_r, y + 6 * k);
        small.setFillColor(sf::Color(247, 234, 205));
        target.draw(small);
        ui::text(target, font, piece_glyph(p, game.notation()), {x + small_r, y - 2 * k}, px(11),
                 color_of(p) == Color::Red ? sf::Color(178, 28, 28) : sf::Color(28, 28, 28), ui::Align::Center);
        x += 2 * small_r + 2;
        if (x > r.x + r.w - clock_w - 20) break;
    }
    // The clock.
    const Rect face{r.x + r.w - clock_w - 8, r.y + 8 * k, clock_w, r.h - 16 * k};
    const bool low = running && game.clock().low(side, now);
    ui::box(target, face, running ? sf::Color(28, 26, 24) : sf::Color(40, 38, 35));
    const std::string time = game.clock().known() ? format_clock(game.clock().remaining(side, now)) : "—";
    // A line under the time (the move cap, the first-move allowance) lifts the time above it.
    std::string under;
    sf::Color under_color = ui::color::kMuted;
    if (running) {
        if (const auto cap = game.clock().move_cap_left(now)) under = "move " + format_clock(*cap);
    } else if (awaiting_first) {
        // The clocks wait for both first moves; a first move that never comes aborts the game.
        under = "first move " + format_clock(first_move);
        under_color = first_move < 10'000 ? ui::color::kDanger : ui::color::kAccent;
    }
    const unsigned time_size = px(32);
    const float under_h = under.empty() ? 0.0f : 14.0f, time_h = static_cast<float>(time_size) * 1.2f;
    ui::text(target, font, time, {face.x + face.w / 2, face.y + (face.h - under_h - time_h) / 2}, time_size,
             low ? ui::color::kDanger : (running ? ui::color::kText : ui::color::kMuted), ui::Align::Center);
    if (!under.empty())
        ui::text(target, font, under, {face.x + face.w / 2, face.y + face.h - under_h - 2}, 11, under_color,
                 ui::Align::Center);
    return r.h;
}

void GameScreen::draw_moves(sf::RenderTarget& target, ui::Input& in, Rect r) {
    GameModel& game = ctx_.game;
    const sf::Font& font = ctx_.resources.font();
    ui::box(target, r, sf::Color(34, 32, 30), ui::color::kPanelLine, 1);
    const auto& texts = game.move_texts();
    const float row_h = 24;
    const int rows = (static_cast<int>(texts.size()) + 1) / 2;
    const int visible = std::max(1, static_cast<int>((r.h - 8) / row_h));
    if (r.contains(in.mouse) && in.wheel != 0) move_scroll_ += in.wheel;
    // Keep the shown move in view unless the player scrolled.
    const int shown_row = std::max(0, (game.view_ply() - 1) / 2);
    int first = std::max(0, rows - visible - move_scroll_);
    if (in.wheel == 0 && (shown_row < first || shown_row >= first + visible)) {
        first = std::clamp(shown_row - visible / 2, 0, std::max(0, rows - visible));
        move_scroll_ = rows - visible - first;
    }
    first = std::clamp(first, 0, std::max(0, rows - visible));
    const float col_w = (r.w - 50) / 2;
    for (int row = first; row < std::min(rows, first + visible); ++row) {
        const float y = r.y + 4 + static_cast<float>(row - first) * row_h;
        ui::text(target, font, std::to_string(row + 1) + ".", {r.x + 8, y + 2}, 15, ui::color::kMuted);
        for (int c = 0; c < 2; ++c) {
            const int ply = row * 2 + c + 1;  // moves are numbered from Red's; a Black-first start shifts nothing here
            if (ply > static_cast<int>(texts.size())) break;
            const Rect cell{r.x + 44 + static_cast<float>(c) * col_w, y, col_w - 6, row_h - 2};
            const bool current = ply == game.view_ply();
            if (current) ui::box(target, cell, sf::Color(214, 160, 60, 90), ui::color::kAccent, 1);
            ui::text(target, font, texts[static_cast<std::size_t>(ply - 1)], {cell.x + 6, y + 1}, 17,
                     current ? sf::Color::White : ui::color::kText);
            if (in.take_click(cell)) game.go_to(ply);
        }
    }
    if (texts.empty())
        ui::text(target, font, "No moves yet", {r.x + r.w / 2, r.y + r.h / 2 - 10}, 15, ui::color::kMuted, ui::Align::Center);
}

// The offers and claims, one row each in `r` (as many as offer_rows counts).
void GameScreen::draw_offers(sf::RenderTarget& target, ui::Input& in, Rect r, TimePoint now) {
    GameModel& game = ctx_.game;
    const int rows = offer_rows(now);
    if (rows == 0) return;
    const sf::Font& font = ctx_.resources.font();
    const auto me = game.my_side();
    const float step = r.h / static_cast<float>(rows), row_h = step - 6, button_h = row_h - 10;
    float used = 0;
    const auto row_at = [&] {
        const Rect row{r.x, r.y + used, r.w, row_h};
        used += step;
        return row;
    };
    // Two buttons at the row's right end, and the words left of them.
    const auto answer = [&](const Rect& row, const std::string& words, const char* yes, const char* no) {
        const float bw = std::clamp(row.w * 0.24f, 64.0f, 94.0f);
        ui::text(target, font, ui::elide(font, words, 14, row.w - 2 * bw - 26), {row.x + 8, row.y + (row_h - 18) / 2}, 14,
                 ui::color::kText);
        const bool first = ui::button(target, font, in, {row.x + row.w - 2 * bw - 10, row.y + 5, bw, button_h}, yes, true, true);
        const bool second = ui::button(target, font, in, {row.x + row.w - bw - 5, row.y + 5, bw, button_h}, no);
        return first ? 1 : second ? 2 : 0;
    };
    for (OfferType kind : {OfferType::Draw, OfferType::Takeback, OfferType::Rematch}) {
        const auto by = game.offer_by(kind);
        if (!by) continue;
        const Rect row = row_at();
        const bool theirs = me && *by != *me;
        ui::box(target, row, sf::Color(70, 58, 36), ui::color::kAccent, 1);
        const std::string what = side_name(*by) + (kind == OfferType::Draw       ? " offers a draw"
                                                   : kind == OfferType::Rematch ? " offers a rematch"
                                                                                : " asks to take back a move");
        if (theirs) {
            if (const int a = answer(row, what, "Accept", "Decline")) ctx_.actions->answer(kind, a == 1);
        } else {
            ui::text(target, font, ui::elide(font, what, 14, row.w - 80), {row.x + 8, row.y + (row_h - 18) / 2}, 14,
                     ui::color::kText);
            if (me)
                ui::text(target, font, "waiting…", {row.x + row.w - 10, row.y + (row_h - 18) / 2}, 14, ui::color::kMuted,
                         ui::Align::Right);
        }
    }
    // The opponent left and its grace period ran out: the player may take the game.
    if (used < r.h - 1 && !game.result()) {
        const Rect row = row_at();
        ui::box(target, row, sf::Color(70, 40, 36), ui::color::kDanger, 1);
        if (const int a = answer(row, "Your opponent has left", "Claim win", "Claim draw")) ctx_.actions->claim(a == 1);
    }
}

void GameScreen::draw_buttons(sf::RenderTarget& target, ui::Input& in, const PanelLayout& l, TimePoint now) {
    GameModel& game = ctx_.game;
    const sf::Font& font = ctx_.resources.font();
    const bool playing = game.phase() == Phase::Playing && !game.result() && ctx_.actions;
    const bool player = playing && (game.my_side() || ctx_.hotseat);
    const bool local = ctx_.hotseat || ctx_.computer;  // no server: no abort, and "leave" instead of "lobby"
    const auto cell = [&](int row, int col) { return l.button(row, col); };
    const bool narrow = l.button(0, 0).w < 80;  // short labels where long ones would be cut
    // Both sides moved: abort is no longer possible, resign is.
    const bool can_abort = player && game.ply_count() < 2 && !local;
    if (can_abort) {
        if (ui::button(target, font, in, cell(0, 0), "Abort")) ctx_.actions->abort_game();
    } else {
        // One click arms, a second within a few seconds resigns: a stray click never loses a game.
        const bool confirming = player && confirm_resign_until_ && now < *confirm_resign_until_;
        if (ui::button(target, font, in, cell(0, 0), confirming ? "Sure?" : "Resign", player, confirming)) {
            if (confirming) {
                confirm_resign_until_.reset();
                ctx_.actions->resign();
            } else {
                confirm_resign_until_ = now + std::chrono::seconds(4);
            }
        }
    }
    const bool my_offer_pending = game.my_side() && game.offer_by(OfferType::Draw) == game.my_side();
    if (ui::button(target, font, in, cell(0, 1), ctx_.hotseat || narrow ? "Draw" : "Offer draw", player && !my_offer_pending))
        ctx_.actions->offer(OfferType::Draw);
    const bool can_takeback = player && game.ply_count() > 0 && !game.pending();
    if (ui::button(target, font, in, cell(0, 2), "Takeback", can_takeback)) ctx_.actions->offer(OfferType::Takeback);
    if (ui::button(target, font, in, cell(0, 3), narrow ? "Flip" : "Flip  (F)")) ctx_.flipped = !ctx_.flipped;

    if (ui::button(target, font, in, cell(1, 0), "|<")) game.go_to(0);
    if (ui::button(target, font, in, cell(1, 1), "<")) game.step(-1);
    if (ui::button(target, font, in, cell(1, 2), ">")) game.step(1);
    if (ui::button(target, font, in, cell(1, 3), ">|")) game.go_live();

    // The board's pieces are drawn in the move list's glyphs, so either Chinese set reads alike on both.
    static const std::pair<Notation, const char*> kCycle[] = {
        {Notation::ChineseTraditional, "繁體"}, {Notation::Chinese, "简体"}, {Notation::Wxf, "WXF"}, {Notation::Iccs, "ICCS"}};
    const auto it = std::find_if(std::begin(kCycle), std::end(kCycle),
                                 [&](const auto& entry) { return entry.first == game.notation(); });
    const auto& shown = it == std::end(kCycle) ? kCycle[0] : *it;
    if (ui::button(target, font, in, cell(2, 0), shown.second)) {  // cycles 繁體 → 简体 → WXF → ICCS
        const auto next = (it == std::end(kCycle) || it + 1 == std::end(kCycle)) ? kCycle[0] : *(it + 1);
        game.set_notation(next.first);
    }
    if (ui::button(target, font, in, cell(2, 1), ctx_.resources.muted() ? (narrow ? "Muted" : "Sound: off")
                                                                   : (narrow ? "Sound" : "Sound: on")))
        ctx_.resources.set_muted(!ctx_.resources.muted());
    if (ui::button(target, font, in, cell(2, 2), "Save PGN", game.ply_count() > 0)) ctx_.save_pgn();
    const bool leaving_live = player && game.my_side() && game.phase() == Phase::Playing && !local;
    // A local game leaves for the screen it was started from (its result panel offers a new game).
    if (ui::button(target, font, in, cell(2, 3), local ? "Leave" : "Lobby", !leaving_live)) ctx_.back();
    // The engine's row: a hint and the evaluation, where analysis is allowed.
    const Rect hint = cell(3, 0);
    if (ui::button(target, font, in, hint, "Hint", ctx_.analysis != nullptr) && ctx_.analysis)
        ctx_.analysis->ask_hint(game);
    Rect bar{hint.x + hint.w + l.gap, hint.y + 4, l.buttons.w - hint.w - l.gap, hint.h - 8};
    // A public online game's watch page (issue 23): its link to the clipboard, at the row's end.
    if (const auto link = local ? std::nullopt : ctx_.online.shown_game_watch_link()) {
        const float w = narrow ? hint.w : std::min(150.0f, bar.w / 2);
        bar.w -= w + l.gap;
        if (ui::button(target, font, in, {bar.x + bar.w + l.gap, hint.y, w, hint.h}, narrow ? "Link" : "Copy watch link"))
            copy_watch_link(ctx_.online, *link);
    }
    if (!ctx_.analysis) {
        ui::text(target, font, local || game.role() == Role::Replay ? "" : "Evaluation after the game",
                 {bar.x + 4, hint.y + (hint.h - 16) / 2}, 13, ui::color::kMuted);
        return;
    }
    const AnalysisView& view = ctx_.analysis->poll();
    // Red's share of the bar: 50% at 0, saturating around +-10 soldiers.
    float red_share = 0.5f;
    std::string verdict = view.busy ? "thinking…" : view.error.empty() ? "" : view.error;
    if (view.evaluation) {
        const float cp = static_cast<float>(view.evaluation->centipawns);
        red_share = std::clamp(0.5f + cp / 2000.0f, 0.02f, 0.98f);
        verdict = view.evaluation->to_string() + (view.busy ? " …" : "");
    }
    ui::box(target, bar, sf::Color(28, 28, 28), ui::color::kPanelLine, 1);
    ui::box(target, {bar.x + 1, bar.y + 1, (bar.w - 2) * red_share, bar.h - 2}, sf::Color(178, 38, 34));
    // White outlined in black: legible over the red share, the dark rest and the edge between them.
    ui::text(target, font, verdict, {bar.x + bar.w / 2, bar.y + (bar.h - 19) / 2}, 14, sf::Color::White, ui::Align::Center, 2);
}

void GameScreen::draw_chat(sf::RenderTarget& target, ui::Input& in, const PanelLayout& l) {
    const Rect r = l.chat;
    const GameModel& game = ctx_.game;
    const sf::Font& font = ctx_.resources.font();
    const bool spectator = game.role() == Role::Spectator;
    ui::box(target, r, sf::Color(34, 32, 30), ui::color::kPanelLine, 1);
    ui::text(target, font, spectator ? "Spectators' chat" : "Chat", {r.x + 8, r.y + 4}, 13, ui::color::kMuted);
    // Mute stops this session's copy of the channel (the opponent's lines, or the other spectators').
    if (!ctx_.hotseat && !ctx_.computer && game.role() != Role::Replay) {
        const bool muted = ctx_.online.chat_muted();
        if (ui::button(target, font, in, {r.x + r.w - 74, r.y + 3, 68, 20}, muted ? "Unmute" : "Mute", true, muted))
            ctx_.online.mute_chat(!muted);
    }
    std::vector<std::pair<std::string, sf::Color>> lines;
    for (const auto& line : game.chat()) {
        const sf::Color c = line.side == Color::Red ? sf::Color(235, 120, 110) : line.side ? sf::Color(170, 190, 230)
                                                                                           : ui::color::kMuted;
        for (const auto& wrapped : ui::wrap(font, line.from + ": " + line.text, 14, r.w - 16)) lines.emplace_back(wrapped, c);
    }
    const float line_h = 18;
    const Rect input = l.chat_input();
    const int room = std::max(0, static_cast<int>((input.y - r.y - 22) / line_h));
    const std::size_t from = lines.size() > static_cast<std::size_t>(room) ? lines.size() - static_cast<std::size_t>(room) : 0;
    float y = r.y + 22;
    for (std::size_t i = from; i < lines.size(); ++i) {
        ui::text(target, font, lines[i].first, {r.x + 8, y}, 14, lines[i].second);
        y += line_h;
    }
    chat_field_.draw(target, font, in, input, "Say something… (Enter)");
}

void GameScreen::draw_panel(sf::RenderTarget& target, ui::Input& in, TimePoint now, Rect p) {
    GameModel& game = ctx_.game;
    const sf::Font& font = ctx_.resources.font();
    ui::box(target, p, ui::color::kPanel);
    const Color top = ctx_.flipped ? Color::Red : Color::Black;
    const bool chat = !ctx_.hotseat && !ctx_.computer;
    const PanelLayout l = panel_layout(p, chat, offer_rows(now));
    draw_player(target, in, top, l.top_player, now);
    draw_moves(target, in, l.moves);
    draw_player(target, in, ~top, l.bottom_player, now);
    const std::string status = status_line();
    const bool warn = !game.notice().empty() || (game.general_in_check() && game.following_live());
    const unsigned status_size = l.status.h < 26 ? 14 : 15;
    std::string watching;
    if (game.spectators() > 0) watching = std::to_string(game.spectators()) + " watching";
    if (!ctx_.hotseat && !ctx_.computer && game.role() != Role::Replay)
        watching = (game.rated() ? "Rated" : "Casual") + (watching.empty() ? "" : " · " + watching);
    const float watching_w =
        watching.empty() ? 0 : ui::text(target, font, watching, {l.status.x + l.status.w, l.status.y}, 13,
                                        ui::color::kMuted, ui::Align::Right) + 8;
    ui::text(target, font, ui::elide(font, status, status_size, l.status.w - watching_w), {l.status.x, l.status.y},
             status_size, warn ? ui::color::kDanger : ui::color::kAccent);
    draw_offers(target, in, l.offers, now);
    draw_buttons(target, in, l, now);
    if (chat) draw_chat(target, in, l);
    ui::text(target, font, ui::elide(font, ctx_.status, 12, l.footer.w), {l.footer.x, l.footer.y + 2}, 12,
             ui::color::kMuted);
}

// Rows of offers and claims draw_offers will show.
int GameScreen::offer_rows(TimePoint now) const {
    const GameModel& game = ctx_.game;
    if (!ctx_.actions) return 0;
    if (game.result()) return game.offer_by(OfferType::Rematch) ? 1 : 0;  // only a rematch is offered after the end
    int rows = (game.offer_by(OfferType::Draw) ? 1 : 0) + (game.offer_by(OfferType::Takeback) ? 1 : 0);
    if (const auto me = game.my_side(); me && game.phase() == Phase::Playing) {
        const auto left = game.grace_left(~*me, now);
        if (!game.seat(~*me).connected && left && *left <= 0) ++rows;
    }
    return rows;
}

std::optional<TimePoint> GameScreen::next_change(TimePoint now) const {
    std::optional<TimePoint> next;
    if (panel_stale_) next = panel_drawn_ + kPanelEvery;
    if (confirm_resign_until_ && *confirm_resign_until_ > now && (!next || *confirm_resign_until_ < *next))
        next = confirm_resign_until_;
    return next;
}

void GameScreen::draw(sf::RenderTarget& target, ui::Input& in, TimePoint now) {
    GameModel& game = ctx_.game;
    if (!game.result()) result_hidden_ = false;
    const auto size = target.getView().getSize();
    const GameLayout layout = game_layout(size.x, size.y);
    const BoardGeometry g(layout.board, ctx_.flipped);

    // The panel is painted into its own layer at most ten times a second (its clocks show tenths at
    // best) and at once on any input, and shown as one sprite in between: most frames then cost the
    // board alone. Its widgets take clicks before the board.
    const Rect p = layout.panel;
    const auto w = static_cast<unsigned>(std::ceil(p.w)), h = static_cast<unsigned>(std::ceil(p.h));
    const bool input = in.pressed || in.released || in.wheel != 0 || typed_;
    if (panel_layer_.getSize() != sf::Vector2u(w, h)) {
        panel_layer_.create(w, h);
        panel_drawn_ = {};
    }
    if (input || now - panel_drawn_ >= kPanelEvery) {
        panel_layer_.setView(sf::View(sf::FloatRect(p.x, p.y, static_cast<float>(w), static_cast<float>(h))));
        draw_panel(panel_layer_, in, now, p);
        panel_layer_.display();
        panel_drawn_ = now;
        typed_ = false;
        panel_stale_ = false;
    } else {
        panel_stale_ = true;  // a hover or a clock may have changed in it: painted again in 100 ms
    }
    sf::Sprite panel(panel_layer_.getTexture());
    panel.setPosition(std::round(p.x), std::round(p.y));
    target.draw(panel, sf::RenderStates(sf::BlendNone));

    // The board, then the result panel over it.
    std::optional<Move> hint;
    if (ctx_.analysis) hint = ctx_.analysis->poll().hint;
    board_.draw(target, g, game, in.mouse, hint);
    draw_result(target, in, g);
    board_input(g, in);
}

}  // namespace xq::client
