#include "bot/policy.h"

#include <algorithm>

namespace xq::bot {

bool ResignTracker::record(const engine::Evaluation& evaluation, Color me) {
    if (evaluation.mate && evaluation.mate->winner != me) return true;
    streak_ = evaluation.for_side(me) < policy_.resign_below_cp ? streak_ + 1 : 0;
    return streak_ >= policy_.resign_after_moves;
}

bool accept_draw(const Policy& policy, const std::optional<engine::Evaluation>& evaluation, Color me, int plies) {
    return evaluation && plies >= policy.draw_from_ply && evaluation->for_side(me) < policy.draw_below_cp;
}

int think_time_ms(int level_ms, std::int64_t remaining_ms, std::int64_t increment_ms,
                  std::optional<std::int64_t> move_cap_left_ms) {
    constexpr std::int64_t kFloor = 10;
    // Network and engine start-up eat into every move: keep this much of any bound unused.
    constexpr std::int64_t kMargin = 300;
    std::int64_t budget = level_ms;
    budget = std::min(budget, std::max<std::int64_t>(remaining_ms - kMargin, 0) / 20 + increment_ms * 3 / 4);
    if (move_cap_left_ms) budget = std::min(budget, *move_cap_left_ms - kMargin);
    return static_cast<int>(std::max(budget, kFloor));
}

}  // namespace xq::bot
