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

}  // namespace xq::bot
