#include "ratings_model.h"

#include <algorithm>
#include <cmath>

#include "common/speed.h"

namespace xq::client {

const char* speed_name(SpeedPool speed) {
    switch (speed) {
        case SpeedPool::Bullet: return "Bullet";
        case SpeedPool::Blitz: return "Blitz";
        case SpeedPool::Rapid: return "Rapid";
        case SpeedPool::Classical: return "Classical";
    }
    return "?";
}

SpeedPool speed_pool(const TimeControlChoice& tc) {
    using timekeeping::Millis;
    const timekeeping::TimeControl t{Millis(tc.base_minutes * 60'000), Millis(tc.increment_seconds * 1000), std::nullopt};
    return timekeeping::speed_of(t);
}

std::string rating_text(const std::optional<RatingView>& r) {
    if (!r) return "";
    return std::to_string(r->rating) + (r->provisional ? "?" : "");
}

std::string change_text(int before, int after) {
    const int d = after - before;
    if (d == 0) return "±0";
    return (d > 0 ? "+" : "") + std::to_string(d);
}

std::string lag_text(std::uint32_t ms) { return ms == 0 ? "" : std::to_string(ms) + " ms"; }

double PlotScale::x(std::int64_t at_ms) const {
    if (last_ms <= first_ms) return 0.5;
    return static_cast<double>(at_ms - first_ms) / static_cast<double>(last_ms - first_ms);
}

double PlotScale::y(int rating) const {
    return static_cast<double>(rating - low) / static_cast<double>(std::max(1, high - low));
}

PlotScale plot_scale(const std::vector<const std::vector<RatingPointView>*>& histories) {
    PlotScale s;
    bool any = false;
    int lo = 0, hi = 0;
    for (const auto* h : histories) {
        for (const auto& p : *h) {
            if (!any) {
                lo = hi = p.rating;
                s.first_ms = s.last_ms = p.at_ms;
                any = true;
            }
            lo = std::min(lo, p.rating);
            hi = std::max(hi, p.rating);
            s.first_ms = std::min(s.first_ms, p.at_ms);
            s.last_ms = std::max(s.last_ms, p.at_ms);
        }
    }
    if (!any) return s;
    // Round ticks giving four to eight labelled lines over the range.
    const int span = std::max(hi - lo, 40);
    for (int tick : {10, 20, 25, 50, 100, 200, 250, 500}) {
        s.tick = tick;
        if (span / tick <= 6) break;
    }
    s.low = static_cast<int>(std::floor(static_cast<double>(lo - s.tick / 2) / s.tick)) * s.tick;
    s.high = static_cast<int>(std::ceil(static_cast<double>(hi + s.tick / 2) / s.tick)) * s.tick;
    return s;
}

}  // namespace xq::client
