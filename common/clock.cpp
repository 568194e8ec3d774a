#include "common/clock.h"

#include <algorithm>

#include "common/pgn_record.h"

namespace xq::timekeeping {
namespace {

std::size_t slot(Color c) { return static_cast<std::size_t>(index_of(c)); }

}  // namespace

std::string TimeControl::to_string() const {
    return pgn_time_control(base, increment, move_cap);
}

GameClock::GameClock(TimeControl control) : control_(control) { remaining_ = {control_.base, control_.base}; }

std::optional<Color> GameClock::turn() const {
    if (state_ == State::Running || state_ == State::Paused) return side_;
    return std::nullopt;
}

void GameClock::start(Color side, TimePoint now) {
    remaining_ = {control_.base, control_.base};
    side_ = side;
    used_on_turn_ = {};
    since_ = now;
    state_ = State::Running;
}

GameClock::Duration GameClock::elapsed(TimePoint now) const {
    if (state_ != State::Running) return {};
    return std::max(Duration{}, now - since_);
}

void GameClock::charge(TimePoint now) {
    const Duration spent = elapsed(now);
    remaining_[slot(side_)] = std::max(Duration{}, remaining_[slot(side_)] - spent);
    used_on_turn_ += spent;
    since_ = now;
}

GameClock::Duration GameClock::switch_side(TimePoint now, Duration lag_credit) {
    if (state_ != State::Running) return {};
    charge(now);
    const Duration credit = std::clamp(lag_credit, Duration{}, used_on_turn_);
    remaining_[slot(side_)] += control_.increment + credit;
    side_ = ~side_;
    used_on_turn_ = {};
    return credit;
}

void GameClock::stop(TimePoint now) {
    if (state_ == State::Running) charge(now);
    state_ = State::Stopped;
}

void GameClock::pause(TimePoint now) {
    if (state_ != State::Running) return;
    charge(now);
    state_ = State::Paused;
}

void GameClock::resume(TimePoint now) {
    if (state_ != State::Paused) return;
    since_ = now;
    state_ = State::Running;
}

void GameClock::reset(std::array<Duration, 2> remaining, Color side, TimePoint now) {
    remaining_ = remaining;
    side_ = side;
    used_on_turn_ = {};
    since_ = now;
    state_ = State::Running;
}

GameClock::Duration GameClock::remaining(Color c, TimePoint now) const {
    Duration left = remaining_[slot(c)];
    if (c == side_) left -= elapsed(now);
    return std::max(Duration{}, left);
}

ClockReading GameClock::reading(TimePoint now) const {
    ClockReading out{std::chrono::duration_cast<Millis>(remaining(Color::Red, now)),
                     std::chrono::duration_cast<Millis>(remaining(Color::Black, now)),
                     state_ == State::Running ? std::optional<Color>(side_) : std::nullopt, std::nullopt};
    if (state_ == State::Running && control_.move_cap)
        out.move_left = std::chrono::duration_cast<Millis>(
            std::max(Duration{}, Duration(*control_.move_cap) - used_on_turn_ - elapsed(now)));
    return out;
}

std::optional<TimePoint> GameClock::deadline() const {
    if (state_ != State::Running) return std::nullopt;
    Duration allowed = remaining_[slot(side_)];
    if (control_.move_cap)
        allowed = std::min(allowed, std::max(Duration{}, Duration(*control_.move_cap) - used_on_turn_));
    return since_ + allowed;
}

bool GameClock::flag_fallen(TimePoint now) const {
    const auto due = deadline();
    return due && now >= *due;
}

}  // namespace xq::timekeeping
