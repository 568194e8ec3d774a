#pragma once
// Legal move generation. Pseudo-legal moves come from the geometry tables; a move is kept when it
// cannot expose its own general, which is tested only for the few moves that could (see movegen.cpp).

#include <array>
#include <cassert>
#include <cstddef>

#include "position.h"

namespace xq {

// A fixed-capacity list of moves. 128 covers every position parse_fen() accepts (at most 119
// pseudo-legal moves with the standard piece counts), so generation never allocates.
class MoveList {
public:
    static constexpr std::size_t kCapacity = 128;

    void push(Move m) {
        assert(size_ < kCapacity);
        moves_[size_++] = m;
    }
    void clear() { size_ = 0; }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Move operator[](std::size_t i) const { return moves_[i]; }
    const Move* begin() const { return moves_.data(); }
    const Move* end() const { return moves_.data() + size_; }
    bool contains(Move m) const;

private:
    std::array<Move, kCapacity> moves_{};
    std::size_t size_ = 0;
};

// Every legal move of the side to move, grouped by origin square (lowest first).
MoveList legal_moves(const Position& pos);

// The legal moves of the piece on `from` (empty unless it belongs to the side to move): what a
// board highlights when a player picks the piece up.
MoveList legal_moves_from(const Position& pos, Square from);

// Is this one move legal here? Cheaper than generating every move; the server's fast path.
bool is_legal(const Position& pos, Move m);

std::size_t count_legal_moves(const Position& pos);
bool has_legal_move(const Position& pos);

// Moves that follow each piece's movement rules but may leave the own general attacked.
MoveList pseudo_legal_moves(const Position& pos);

}  // namespace xq
