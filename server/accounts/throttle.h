#pragma once
// Limits on guessing and on sign-ups. Failed logins are counted per address group and per
// account; past a few free tries each further failure doubles the wait before the next try, up to
// a cap, and a success (or an hour without failures) clears the count: slow for an attacker,
// never a permanent lock-out another could use to keep a player from its account (and a player
// with a saved session token logs in without a password, so no throttle stands in its way).
// Registrations are limited per address group in a sliding hour. Single-threaded (the loop's).

#include <chrono>
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace xq::server {

struct BackoffRules {
    int free_failures = 5;                        // failures before any wait
    std::chrono::milliseconds first_wait{1000};   // after the first failure past the free ones
    std::chrono::milliseconds max_wait{std::chrono::minutes(5)};
    std::chrono::milliseconds forget_after{std::chrono::hours(1)};  // a quiet key starts afresh
    std::size_t max_keys = 100'000;  // past this, keys with nothing to remember are dropped
};

class LoginThrottle {
public:
    using Clock = std::chrono::steady_clock;
    explicit LoginThrottle(BackoffRules rules = {}) : rules_(rules) {}

    // How long `key` must still wait before another try (zero: it may try now).
    std::chrono::milliseconds wait(const std::string& key, Clock::time_point now) const;
    void failed(const std::string& key, Clock::time_point now);
    void succeeded(const std::string& key) { entries_.erase(key); }
    std::size_t keys() const { return entries_.size(); }

private:
    struct Entry {
        int failures = 0;
        Clock::time_point last;
        Clock::time_point next_allowed;
    };
    void prune(Clock::time_point now);

    BackoffRules rules_;
    std::unordered_map<std::string, Entry> entries_;
};

class RegistrationLimit {
public:
    using Clock = std::chrono::steady_clock;
    RegistrationLimit(std::size_t per_window, std::chrono::milliseconds window) : per_window_(per_window), window_(window) {}

    // How long `key` must wait before registering again (zero: now).
    std::chrono::milliseconds wait(const std::string& key, Clock::time_point now);
    void registered(const std::string& key, Clock::time_point now) { recent_[key].push_back(now); }

private:
    std::size_t per_window_;
    std::chrono::milliseconds window_;
    std::unordered_map<std::string, std::deque<Clock::time_point>> recent_;
};

}  // namespace xq::server
