#include "server/log/repeat_limiter.h"

namespace xq::server {

std::string RepeatLimiter::summary(std::string_view kind, const Window& w) const {
    return std::to_string(w.seen - first_) + " more like this in the last " + std::to_string(window_.count()) +
           " s: " + std::string(kind) + "...";
}

bool RepeatLimiter::admit(std::string_view kind, Clock::time_point now, std::vector<std::string>& summaries) {
    auto it = windows_.find(std::string(kind));
    if (it == windows_.end()) it = windows_.emplace(std::string(kind), Window{now, 0}).first;
    Window& w = it->second;
    if (now - w.start >= window_) {
        if (w.seen > first_) summaries.push_back(summary(kind, w));
        w = Window{now, 0};
    }
    return ++w.seen <= first_;
}

std::vector<std::string> RepeatLimiter::flush(Clock::time_point now) {
    std::vector<std::string> summaries;
    for (auto it = windows_.begin(); it != windows_.end();) {
        if (now - it->second.start < window_) {
            ++it;
            continue;
        }
        if (it->second.seen > first_) summaries.push_back(summary(it->first, it->second));
        it = windows_.erase(it);  // a quiet kind costs nothing
    }
    return summaries;
}

}  // namespace xq::server
