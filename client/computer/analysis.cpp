#include "analysis.h"

#include "common/movegen.h"

namespace xq::client {

struct Analysis::Slot {
    std::mutex mutex;
    std::optional<engine::AsyncEngine::MoveResult> result;
    bool hint = false;
};

Analysis::Analysis(int depth) : engine_(engine::EngineOptions{}), depth_(depth) {}

void Analysis::ask(const GameModel& model, bool hint) {
    slot_ = std::make_shared<Slot>();  // an answer for an older position lands in the old slot
    slot_->hint = hint;
    view_.busy = true;
    view_.error.clear();
    std::weak_ptr<Slot> slot = slot_;
    // The shown ply's moves from the start, so the engine knows the history (repetitions).
    const std::vector<Move> moves(model.moves().begin(), model.moves().begin() + model.view_ply());
    engine::SearchLimits limits;
    limits.depth = depth_;
    engine_.new_game();  // an empty hash: the figure depends on the position alone
    engine_.best_move(model.position_at(0), moves, limits,
                      [slot](engine::AsyncEngine::MoveResult result) {
                          if (auto s = slot.lock()) {
                              std::lock_guard lock(s->mutex);
                              s->result = std::move(result);
                          }
                      });
}

void Analysis::follow(const GameModel& model) {
    const Position& pos = model.position_at(model.view_ply());
    if (pos.hash() == asked_for_ && model.view_ply() == asked_ply_) return;
    asked_for_ = pos.hash();
    asked_ply_ = model.view_ply();
    view_.evaluation.reset();
    view_.hint.reset();
    if (!has_legal_move(pos)) {
        // Mate or stalemate: nothing to search; the side to move has lost.
        view_.evaluation = engine::Evaluation{pos.side_to_move() == Color::Red ? -engine::kMateCentipawns
                                                                                : engine::kMateCentipawns,
                                              engine::Mate{~pos.side_to_move(), 0}, 0};
        view_.busy = false;
        return;
    }
    ask(model, false);
}

void Analysis::ask_hint(const GameModel& model) {
    follow(model);
    if (view_.hint || !has_legal_move(model.position_at(model.view_ply()))) return;
    ask(model, true);
}

const AnalysisView& Analysis::poll() {
    pick_up();
    return view_;
}

bool Analysis::pick_up() {
    if (!slot_) return false;
    std::lock_guard lock(slot_->mutex);
    if (!slot_->result) return false;
    view_.busy = false;
    if (*slot_->result) {
        view_.evaluation = (*slot_->result)->evaluation;
        if (slot_->hint) view_.hint = (*slot_->result)->move;
    } else {
        view_.error = slot_->result->error().message;
    }
    slot_->result.reset();
    return true;
}

}  // namespace xq::client
