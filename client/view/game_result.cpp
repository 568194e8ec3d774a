// GameScreen: the result over the board once a game has ended, with its explanation, the rating
// changes of a rated game and the way on (review, rematch, lobby). Kept apart from the panel.
#include "game_screen.h"

#include <algorithm>

#include "client/online/online_client.h"

namespace xq::client {

namespace {

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

void GameScreen::draw_result(sf::RenderTarget& target, ui::Input& in, const BoardGeometry& g) {
    GameModel& game = ctx_.game;
    if (!game.result() || result_hidden_ || !game.following_live()) return;
    const sf::Font& font = ctx_.resources.font();
    const Rect outer = g.outer();
    const float w = std::min(outer.w * 0.86f, 480.0f);
    const auto lines = ui::wrap(font, game.result()->explanation, 17, w - 40);
    // A rated game's changes: "ann +12   bob -12".
    std::string changes;
    for (Color side : {Color::Red, Color::Black})
        if (!game.rating_change(side).empty())
            changes += (changes.empty() ? "" : "     ") + game.seat(side).name + "  " + rating_text(game.seat(side).rating) +
                       " " + game.rating_change(side);
    const float h = 120 + static_cast<float>(lines.size()) * 24 + (changes.empty() ? 0 : 30);
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
    if (!changes.empty())
        ui::text(target, font, ui::elide(font, changes, 17, w - 20), {r.x + w / 2, y + 4}, 17, ui::color::kAccent,
                 ui::Align::Center);
    const bool local = ctx_.hotseat || ctx_.computer;
    // Online: a player may offer (or accept) a rematch; a spectator may follow one that started.
    const auto me = game.my_side();
    const auto rematch_by = game.offer_by(OfferType::Rematch);
    std::string rematch;
    if (!local && me && ctx_.online.can_offer_rematch())
        rematch = !rematch_by ? "Rematch" : *rematch_by == *me ? "Rematch offered" : "Accept rematch";
    else if (!local && !me && ctx_.online.rematch_game_id() != 0)
        rematch = "Watch rematch";
    const int buttons = rematch.empty() ? 2 : 3;
    const float gap = 10, bw = std::min(140.0f, (w - 20 - gap * static_cast<float>(buttons - 1)) / static_cast<float>(buttons));
    float x = r.x + (w - bw * static_cast<float>(buttons) - gap * static_cast<float>(buttons - 1)) / 2;
    const auto next_cell = [&] {
        const Rect cell{x, r.y + h - 44, bw, 32};
        x += bw + gap;
        return cell;
    };
    if (ui::button(target, font, in, next_cell(), "Review game")) result_hidden_ = true;
    if (!rematch.empty()) {
        const bool waiting = rematch == "Rematch offered";
        if (ui::button(target, font, in, next_cell(), rematch, !waiting, !waiting)) {
            if (rematch == "Watch rematch")
                ctx_.online.follow_rematch();
            else if (rematch == "Accept rematch")
                ctx_.actions->answer(OfferType::Rematch, true);
            else
                ctx_.actions->offer(OfferType::Rematch);
        }
    }
    const std::string next = local ? "New game" : "Back to lobby";
    if (ui::button(target, font, in, next_cell(), next, true, rematch.empty())) {
        if (local && ctx_.actions)
            ctx_.actions->abort_game();
        else
            ctx_.back();
    }
}

}  // namespace xq::client
