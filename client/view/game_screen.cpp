#include "game_screen.h"

#include <algorithm>
#include <cmath>

#include "client/computer/analysis.h"
#include "client/online/online_client.h"

namespace xq::client {

namespace {

std::string side_name(Color c) { return c == Color::Red ? "Red" : "Black"; }

std::string result_title(const ResultInfo& r) {
    switch (r.result) {
        case Result::RedWins: return "Red wins";
        case Result::BlackWins: return "Black wins";
        case Result::Draw: return "Draw";
        case Result::Ongoing: break;
    }
    return "Game aborted";
}

}  // namespace

GameScreen::GameScreen(ScreenContext& context) : ctx_(context), board_(context.resources.font()) {}

void GameScreen::handle(const sf::Event& event) {
    if (event.type == sf::Event::TextEntered || event.type == sf::Event::KeyPressed) typed_ = true;
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
            const bool own = p != Piece::None && game.can_move() &&
                             color_of(p) == game.shown_position().side_to_move();
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
        return "Waiting for an opponent…" + (code.empty() ? std::string() : "  Join code: " + code);
    }
    if (!game.following_live())
        return "Move " + std::to_string(game.view_ply()) + " of " + std::to_string(game.ply_count()) +
               " — → or End returns to the game";
    if (game.pending()) return "Sending your move…";
    const Color to_move = game.position_at(game.ply_count()).side_to_move();
    std::string line = side_name(to_move) + " to move";
    if (game.my_side() == to_move) line = "Your move";
    if (game.general_in_check()) line += " — check!";
    return line;
}

