#include "clock_model.h"

#include <algorithm>
#include <cstdio>

namespace xq::client {

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
    if (remaining(side, now) < 20'000) return true;
    const auto cap = move_cap_left(now);
    return cap && values_.running == side && *cap < 10'000;
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

}  // namespace xq::client
