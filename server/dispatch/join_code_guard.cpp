#include "server/dispatch/join_code_guard.h"

#include <cmath>
#include <iterator>

namespace xq::server {

std::string JoinCodeGuard::refusal(const std::string& group, const RoomId& game, TimePoint now) const {
    if (const auto g = games_.find(game);
        g != games_.end() && g->second.wrong >= limits_.per_game && g->second.groups.contains(group))
        return "this game has heard too many wrong join codes: ask its host for a new game";
    const auto it = groups_.find(group);
    if (it == groups_.end() || it->second.has_credit(limits_.per_second, limits_.burst, now)) return "";
    const auto wait = static_cast<long>(std::ceil(it->second.wait_seconds(limits_.per_second, limits_.burst, now)));
    return "too many wrong join codes from your address: try again in " + std::to_string(std::max(1L, wait)) + " s";
}

void JoinCodeGuard::wrong(const std::string& group, const RoomId& game, TimePoint now) {
    (void)groups_[group].take(limits_.per_second, limits_.burst, now);
    Game& g = games_[game];
    ++g.wrong;
    g.groups.insert(group);
}

void JoinCodeGuard::prune(TimePoint now) {
    std::erase_if(groups_, [&](const auto& kv) { return kv.second.full(limits_.per_second, limits_.burst, now); });
}

}  // namespace xq::server
