#include "perft.h"

#include "movegen.h"

namespace xq {

std::uint64_t perft(const Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return count_legal_moves(pos);
    std::uint64_t nodes = 0;
    for (Move m : legal_moves(pos)) nodes += perft(pos.with_move(m), depth - 1);
    return nodes;
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos, int depth) {
    std::vector<std::pair<Move, std::uint64_t>> out;
    for (Move m : legal_moves(pos)) out.emplace_back(m, perft(pos.with_move(m), depth - 1));
    return out;
}

}  // namespace xq
