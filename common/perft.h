#pragma once
// Perft: the number of legal move paths of a given depth, the standard exactness test for a move
// generator. The last ply is counted in bulk (legal moves counted, not played).

#include <cstdint>
#include <utility>
#include <vector>

#include "position.h"

namespace xq {

std::uint64_t perft(const Position& pos, int depth);

// The perft count below each legal root move, in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos, int depth);

}  // namespace xq
