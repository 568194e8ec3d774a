#pragma once
// Two players at one screen: every action is decided at once by the local rules, and the clocks,
// if the players chose a time control, run here (local_clock.h).

#include <optional>

#include "client/model/game_actions.h"
#include "client/model/local_clock.h"

namespace xq::client {

class HotseatGame final : public GameActions {
public:
    // No control: a game without clocks.
    explicit HotseatGame(GameModel& model, std::optional<TimeControlChoice> control = std::nullopt,
                         LocalClock::Now now = [] { return SteadyClock::now(); })
        : HotseatGame(model, Position::start(), control, std::move(now)) {}
    // A new game from `start` (a position set up from a FEN, say); new_game() returns to it.
    HotseatGame(GameModel& model, const Position& start, std::optional<TimeControlChoice> control = std::nullopt,
                LocalClock::Now now = [] { return SteadyClock::now(); });
    void new_game();
    // Ends the game when a flag falls (true then). Call once per loop.
    bool pump() { return clock_.check_flag(model_); }

    void move(Move m) override;
    void resign() override;
    void offer(OfferType kind) override;
    void answer(OfferType, bool) override {}
    void abort_game() override { new_game(); }
    void chat(const std::string&) override {}
    void claim(bool) override {}
    void leave() override {}

private:
    GameModel& model_;
    Position start_;
    LocalClock clock_;
};

}  // namespace xq::client
