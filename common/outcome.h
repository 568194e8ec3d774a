#pragma once
// How a position or a game stands: still being played, or won/drawn and why. A bare position only
// knows mate, stalemate and insufficient material; Game (game.h) adds the rulings that need the
// move history (repetition, the no-capture limit) and the ones players make (resign, agree, flag).

#include <string_view>

#include "position.h"

namespace xq {

enum class Result { Ongoing, RedWins, BlackWins, Draw };

// Why a game ended. The snake_case names from to_string() are stable: tools print them in JSON.
enum class Reason {
    None,
    Checkmate,
    Stalemate,
    PerpetualCheck,        // the side that checked on every move of a 3-fold cycle loses
    PerpetualChase,        // the side that chased one piece on every move of a 3-fold cycle loses
    Repetition,            // 3-fold repetition that forbids nobody: a draw
    MoveLimit,             // 120 counted plies without a capture: a draw
    InsufficientMaterial,  // neither side can force mate
    Resignation,
    Agreement,
    Timeout,  // loss on time, or a draw when the other side cannot mate
    Abandonment,  // claimed by the player whose opponent left and did not come back in time
};

struct Outcome {
    Result result = Result::Ongoing;
    Reason reason = Reason::None;
    friend bool operator==(const Outcome&, const Outcome&) = default;
};

// A side to move with no legal move loses: checkmate when in check, stalemate otherwise.
Outcome position_outcome(const Position& pos);

// The win for the other side of `loser`.
constexpr Result loss_for(Color loser) { return loser == Color::Red ? Result::BlackWins : Result::RedWins; }

// Pikafish's material table (applied only when no soldier is left). UnlessMateInOne: a draw
// unless the side to move is mated or can mate in one move.
enum class MaterialDraw { No, Direct, UnlessMateInOne };
MaterialDraw material_draw_level(const Position& pos);

// The full insufficient-material ruling, including the mate-in-one test where the table needs it.
bool insufficient_material(const Position& pos);

// Could `side` ever mate with what it has? False when it has only its general, advisors and
// elephants: none of them can cross the river. Used for loss on time.
bool has_mating_material(const Position& pos, Color side);

std::string_view to_string(Result r);  // "ongoing", "red_wins", "black_wins", "draw"
std::string_view to_string(Reason r);  // "checkmate", "perpetual_chase", ...; "" for None

}  // namespace xq
