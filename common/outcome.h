#pragma once
// How a position stands: still being played, or won/drawn and why. The game rulings (repetition,
// the no-capture limit) build on this; a bare position only knows mate and stalemate.

#include <string_view>

#include "position.h"

namespace xq {

enum class Result { Ongoing, RedWins, BlackWins, Draw };
enum class Reason { None, Checkmate, Stalemate };

struct Outcome {
    Result result = Result::Ongoing;
    Reason reason = Reason::None;
    friend bool operator==(const Outcome&, const Outcome&) = default;
};

// A side to move with no legal move loses: checkmate when in check, stalemate otherwise.
Outcome position_outcome(const Position& pos);

std::string_view to_string(Result r);  // "ongoing", "red_wins", "black_wins", "draw"
std::string_view to_string(Reason r);  // "checkmate", "stalemate"; "" for None

}  // namespace xq
