#pragma once
// Ratings as the client shows them: a rating with its '?' when provisional, a rating change
// ("+12"), a round trip ("85 ms"), an account's profile and a speed's leaderboard, and the scale
// of the rating-history plot. Filled by the network adapter; plain C++, tested without a window.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/model/lobby_model.h"
#include "common/speed.h"

namespace xq::client {

// The rating pools, fastest first (as the protocol's Speed): the rules library's speeds.
using SpeedPool = timekeeping::Speed;
inline constexpr int kSpeedPools = 4;
const char* speed_name(SpeedPool speed);  // "Bullet", ...
// The pool a time control is rated in (common/speed.h has the rule).
SpeedPool speed_pool(const TimeControlChoice& tc);

struct RatingView {
    int rating = 0;
    int deviation = 0;
    bool provisional = false;  // shown with a '?'
    friend bool operator==(const RatingView&, const RatingView&) = default;
};

// "1500?" when provisional, "1623" otherwise; "" for none (a guest).
std::string rating_text(const std::optional<RatingView>& r);
// A rated game's change: "+12", "-8", "±0".
std::string change_text(int before, int after);
// A measured round trip: "85 ms"; "" while unknown (0).
std::string lag_text(std::uint32_t ms);

struct RatingPointView {
    std::int64_t at_ms = 0;
    int rating = 0;
    std::uint64_t game_id = 0;
};

struct SpeedRecordView {
    SpeedPool speed = SpeedPool::Blitz;
    RatingView rating;
    std::uint32_t games = 0;
    std::vector<RatingPointView> history;  // oldest first
};

struct ProfileView {
    std::string name;
    bool computer = false;
    std::vector<SpeedRecordView> speeds;
    std::uint32_t wins = 0, draws = 0, losses = 0;
};

struct LeaderRow {
    std::uint32_t rank = 0;
    std::string name;
    RatingView rating;
    std::uint32_t games = 0;
    bool computer = false;
};

struct RatingsModel {
    std::string profile_name;           // the profile asked for last
    std::optional<ProfileView> profile;  // its answer; none while it loads
    std::string profile_error;           // "no account is called …"
    SpeedPool board_speed = SpeedPool::Blitz;  // the leaderboard's tab
    std::vector<LeaderRow> leaderboard;  // for board_speed
    std::uint32_t min_games = 0;
    bool leaderboard_loaded = false;
};

// The axes of a rating-history plot: ratings on round ticks covering every point (with some room),
// time from the first point to the last.
struct PlotScale {
    int low = 1400, high = 1600;  // the vertical axis
    int tick = 50;                // between labelled lines
    std::int64_t first_ms = 0, last_ms = 0;
    // Where a point falls in a unit square: x from 0 (first) to 1 (last), y from 0 (low) to 1 (high).
    double x(std::int64_t at_ms) const;
    double y(int rating) const;
};
// The scale for the histories given (all speeds drawn together); a default around 1500 for none.
PlotScale plot_scale(const std::vector<const std::vector<RatingPointView>*>& histories);

}  // namespace xq::client
