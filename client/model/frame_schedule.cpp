#include "frame_schedule.h"

#include <algorithm>

namespace xq::client {

void FrameSchedule::request_at(std::optional<TimePoint> when) {
    if (when && (!at_ || *when < *at_)) at_ = when;
}

void FrameSchedule::drawn() {
    requested_ = false;
    at_.reset();
}

std::chrono::milliseconds FrameSchedule::sleep(TimePoint now, std::chrono::milliseconds poll) const {
    if (due(now)) return std::chrono::milliseconds(0);
    if (!at_) return poll;
    // Rounded up: waking a little early would only find the frame not due yet and sleep again.
    return std::min(poll, std::chrono::ceil<std::chrono::milliseconds>(*at_ - now));
}

}  // namespace xq::client
