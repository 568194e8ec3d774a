#pragma once
// A Fischer clock for one game, kept by the server's rooms and by the client's local games
// (hotseat, the computer offline) alike. Time comes in as arguments (a steady_clock time point),
// never from the system, so tests drive time by hand and the server arms one timer per room at
// deadline(). Its own namespace keeps TimeControl apart from the protocol's.
//
// Each side starts with the base time; a finished move charges the time it took and adds the
// increment. With a per-move cap, a move that takes longer than the cap loses on time even with
// time left on the clock. Pausing (crash recovery, an adjourned game) freezes both the side's time
// and its per-move allowance.

#include <array>
#include <chrono>
#include <optional>
#include <string>

#include "common/types.h"

namespace xq::timekeeping {

using SteadyClock = std::chrono::steady_clock;
using TimePoint = SteadyClock::time_point;
using Millis = std::chrono::milliseconds;

struct TimeControl {
    Millis base{};
    Millis increment{};
    std::optional<Millis> move_cap;  // no cap when empty

    // "300+5" (seconds), with "/30" appended for a 30 s cap: the PGN TimeControl tag and listings.
    std::string to_string() const;
    friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

// Both sides' remaining time at one moment, and whose clock was running (none when stopped,
// paused or not started).
struct ClockReading {
    Millis red{};
    Millis black{};
    std::optional<Color> running;
    std::optional<Millis> move_left{};  // under a per-move cap, while running: the running side's time for this move
    // Before the clocks start (each side's first move): the side to move's time left to make it
    // before the game is aborted. Filled by the server's room, which owns that rule.
    std::optional<Millis> first_move_left{};

    Millis of(Color c) const { return c == Color::Red ? red : black; }
    friend bool operator==(const ClockReading&, const ClockReading&) = default;
};

class GameClock {
public:
    enum class State { Idle, Running, Paused, Stopped };
    using Duration = SteadyClock::duration;

    explicit GameClock(TimeControl control);

    const TimeControl& control() const { return control_; }
    State state() const { return state_; }
    // The side whose turn it is (running or paused); none when idle or stopped.
    std::optional<Color> turn() const;

    // Both sides get the base time and `side`'s clock starts at `now`. Restarts a used clock.
    void start(Color side, TimePoint now);
    // The running side completed a move at `now`: charge it, add the increment, start the other
    // side. The caller checks flag_fallen(now) first: a move after the deadline is not a move.
    // `lag_credit` (the server's lag compensation) is given back to the mover, but never more than
    // the move took; returns what was given.
    Duration switch_side(TimePoint now, Duration lag_credit = {});
    // Charges the running side and stops for good (game over). No increment.
    void stop(TimePoint now);
    // Freezes the running side (time and per-move allowance); resume() restarts it at `now`.
    void pause(TimePoint now);
    void resume(TimePoint now);
    // Sets both sides' time and starts `side` afresh at `now` with a full per-move allowance
    // (takebacks restore the times of an earlier position).
    void reset(std::array<Duration, 2> remaining, Color side, TimePoint now);

    // Exact remaining time of `c` at `now`, never below zero.
    Duration remaining(Color c, TimePoint now) const;
    std::array<Duration, 2> remaining(TimePoint now) const {
        return {remaining(Color::Red, now), remaining(Color::Black, now)};
    }
    ClockReading reading(TimePoint now) const;

    // When the running side's flag falls (out of time, or over the per-move cap); none unless
    // running.
    std::optional<TimePoint> deadline() const;
    bool flag_fallen(TimePoint now) const;

private:
    Duration elapsed(TimePoint now) const;  // on the current turn since the last (re)start
    void charge(TimePoint now);             // moves the running segment into the banked figures

    TimeControl control_;
    State state_ = State::Idle;
    Color side_ = Color::Red;
    std::array<Duration, 2> remaining_{};  // as of since_ for the running side
    Duration used_on_turn_{};              // this turn's time before since_ (pauses split a turn)
    TimePoint since_{};
};

}  // namespace xq::timekeeping
