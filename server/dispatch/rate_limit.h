#pragma once
// Per-connection request credits (a token bucket). Each request but a Ping spends one credit;
// credits come back at a steady rate up to a burst. A request with no credit is refused
// (RATE_LIMITED) and counts a strike; strikes fade at the refill rate, so only a client that
// keeps flooding piles up enough of them to be disconnected.

#include <algorithm>
#include <chrono>

namespace xq::server {

struct RateLimits {
    double per_second = 20;  // credits refilled per second; 0 turns the limit off
    double burst = 40;       // credits a quiet connection has in hand
    double max_strikes = 60;  // refusals (net of fading) that close the connection
};

class RateLimiter {
public:
    using TimePoint = std::chrono::steady_clock::time_point;
    enum class Verdict { Allowed, Refused, Close };

    Verdict take(const RateLimits& limits, TimePoint now) {
        if (limits.per_second <= 0) return Verdict::Allowed;
        if (!started_) {
            started_ = true;
            credits_ = limits.burst;
        } else {
            const double gained = std::chrono::duration<double>(now - last_).count() * limits.per_second;
            credits_ = std::min(limits.burst, credits_ + gained);
            strikes_ = std::max(0.0, strikes_ - gained);
        }
        last_ = now;
        if (credits_ >= 1) {
            credits_ -= 1;
            return Verdict::Allowed;
        }
        strikes_ += 1;
        return strikes_ > limits.max_strikes ? Verdict::Close : Verdict::Refused;
    }

private:
    double credits_ = 0;
    double strikes_ = 0;
    TimePoint last_{};
    bool started_ = false;
};

}  // namespace xq::server
