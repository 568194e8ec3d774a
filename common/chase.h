#pragma once
// What a side "chases" (捉) in a position: the enemy pieces it could win by a capture that the
// repetition rules count (rules-spec.md section 3). A move chases the pieces in this set after it
// that were not in it before; repetition.cpp intersects those over a cycle.

#include <array>
#include <cstdint>

#include "position.h"
#include "rules_policy.h"

namespace xq {

// Pieces named by a small id (0..15 per colour) so that a chased piece keeps its identity while
// it moves around a cycle. kNoId marks an empty square.
inline constexpr std::int8_t kNoId = -1;
using IdBoard = std::array<std::int8_t, kSquares>;
using PieceIds = std::uint16_t;  // bit i set: the piece with id i

// Numbers the pieces of each colour 0, 1, ... in square order.
IdBoard number_pieces(const Board& board);

// The ids of `attacker`'s opponent's pieces that `attacker` chases on this board, whoever is to
// move: attacks by chariots, horses, cannons, advisors and elephants on anything but the general
// and uncrossed soldiers, by a legal capture, and only when the target is a more valuable kind or
// has no legal recapture; same-type attacks only when the target cannot strike back. An attacker
// in check keeps the captures that only the check makes illegal (they expose its general to no
// new attack), so that answering the check does not make them new.
PieceIds chased_pieces(const Board& board, const IdBoard& ids, Color attacker, const RulesPolicy& policy);

}  // namespace xq
