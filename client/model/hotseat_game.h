#pragma once
// Two players at one screen: every action is decided at once by the local rules.

#include "client/model/game_actions.h"

namespace xq::client {

class HotseatGame final : public GameActions {
public:
    // A new game from `start` (a position set up from a FEN, say); new_game() returns to it.
    explicit HotseatGame(GameModel& model, const Position& start = Position::start());
    void new_game();

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
};

}  // namespace xq::client
