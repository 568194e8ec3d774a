#include "server/accounts/throttle.h"

#include <algorithm>
#include <vector>

namespace xq::server {

std::chrono::milliseconds LoginThrottle::wait(const std::string& key, Clock::time_point now) const {
    const auto it = entries_.find(key);
    if (it == entries_.end() || it->second.next_allowed <= now) return std::chrono::milliseconds(0);
    return std::chrono::ceil<std::chrono::milliseconds>(it->second.next_allowed - now);
}

void LoginThrottle::failed(const std::string& key, Clock::time_point now) {
    if (entries_.size() >= rules_.max_keys) prune(now);
    Entry& e = entries_[key];
    if (e.failures > 0 && now - e.last > rules_.forget_after) e = Entry{};
    ++e.failures;
    e.last = now;
    const int past = e.failures - rules_.free_failures;
    if (past <= 0) return;
    auto wait = rules_.first_wait;
    for (int i = 1; i < past && wait < rules_.max_wait; ++i) wait *= 2;
    e.next_allowed = now + std::min(wait, rules_.max_wait);
}

void LoginThrottle::prune(Clock::time_point now) {
    std::erase_if(entries_, [&](const auto& kv) {
        return kv.second.next_allowed <= now && now - kv.second.last > rules_.forget_after;
    });
    // Still full (a flood from many keys): the oldest half goes; a forgotten key starts afresh,
    // which only gives back its free tries.
    if (entries_.size() < rules_.max_keys) return;
    std::vector<Clock::time_point> times;
    for (const auto& [k, e] : entries_) times.push_back(e.last);
    auto mid = times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2);
    std::nth_element(times.begin(), mid, times.end());
    const auto cut = *mid;
    std::erase_if(entries_, [&](const auto& kv) { return kv.second.last < cut; });
}

std::chrono::milliseconds RegistrationLimit::wait(const std::string& key, Clock::time_point now) {
    const auto it = recent_.find(key);
    if (it == recent_.end()) return std::chrono::milliseconds(0);
    auto& times = it->second;
    while (!times.empty() && now - times.front() >= window_) times.pop_front();
    if (times.empty()) {
        recent_.erase(it);
        return std::chrono::milliseconds(0);
    }
    if (times.size() < per_window_) return std::chrono::milliseconds(0);
    return std::chrono::ceil<std::chrono::milliseconds>(times.front() + window_ - now);
}

}  // namespace xq::server
