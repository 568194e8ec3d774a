#pragma once
// The engine's view of the position on screen, for replay and analysis (never while a person is
// being played live): its evaluation from Red's side, and a hint, its best move there. Requests
// run on the engine's thread; poll() picks the answers up on the UI thread. Each search goes to a
// fixed depth from an empty hash, so every window shows the same figure for the same position
// whatever the machine's load or what it analysed before.

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "client/model/game_model.h"
#include "engine/async_engine.h"

namespace xq::client {

struct AnalysisView {
    std::optional<engine::Evaluation> evaluation;  // of the shown position, from Red's side
    std::optional<Move> hint;                      // the best move there, once asked for
    bool busy = false;
    std::string error;
};

class Analysis {
public:
    static constexpr int kDepth = 12;
    explicit Analysis(int depth = kDepth);
    // Asks for the evaluation of what `model` shows now, unless it was asked already.
    void follow(const GameModel& model);
    // Asks for the best move in the shown position.
    void ask_hint(const GameModel& model);
    // Picks up answers; call once per frame.
    const AnalysisView& poll();
    // Picks up an answer that came since the last call, if any: true when one did (a frame's worth).
    bool pick_up();

private:
    struct Slot;
    void ask(const GameModel& model, bool hint);

    engine::AsyncEngine engine_;
    int depth_;
    std::shared_ptr<Slot> slot_;
    std::uint64_t asked_for_ = 0;  // hash of the position last evaluated (placement and side)
    int asked_ply_ = -1;
    AnalysisView view_;
};

}  // namespace xq::client
