#include "server/rooms/lag_tracker.h"

#include <algorithm>

namespace xq::server {

void RoundTrip::record(Millis sample) {
    recent_[count_ % kSamples] = std::max(Millis{}, sample);
    ++count_;
}

Millis RoundTrip::estimate() const {
    const std::size_t n = std::min(count_, kSamples);
    if (n == 0) return Millis{};
    std::array<Millis, kSamples> sorted = recent_;
    std::sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n));
    return sorted[n / 2];
}

Millis LagQuota::gain_for(const TimeControl& control) {
    using std::chrono::duration_cast;
    using std::chrono::seconds;
    const auto estimate_s = duration_cast<seconds>(control.base).count() +
                            40 * duration_cast<seconds>(control.increment).count();
    // scalachess: min(100, estimate * 2 / 5 + 15) centiseconds.
    return Millis{std::min<std::int64_t>(1000, (estimate_s * 2 / 5 + 15) * 10)};
}

LagQuota::LagQuota(const TimeControl& control) : gain_(gain_for(control)), quota_(3 * gain_), max_(7 * gain_) {}

void LagQuota::on_move(Millis given) { quota_ = std::min(max_, quota_ - std::clamp(given, Millis{}, quota_) + gain_); }

}  // namespace xq::server
