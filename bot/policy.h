#pragma once
// When the bot gives up, agrees to a draw and how long it thinks. All from the bot's own view.
//
// Resign: when the engine reports a forced mate against the bot, or an evaluation below
//   -1500 cp (from the bot's side) after 3 of its own moves in a row.
// Draw offers: accepted once 30 full moves have been played (60 plies) if the bot's latest
//   evaluation is below +50 cp; declined before that or with no evaluation yet.
// Takeback requests: always declined.
// The bot never offers a draw itself.

#include <cstdint>
#include <optional>

#include "common/types.h"
#include "engine/engine.h"

namespace xq::bot {

struct Policy {
    int resign_below_cp = -1500;
    int resign_after_moves = 3;    // consecutive own moves below resign_below_cp
    int draw_below_cp = 50;
    int draw_from_ply = 60;        // 30 full moves
};

// Counts the bot's consecutive hopeless evaluations.
class ResignTracker {
public:
    explicit ResignTracker(Policy policy = {}) : policy_(policy) {}
    // Records the evaluation the bot's latest move was chosen with; true: resign now.
    bool record(const engine::Evaluation& evaluation, Color me);
    void reset() { streak_ = 0; }

private:
    Policy policy_;
    int streak_ = 0;
};

// Accept the opponent's draw offer? `evaluation` is the bot's latest (none: no search yet).
bool accept_draw(const Policy& policy, const std::optional<engine::Evaluation>& evaluation, Color me, int plies);

}  // namespace xq::bot
