#include "outcome.h"

#include "movegen.h"

namespace xq {

Outcome position_outcome(const Position& pos) {
    if (has_legal_move(pos)) return {};
    const Result loss = pos.side_to_move() == Color::Red ? Result::BlackWins : Result::RedWins;
    // Unlike chess, stalemate is no draw: the side that cannot move has lost.
    return {loss, pos.in_check() ? Reason::Checkmate : Reason::Stalemate};
}

std::string_view to_string(Result r) {
    switch (r) {
        case Result::Ongoing: return "ongoing";
        case Result::RedWins: return "red_wins";
        case Result::BlackWins: return "black_wins";
        case Result::Draw: return "draw";
    }
    return "ongoing";
}

std::string_view to_string(Reason r) {
    switch (r) {
        case Reason::Checkmate: return "checkmate";
        case Reason::Stalemate: return "stalemate";
        case Reason::None: break;
    }
    return "";
}

}  // namespace xq
