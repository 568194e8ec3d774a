#include "local_clock.h"

namespace xq::client {
namespace {

using timekeeping::ClockReading;
using timekeeping::GameClock;
using timekeeping::TimeControl;

TimeControl to_clock(const TimeControlChoice& tc) {
    TimeControl out{std::chrono::minutes(tc.base_minutes), std::chrono::seconds(tc.increment_seconds), std::nullopt};
    if (tc.move_cap_seconds) out.move_cap = std::chrono::seconds(*tc.move_cap_seconds);
    return out;
}

std::int64_t ms(SteadyClock::duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); }

}  // namespace

LocalClock::LocalClock(std::optional<TimeControlChoice> control, Now now) : control_(control), now_(std::move(now)) {
    if (control_) clock_.emplace(to_clock(*control_));
}

void LocalClock::restart(GameModel& model) {
    if (!clock_) return;
    *clock_ = GameClock(clock_->control());
    history_.assign(1, clock_->remaining(now_()));
    show(model, now_());
}

void LocalClock::follow(GameModel& model) {
    if (!clock_) return;
    const TimePoint now = now_();
    const auto plies = static_cast<std::size_t>(model.ply_count());
    if (model.result()) {
        clock_->stop(now);
    } else if (plies + 1 < history_.size()) {
        // Moves taken back: the time each side had then, or, before both first moves, no clock yet.
        history_.resize(plies + 1);
        if (plies < 2)
            *clock_ = GameClock(clock_->control());
        else
            clock_->reset(history_.back(), model.position_at(model.ply_count()).side_to_move(), now);
    } else if (plies + 1 > history_.size()) {
        if (plies == 2)
            clock_->start(model.position_at(model.ply_count()).side_to_move(), now);  // both have moved
        else if (plies > 2)
            clock_->switch_side(now);
        history_.push_back(clock_->remaining(now));
    }
    show(model, now);
}

bool LocalClock::check_flag(GameModel& model) {
    if (!clock_ || model.result()) return false;
    const TimePoint now = now_();
    if (!clock_->flag_fallen(now)) return false;
    const Color loser = *clock_->turn();
    clock_->stop(now);
    model.flag_local(loser);
    show(model, now);
    return true;
}

std::optional<std::int64_t> LocalClock::remaining_ms(Color side) const {
    if (!clock_) return std::nullopt;
    return ms(clock_->remaining(side, now_()));
}

void LocalClock::show(GameModel& model, TimePoint now) {
    const ClockReading r = clock_->reading(now);
    ClockValues values{r.red.count(), r.black.count(), r.running, std::nullopt, std::nullopt};
    if (r.move_left) values.move_cap_ms = r.move_left->count();
    model.set_clock(values, now);
}

}  // namespace xq::client
