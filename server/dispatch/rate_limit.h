#pragma once
// Request credits. TokenBucket: credits come back at a steady rate up to a burst, and each action
// spends one. RateLimiter, per connection: each request but a Ping spends one credit; a request
// with no credit is refused (RATE_LIMITED) and counts a strike; strikes fade at the refill rate,
// so only a client that keeps flooding piles up enough of them to be disconnected.

#include <algorithm>
#include <chrono>

namespace xq::server {

class TokenBucket {
public:
    using TimePoint = std::chrono::steady_clock::time_point;

    // Spends a credit if there is one. A bucket starts full.
    bool take(double per_second, double burst, TimePoint now) {
        refill(per_second, burst, now);
        if (credits_ < 1) return false;
        credits_ -= 1;
        return true;
    }
    // Whether a credit is there, spending nothing.
    bool has_credit(double per_second, double burst, TimePoint now) const {
        return credits_at(per_second, burst, now) >= 1;
    }
    // Full again: the bucket can be forgotten (a new one starts full).
    bool full(double per_second, double burst, TimePoint now) const {
        return credits_at(per_second, burst, now) >= burst;
    }
    // Seconds until the next credit (0 when there is one).
    double wait_seconds(double per_second, double burst, TimePoint now) const {
        const double missing = 1 - credits_at(per_second, burst, now);
        return missing <= 0 || per_second <= 0 ? 0 : missing / per_second;
    }
private:
    void refill(double per_second, double burst, TimePoint now) {
        credits_ = credits_at(per_second, burst, now);
        started_ = true;
        last_ = now;
    }

    double credits_at(double per_second, double burst, TimePoint now) const {
        if (!started_) return burst;
        const double gained = std::chrono::duration<double>(now - last_).count() * per_second;
        return std::min(burst, credits_ + std::max(0.0, gained));
    }

    double credits_ = 0;
    TimePoint last_{};
    bool started_ = false;
};

struct RateLimits {
    double per_second = 20;  // credits refilled per second; 0 turns every limit here off
    double burst = 40;       // credits a quiet connection has in hand
    double max_strikes = 60;  // refusals (net of fading) that close the connection
    // Requests per address group (server/net/address_group.h), all its connections together.
    double group_per_second = 160;
    double group_burst = 320;
    // Chat lines per address group, so that many connections from one place cannot flood a
    // game's chat together.
    double chat_per_second = 2;
    double chat_burst = 20;
};

class RateLimiter {
public:
    using TimePoint = std::chrono::steady_clock::time_point;
    enum class Verdict { Allowed, Refused, Close };

    Verdict take(const RateLimits& limits, TimePoint now) {
        if (limits.per_second <= 0) return Verdict::Allowed;
        // Strikes fade at the refill rate, over the whole time (not capped at the burst as credits are).
        if (last_ != TimePoint{})
            strikes_ = std::max(0.0, strikes_ - std::chrono::duration<double>(now - last_).count() * limits.per_second);
        last_ = now;
        if (credits_.take(limits.per_second, limits.burst, now)) return Verdict::Allowed;
        strikes_ += 1;
        return strikes_ > limits.max_strikes ? Verdict::Close : Verdict::Refused;
    }

private:
    TokenBucket credits_;
    double strikes_ = 0;
    TimePoint last_{};
};

}  // namespace xq::server
