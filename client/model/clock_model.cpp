#include "clock_model.h"

#include <algorithm>
#include <cstdio>

namespace xq::client {

namespace {

// Under these the clock, or the time left for the move, is drawn as low.
constexpr Millis kLowClock = 20'000;
constexpr Millis kLowMove = 10'000;

}  // namespace

void ClockModel::set(const ClockValues& values, TimePoint received) {
    values_ = values;
    received_ = received;
    known_ = true;
}

void ClockModel::stop() {
    const TimePoint now = SteadyClock::now();
    values_.red_ms = remaining(Color::Red, now);
    values_.black_ms = remaining(Color::Black, now);
    values_.running.reset();
    values_.move_cap_ms.reset();
    values_.first_move_ms.reset();
}

Millis ClockModel::elapsed(TimePoint now) const {
    if (now <= received_) return 0;
    return std::chrono::duration_cast<std::chrono::milliseconds>(now - received_).count();
}

Millis ClockModel::remaining(Color side, TimePoint now) const {
    const Millis base = side == Color::Red ? values_.red_ms : values_.black_ms;
    if (values_.running != side) return std::max<Millis>(0, base);
    return std::max<Millis>(0, base - elapsed(now));
}

std::optional<Millis> ClockModel::move_cap_left(TimePoint now) const {
    if (!values_.move_cap_ms || !values_.running) return std::nullopt;
    return std::max<Millis>(0, *values_.move_cap_ms - elapsed(now));
}

std::optional<Millis> ClockModel::first_move_left(TimePoint now) const {
    if (!values_.first_move_ms) return std::nullopt;
    return std::max<Millis>(0, *values_.first_move_ms - elapsed(now));
}

bool ClockModel::low(Color side, TimePoint now) const {
    if (!known_) return false;
    if (remaining(side, now) < kLowClock) return true;
    const auto cap = move_cap_left(now);
    return cap && values_.running == side && *cap < kLowMove;
}

std::optional<TimePoint> ClockModel::next_change(TimePoint now) const {
    std::optional<Millis> wait;
    const auto sooner = [&](std::optional<Millis> w) {
        if (w && (!wait || *w < *wait)) wait = w;
    };
    if (values_.running) sooner(until_shown_change(remaining(*values_.running, now), kLowClock));
    if (const auto cap = move_cap_left(now)) sooner(until_shown_change(*cap, kLowMove));
    if (const auto first = first_move_left(now)) sooner(until_shown_change(*first, kLowMove));
    // `now` counted whole milliseconds elapsed, rounded down: this deadline is never early.
    if (!wait) return std::nullopt;
    return now + std::chrono::milliseconds(*wait);
}

std::string format_clock(Millis ms) {
    ms = std::max<Millis>(0, ms);
    char text[32];
    if (ms < 10'000) {
        std::snprintf(text, sizeof text, "%lld.%lld", static_cast<long long>(ms / 1000),
                      static_cast<long long>(ms % 1000 / 100));
        return text;
    }
    // Whole seconds round up, so a clock reading 0:01 still has time left.
    const long long seconds = (ms + 999) / 1000;
    if (seconds >= 3600)
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", seconds / 3600, seconds / 60 % 60, seconds % 60);
    else
        std::snprintf(text, sizeof text, "%lld:%02lld", seconds / 60, seconds % 60);
    return text;
}

std::optional<Millis> until_shown_change(Millis left, std::optional<Millis> threshold) {
    // The highest value under `left` that looks different; format_clock's rules backwards.
    Millis next = -1;
    if (left >= 10'000)
        next = std::max<Millis>(((left + 999) / 1000 - 1) * 1000, 9'999);  // whole seconds round up
    else if (left >= 100)
        next = left / 100 * 100 - 1;  // tenths round down
    if (threshold && left >= *threshold) next = std::max(next, *threshold - 1);
    if (next < 0) return std::nullopt;
    return left - next;
}

}  // namespace xq::client
