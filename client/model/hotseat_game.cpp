#include "hotseat_game.h"

namespace xq::client {

HotseatGame::HotseatGame(GameModel& model, const Position& start, std::optional<TimeControlChoice> control,
                         LocalClock::Now now)
    : model_(model), start_(start), clock_(control, std::move(now)) {
    new_game();
}

void HotseatGame::new_game() {
    model_.clear_room();
    (void)model_.reset(start_, {}, Role::Hotseat);
    model_.set_seat(Color::Red, {"Red", true, std::nullopt});
    model_.set_seat(Color::Black, {"Black", true, std::nullopt});
    clock_.restart(model_);
}

void HotseatGame::move(Move m) {
    if (clock_.check_flag(model_)) return;  // a move after the flag fell is not a move
    if (auto played = model_.play_local(m); !played) model_.set_notice(played.error());
    clock_.follow(model_);
}

void HotseatGame::resign() {
    if (model_.result()) return;
    const Color loser = model_.position_at(model_.ply_count()).side_to_move();
    model_.finish({loss_for(loser), "resignation",
                   std::string(loser == Color::Red ? "Red resigns: Black wins." : "Black resigns: Red wins.")});
    clock_.follow(model_);
}

void HotseatGame::offer(OfferType kind) {
    if (model_.result()) return;
    // Both players sit at this screen: an offer made here is agreed at once.
    if (kind == OfferType::Draw) {
        model_.finish({Result::Draw, "agreement", "Draw agreed."});
    } else if (model_.ply_count() > 0) {
        (void)model_.take_back(1);
    }
    clock_.follow(model_);
}

}  // namespace xq::client
