#pragma once
// The two clocks as the client shows them: the server's last values, counted down locally for the
// running side from the moment they arrived, and replaced by every server update.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "common/types.h"

namespace xq::client {

using SteadyClock = std::chrono::steady_clock;
using TimePoint = SteadyClock::time_point;
using Millis = std::int64_t;

// The server's clock message in the client's words.
struct ClockValues {
    Millis red_ms = 0;
    Millis black_ms = 0;
    std::optional<Color> running;
    std::optional<Millis> move_cap_ms;  // time left for the current move under a per-move cap
    // Before the clocks start: the side to move's time left for its first move (then the server
    // aborts the game).
    std::optional<Millis> first_move_ms{};
};

class ClockModel {
public:
    void set(const ClockValues& values, TimePoint received);
    void stop();  // the game ended: freeze both clocks where they are
    bool known() const { return known_; }

    Millis remaining(Color side, TimePoint now) const;
    std::optional<Millis> move_cap_left(TimePoint now) const;
    // Counted down locally like a running clock; none once the clocks have started.
    std::optional<Millis> first_move_left(TimePoint now) const;
    std::optional<Color> running() const { return values_.running; }
    // Low time: under 20 seconds on the clock, or under 10 seconds left for the move.
    bool low(Color side, TimePoint now) const;
    // When what the clocks show next changes by itself (a second, a tenth, the low-time colour);
    // none while no countdown runs.
    std::optional<TimePoint> next_change(TimePoint now) const;

private:
    Millis elapsed(TimePoint now) const;

    ClockValues values_;
    TimePoint received_{};
    bool known_ = false;
};

// "5:00", "0:42", "1:02:03"; under 10 seconds with tenths ("9.4"), never negative.
std::string format_clock(Millis ms);

// How long until a countdown showing format_clock(left) shows other text, or drops under
// `threshold` (where it is drawn differently): the next whole second above ten seconds, the next
// tenth below. None once nothing more will change.
std::optional<Millis> until_shown_change(Millis left, std::optional<Millis> threshold = std::nullopt);

}  // namespace xq::client