float GameScreen::draw_player(sf::RenderTarget& target, Color side, Rect r, TimePoint now) {
    const GameModel& game = ctx_.game;
    const sf::Font& font = ctx_.resources.font();
    const bool running = game.clock().running() == side && !game.result();
    // Before the clocks start, the side to move has a first-move allowance instead.
    const auto first_move_left = game.clock().first_move_left(now);
    const bool awaiting_first = first_move_left && !game.result() && game.game().position().side_to_move() == side;
    const Millis first_move = first_move_left.value_or(0);
    ui::box(target, r, ui::color::kPanel, running ? ui::color::kAccent : ui::color::kPanelLine, running ? 2.0f : 1.0f);
    // A small general as the side's badge.
    const Piece general = make_piece(side, PieceType::General);
    sf::CircleShape disc(14, 32);
    disc.setOrigin(14, 14);
    disc.setPosition(r.x + 24, r.y + 26);
    disc.setFillColor(sf::Color(247, 234, 205));
    disc.setOutlineColor(side == Color::Red ? sf::Color(178, 28, 28) : sf::Color(28, 28, 28));
    disc.setOutlineThickness(2);
    target.draw(disc);
    ui::text(target, font, piece_glyph(general), {r.x + 24, r.y + 26 - 11}, 16,
             side == Color::Red ? sf::Color(178, 28, 28) : sf::Color(28, 28, 28), ui::Align::Center);
    const SeatInfo& seat = game.seat(side);
    std::string name = seat.name.empty() ? (game.phase() == Phase::Waiting ? "waiting…" : side_name(side)) : seat.name;
    if (game.my_side() == side) name += "  (you)";
    const float clock_w = 130;
    ui::text(target, font, ui::elide(font, name, 19, r.w - clock_w - 60), {r.x + 46, r.y + 12}, 19, ui::color::kText);
    std::string sub;
    if (!seat.connected && game.result()) {
        sub = "left";  // the game is over: there is nothing to return to
    } else if (!seat.connected) {
        sub = "disconnected";
        if (const auto left = game.grace_left(side, now))
            sub += *left > 0 ? " — may return for " + format_clock(*left) : " — may be claimed";
    }
    if (!sub.empty()) ui::text(target, font, sub, {r.x + 46, r.y + 38}, 13, ui::color::kDanger);
    // What this side has taken: the other side's missing pieces, as small discs.
    const auto taken = game.captured(~side);
    float x = r.x + 46;
    const float y = r.y + r.h - 22;
    for (Piece p : taken) {
        sf::CircleShape small(9, 20);
        small.setOrigin(9, 9);
        small.setPosition(x + 9, y + 6);
        small.setFillColor(sf::Color(247, 234, 205));
        target.draw(small);
        ui::text(target, font, piece_glyph(p), {x + 9, y - 2}, 11,
                 color_of(p) == Color::Red ? sf::Color(178, 28, 28) : sf::Color(28, 28, 28), ui::Align::Center);
        x += 20;
        if (x > r.x + r.w - clock_w - 20) break;
    }
    // The clock.
    const Rect face{r.x + r.w - clock_w - 8, r.y + 8, clock_w, r.h - 16};
    const bool low = running && game.clock().low(side, now);
    ui::box(target, face, running ? sf::Color(28, 26, 24) : sf::Color(40, 38, 35));
    const std::string time = game.clock().known() ? format_clock(game.clock().remaining(side, now)) : "—";
    ui::text(target, font, time, {face.x + face.w / 2, face.y + face.h / 2 - 22}, 32,
             low ? ui::color::kDanger : (running ? ui::color::kText : ui::color::kMuted), ui::Align::Center);
    if (running) {
        if (const auto cap = game.clock().move_cap_left(now))
            ui::text(target, font, "move " + format_clock(*cap), {face.x + face.w / 2, face.y + face.h - 16}, 11,
                     ui::color::kMuted, ui::Align::Center);
    } else if (awaiting_first) {
        // The clocks wait for both first moves; a first move that never comes aborts the game.
        ui::text(target, font, "first move " + format_clock(first_move), {face.x + face.w / 2, face.y + face.h - 16},
                 11, first_move < 10'000 ? ui::color::kDanger : ui::color::kAccent, ui::Align::Center);
    }
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

float GameScreen::draw_offers(sf::RenderTarget& target, ui::Input& in, Rect r, TimePoint now) {
    GameModel& game = ctx_.game;
    if (!ctx_.actions || game.result()) return 0;
    const sf::Font& font = ctx_.resources.font();
    const auto me = game.my_side();
    float used = 0;
    for (OfferType kind : {OfferType::Draw, OfferType::Takeback}) {
        const auto by = game.offer_by(kind);
        if (!by) continue;
        const Rect row{r.x, r.y + used, r.w, 40};
        const bool theirs = me && *by != *me;
        ui::box(target, row, sf::Color(70, 58, 36), ui::color::kAccent, 1);
        const std::string what = kind == OfferType::Draw ? "offers a draw" : "asks to take back a move";
        ui::text(target, font, side_name(*by) + " " + what, {row.x + 10, row.y + 10}, 15, ui::color::kText);
        if (theirs) {
            if (ui::button(target, font, in, {row.x + row.w - 180, row.y + 6, 84, 28}, "Accept", true, true))
                ctx_.actions->answer(kind, true);
            if (ui::button(target, font, in, {row.x + row.w - 90, row.y + 6, 84, 28}, "Decline"))
                ctx_.actions->answer(kind, false);
        } else if (me) {
            ui::text(target, font, "waiting…", {row.x + row.w - 10, row.y + 11}, 14, ui::color::kMuted, ui::Align::Right);
        }
        used += 46;
    }
    // The opponent left and its grace period ran out: the player may take the game.
    if (me && game.phase() == Phase::Playing) {
        const SeatInfo& other = game.seat(~*me);
        if (const auto left = game.grace_left(~*me, now); !other.connected && left && *left <= 0) {
            const Rect row{r.x, r.y + used, r.w, 40};
            ui::box(target, row, sf::Color(70, 40, 36), ui::color::kDanger, 1);
            ui::text(target, font, "Your opponent has left", {row.x + 10, row.y + 10}, 15, ui::color::kText);
            if (ui::button(target, font, in, {row.x + row.w - 200, row.y + 6, 94, 28}, "Claim win", true, true))
                ctx_.actions->claim(true);
            if (ui::button(target, font, in, {row.x + row.w - 100, row.y + 6, 94, 28}, "Claim draw"))
                ctx_.actions->claim(false);
            used += 46;
        }
    }
    return used;
}

void GameScreen::draw_buttons(sf::RenderTarget& target, ui::Input& in, Rect r, TimePoint now) {
    GameModel& game = ctx_.game;
    const sf::Font& font = ctx_.resources.font();
    const bool playing = game.phase() == Phase::Playing && !game.result() && ctx_.actions;
    const bool player = playing && (game.my_side() || ctx_.hotseat);
    const bool local = ctx_.hotseat || ctx_.computer;  // no server: no abort, and "new game" instead of "lobby"
    const float gap = 6, h = 32;
    const float w4 = (r.w - 3 * gap) / 4;
    const auto cell = [&](int row, int col) {
        return Rect{r.x + static_cast<float>(col) * (w4 + gap), r.y + static_cast<float>(row) * (h + gap), w4, h};
    };
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
    if (ui::button(target, font, in, cell(0, 1), ctx_.hotseat ? "Draw" : "Offer draw", player && !my_offer_pending))
        ctx_.actions->offer(OfferType::Draw);
    const bool can_takeback = player && game.ply_count() > 0 && !game.pending();
    if (ui::button(target, font, in, cell(0, 2), "Takeback", can_takeback)) ctx_.actions->offer(OfferType::Takeback);
    if (ui::button(target, font, in, cell(0, 3), "Flip  (F)")) ctx_.flipped = !ctx_.flipped;

    if (ui::button(target, font, in, cell(1, 0), "|<")) game.go_to(0);
    if (ui::button(target, font, in, cell(1, 1), "<")) game.step(-1);
    if (ui::button(target, font, in, cell(1, 2), ">")) game.step(1);
    if (ui::button(target, font, in, cell(1, 3), ">|")) game.go_live();

    static const Notation kCycle[] = {Notation::Chinese, Notation::Wxf, Notation::Iccs};
    const char* label = game.notation() == Notation::Wxf ? "WXF" : game.notation() == Notation::Iccs ? "ICCS" : "中文";
    if (ui::button(target, font, in, cell(2, 0), label)) {  // cycles 中文 → WXF → ICCS
        const auto it = std::find(std::begin(kCycle), std::end(kCycle), game.notation());
        const auto next = (it == std::end(kCycle) || it + 1 == std::end(kCycle)) ? kCycle[0] : *(it + 1);
        game.set_notation(next);
    }
    if (ui::button(target, font, in, cell(2, 1), ctx_.resources.muted() ? "Sound: off" : "Sound: on"))
        ctx_.resources.set_muted(!ctx_.resources.muted());
    if (ui::button(target, font, in, cell(2, 2), "Save PGN", game.ply_count() > 0)) ctx_.save_pgn();
    const bool leaving_live = player && game.my_side() && game.phase() == Phase::Playing && !local;
    const std::string back = local ? "New game" : "Lobby";
    if (ui::button(target, font, in, cell(2, 3), back, !leaving_live)) {
        if (local)
            ctx_.actions->abort_game();
        else
            ctx_.back();
    }
    // The engine's row: a hint and the evaluation, where analysis is allowed.
    const Rect hint = cell(3, 0);
    if (ui::button(target, font, in, hint, "Hint", ctx_.analysis != nullptr) && ctx_.analysis)
        ctx_.analysis->ask_hint(game);
    const Rect bar{hint.x + hint.w + gap, hint.y + 6, r.w - hint.w - gap, h - 12};
    if (!ctx_.analysis) {
        ui::text(target, font, local || game.role() == Role::Replay ? "" : "Evaluation after the game",
                 {bar.x + 4, hint.y + 8}, 13, ui::color::kMuted);
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
    ui::text(target, font, verdict, {bar.x + bar.w / 2, bar.y + 1}, 14, sf::Color::White, ui::Align::Center);
}

void GameScreen::draw_chat(sf::RenderTarget& target, ui::Input& in, Rect r) {
    const GameModel& game = ctx_.game;
    const sf::Font& font = ctx_.resources.font();
    const bool spectator = game.role() == Role::Spectator;
    ui::box(target, r, sf::Color(34, 32, 30), ui::color::kPanelLine, 1);
    ui::text(target, font, spectator ? "Spectators' chat" : "Chat", {r.x + 8, r.y + 4}, 13, ui::color::kMuted);
    std::vector<std::pair<std::string, sf::Color>> lines;
    for (const auto& line : game.chat()) {
        const sf::Color c = line.side == Color::Red ? sf::Color(235, 120, 110) : line.side ? sf::Color(170, 190, 230)
                                                                                           : ui::color::kMuted;
        for (const auto& l : ui::wrap(font, line.from + ": " + line.text, 14, r.w - 16)) lines.emplace_back(l, c);
    }
    const float line_h = 18;
    const int room = std::max(0, static_cast<int>((r.h - 24 - 38) / line_h));
    const std::size_t from = lines.size() > static_cast<std::size_t>(room) ? lines.size() - static_cast<std::size_t>(room) : 0;
    float y = r.y + 22;
    for (std::size_t i = from; i < lines.size(); ++i) {
        ui::text(target, font, lines[i].first, {r.x + 8, y}, 14, lines[i].second);
        y += line_h;
    }
    chat_field_.draw(target, font, in, {r.x + 6, r.y + r.h - 36, r.w - 12, 30}, "Say something… (Enter)");
}

void GameScreen::draw_result(sf::RenderTarget& target, ui::Input& in, const BoardGeometry& g) {
    const GameModel& game = ctx_.game;
    if (!game.result() || result_hidden_ || !game.following_live()) return;
    const sf::Font& font = ctx_.resources.font();
    const Rect outer = g.outer();
    const float w = std::min(outer.w * 0.8f, 460.0f);
    const auto lines = ui::wrap(font, game.result()->explanation, 17, w - 40);
    const float h = 120 + static_cast<float>(lines.size()) * 24;
    const Rect r{outer.x + (outer.w - w) / 2, outer.y + (outer.h - h) / 2, w, h};
    ui::box(target, r, sf::Color(30, 28, 26, 238), ui::color::kAccent, 2);
    const std::string title = result_title(*game.result());
    ui::text(target, font, title, {r.x + w / 2, r.y + 14}, 34,
             game.result()->result == Result::RedWins ? sf::Color(235, 90, 80) : ui::color::kText, ui::Align::Center);
    float y = r.y + 66;
    for (const auto& l : lines) {
        ui::text(target, font, l, {r.x + w / 2, y}, 17, ui::color::kText, ui::Align::Center);
        y += 24;
    }
    if (ui::button(target, font, in, {r.x + w / 2 - 150, r.y + h - 44, 140, 32}, "Review game")) {
        result_hidden_ = true;
    }
    const bool local = ctx_.hotseat || ctx_.computer;
    const std::string next = local ? "New game" : "Back to lobby";
    if (ui::button(target, font, in, {r.x + w / 2 + 10, r.y + h - 44, 140, 32}, next, true, true)) {
        if (local && ctx_.actions)
            ctx_.actions->abort_game();
        else
            ctx_.back();
    }
}

void GameScreen::draw_panel(sf::RenderTarget& target, ui::Input& in, TimePoint now, Rect p) {
    GameModel& game = ctx_.game;
    const sf::Font& font = ctx_.resources.font();
    ui::box(target, p, ui::color::kPanel);
    const float x = p.x + 14, w = p.w - 28;
    const Color top = ctx_.flipped ? Color::Red : Color::Black;
    float y = 12;
    draw_player(target, top, {x, y, w, 76}, now);
    y += 84;
    const float chat_h = std::clamp(p.h * 0.2f, 110.0f, 200.0f);
    const float bottom_block = 76 + 8 + 26 + 4 * 38 + 8 + chat_h + 26;
    const float offers_h = (game.offer_by(OfferType::Draw) ? 46.0f : 0.0f) + (game.offer_by(OfferType::Takeback) ? 46.0f : 0.0f);
    const float moves_h = std::max(60.0f, p.h - y - bottom_block - offers_h - 12);
    draw_moves(target, in, {x, y, w, moves_h});
    y += moves_h + 8;
    draw_player(target, ~top, {x, y, w, 76}, now);
    y += 84;
    const std::string status = status_line();
    const bool warn = !game.notice().empty() || (game.general_in_check() && game.following_live());
    ui::text(target, font, ui::elide(font, status, 15, w), {x, y}, 15, warn ? ui::color::kDanger : ui::color::kAccent);
    if (game.spectators() > 0)
        ui::text(target, font, std::to_string(game.spectators()) + " watching", {x + w, y}, 13, ui::color::kMuted,
                 ui::Align::Right);
    y += 26;
    y += draw_offers(target, in, {x, y, w, 92}, now);
    draw_buttons(target, in, {x, y, w, 4 * 38}, now);
    y += 4 * 38 + 8;
    if (!ctx_.hotseat && !ctx_.computer) draw_chat(target, in, {x, y, w, chat_h});
    ui::text(target, font, ui::elide(font, ctx_.status, 12, w), {x, p.h - 20}, 12, ui::color::kMuted);
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
