#pragma once
// Playing the computer without a server: the engine (fairy-stockfish, through xq::engine) answers
// each of the player's moves. The engine thinks on its own thread; its answer is picked up by
// pump() on the UI thread, so the window never waits for it. With a time control the clocks run
// here as in hotseat (client/model/local_clock.h), and the computer thinks within its clock.

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "client/model/game_actions.h"
#include "client/model/local_clock.h"
#include "engine/async_engine.h"

namespace xq::client {

class ComputerGame final : public GameActions {
public:
    // The player (`name`) takes `side`; the computer plays the other at `level` (1-8, engine/levels.h),
    // with clocks at `control` (none: no clocks).
    ComputerGame(GameModel& model, std::string name, Color side, int level,
                 std::optional<TimeControlChoice> control = std::nullopt,
                 LocalClock::Now now = [] { return SteadyClock::now(); });
    ~ComputerGame() override;

    void new_game();
    // Ends the game when a flag falls, else applies the engine's answer if it has come; true when
    // either changed the game. Call once per loop.
    bool pump();
    bool thinking() const { return thinking_; }
    int level() const { return level_; }
    Color side() const { return side_; }

    void move(Move m) override;
    void resign() override;
    void offer(OfferType kind) override;
    void answer(OfferType, bool) override {}
    void abort_game() override { new_game(); }
    void chat(const std::string&) override {}
    void claim(bool) override {}
    void leave() override {}

private:
    struct Answer;
    void ask_engine();
    void forget_answer();

    GameModel& model_;
    std::string name_;
    Color side_;
    int level_;
    LocalClock clock_;
    engine::AsyncEngine engine_;
    std::shared_ptr<Answer> answer_;  // shared with the engine's callback, which may outlive a game
    bool thinking_ = false;
    int last_eval_for_computer_ = 0;  // centipawns, from the computer's side, of its last search
};

}  // namespace xq::client
