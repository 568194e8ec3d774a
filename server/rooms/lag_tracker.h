#pragma once
// Fair clocks over a real network (issue 19), as lichess does it (scalachess LagTracker.scala):
// the server measures each player's round trip with its own Ping, and gives part of it back to
// the mover's clock, from a quota that refills by a fixed gain per move up to a maximum. A player
// on a slow link is not flagged by the link; a client that answers Pings late claims lag it does
// not have, and gets at most the quota (and never more than the move took, common/clock.h).
// Pure: time comes in as arguments.

#include <algorithm>
#include <array>
#include <cstddef>

#include "server/rooms/clock.h"

namespace xq::server {

// The round trip of one connection: the median of its last kSamples Pong times, so one stall (a
// lost segment, a paused process) neither inflates nor hides it.
class RoundTrip {
public:
    static constexpr std::size_t kSamples = 5;
    void record(Millis sample);
    // Median of the samples so far; 0 before the first.
    Millis estimate() const;
    std::size_t samples() const { return count_; }

private:
    std::array<Millis, kSamples> recent_{};
    std::size_t count_ = 0;  // samples recorded in all (the ring holds the last kSamples)
};

// One seat's lag-compensation quota in one game. Constants from scalachess LagTracker.init (lila
// issue 12097): the gain per move is 0.4% of the game's estimated duration (base + 40 x increment)
// plus 150 ms, at most 1 s (1 s for a 3+2); the quota starts at 3 gains and holds at most 7.
class LagQuota {
public:
    explicit LagQuota(const TimeControl& control);
    static Millis gain_for(const TimeControl& control);

    // What may be credited for a move by a player whose measured lag is `lag`: min(lag, quota).
    Millis offer(Millis lag) const { return std::clamp(lag, Millis{}, quota_); }
    // `given` was credited (at most offer(), less when the move took less): the quota pays it and
    // gains one refill, up to its maximum.
    void on_move(Millis given);
    Millis quota() const { return quota_; }
    Millis gain() const { return gain_; }
    Millis max() const { return max_; }

private:
    Millis gain_;
    Millis quota_;
    Millis max_;
};

}  // namespace xq::server
