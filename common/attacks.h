#pragma once
// Attack tests on a raw board. Internal to common/: move generation calls them on a scratch copy
// of the board with one move applied, which is how every legality question is finally answered.

#include "geometry.h"
#include "types.h"

namespace xq::detail {

// Would a general standing on s be attacked by `them`? Advisors, elephants and the enemy general's
// own step can never reach a general's palace, so only chariots, cannons, horses, soldiers and the
// facing-generals rule are asked about.
inline bool general_attacked(const Piece* board, Square s, Color them) {
    const auto& t = geo::kTables;
    const Piece chariot = make_piece(them, PieceType::Chariot);
    const Piece cannon = make_piece(them, PieceType::Cannon);
    const Piece general = make_piece(them, PieceType::General);
    const Piece horse = make_piece(them, PieceType::Horse);
    const Piece soldier = make_piece(them, PieceType::Soldier);

    for (int d = 0; d < 4; ++d) {
        const geo::Ray& ray = t.rays[s][d];
        int i = 0;
        while (i < ray.length && board[ray.squares[i]] == Piece::None) ++i;
        if (i == ray.length) continue;
        const Piece first = board[ray.squares[i]];
        // The facing-generals rule: an enemy general on an open file attacks like a chariot.
        if (first == chariot || (first == general && d <= geo::South)) return true;
        ++i;
        while (i < ray.length && board[ray.squares[i]] == Piece::None) ++i;
        if (i < ray.length && board[ray.squares[i]] == cannon) return true;
    }
    const geo::StepList& horses = t.horse_attackers[s];
    for (int i = 0; i < horses.size; ++i)
        if (board[horses.steps[i].square] == horse && board[horses.steps[i].block] == Piece::None)
            return true;
    const geo::SquareList& soldiers = t.soldier_attackers[index_of(them)][s];
    for (int i = 0; i < soldiers.size; ++i)
        if (board[soldiers.squares[i]] == soldier) return true;
    return false;
}

}  // namespace xq::detail
