#pragma once
// The clocks of a game played on this machine (hotseat, the computer offline), by the server's
// rules: common/clock.h's Fischer clock, started once both sides have made their first move, and a
// fallen flag ends the game through the rules library (a draw when the opponent cannot mate).
// Players at one screen cannot abandon each other, so the server's first-move limit is left out.

#include <array>
#include <functional>
#include <optional>
#include <vector>

#include "client/model/game_model.h"
#include "client/model/lobby_model.h"
#include "common/clock.h"

namespace xq::client {

class LocalClock {
public:
    using Now = std::function<TimePoint()>;

    // No control: a game without clocks; every call below is then a no-op. `now` is the time
    // source (tests pass a fake one).
    explicit LocalClock(std::optional<TimeControlChoice> control, Now now = [] { return SteadyClock::now(); });

    bool enabled() const { return clock_.has_value(); }
    const std::optional<TimeControlChoice>& control() const { return control_; }
    // A new game: both sides' full time shown, nothing running.
    void restart(GameModel& model);
    // The model's record changed (a move played, moves taken back, the game ended): the clocks
    // follow it and the model shows them.
    void follow(GameModel& model);
    // Ends the game on time when the running side's flag has fallen; true if it has. Call once a
    // frame, and before a move is played.
    bool check_flag(GameModel& model);
    // The running side's time left, for the computer's think time.
    std::optional<std::int64_t> remaining_ms(Color side) const;

private:
    void show(GameModel& model, TimePoint now);

    std::optional<TimeControlChoice> control_;
    std::optional<timekeeping::GameClock> clock_;
    // Both sides' time after each ply (0 first), so a takeback gives back the time of that moment.
    std::vector<std::array<SteadyClock::duration, 2>> history_;
    Now now_;
};

}  // namespace xq::client
