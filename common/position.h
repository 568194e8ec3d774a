#pragma once
// A Xiangqi position as a small value type: placement, side to move, the no-capture counter.
// Copying one costs about 128 bytes, so search and servers copy instead of keeping undo stacks.

#include <array>
#include <cstdint>

#include "types.h"

namespace xq {

// A set of squares in two words: bit s of lo for s < 64, bit s-64 of hi otherwise.
struct SquareSet {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;

    constexpr void add(Square s) { (s < 64 ? lo : hi) |= std::uint64_t{1} << (s & 63); }
    constexpr void remove(Square s) { (s < 64 ? lo : hi) &= ~(std::uint64_t{1} << (s & 63)); }
    constexpr bool contains(Square s) const { return ((s < 64 ? lo : hi) >> (s & 63)) & 1; }
    constexpr bool empty() const { return (lo | hi) == 0; }
    friend constexpr bool operator==(const SquareSet&, const SquareSet&) = default;
    int count() const { return __builtin_popcountll(lo) + __builtin_popcountll(hi); }

    // Calls f(square) for every member, lowest first.
    template <class F>
    void for_each(F&& f) const {
        for (std::uint64_t b = lo; b; b &= b - 1) f(static_cast<Square>(__builtin_ctzll(b)));
        for (std::uint64_t b = hi; b; b &= b - 1) f(static_cast<Square>(64 + __builtin_ctzll(b)));
    }
};

using Board = std::array<Piece, kSquares>;

class Position {
public:
    // The standard opening position, Red to move.
    static Position start();

    // Builds a position from a placement without validating it; parse_fen() is the checked way in.
    static Position from_board(const Board& board, Color side_to_move, int halfmove_clock = 0,
                               int fullmove_number = 1);

    Piece at(Square s) const { return board_[static_cast<std::size_t>(s)]; }
    const Board& board() const { return board_; }
    Color side_to_move() const { return side_; }
    SquareSet pieces(Color c) const { return occupied_[index_of(c)]; }
    Square general(Color c) const { return general_[index_of(c)]; }

    // Plies since the last capture (FEN field 5) and the move number (FEN field 6).
    int halfmove_clock() const { return halfmove_; }
    int fullmove_number() const { return fullmove_; }

    // Placement plus side to move: equal hashes mean the same position for repetition purposes.
    std::uint64_t hash() const { return hash_; }

    // Is the side to move's general attacked (including by the facing enemy general)?
    bool in_check() const;

    // Plays a move assumed legal (check with is_legal() for untrusted input).
    void play(Move m);
    Position with_move(Move m) const {
        Position next = *this;
        next.play(m);
        return next;
    }

    friend bool operator==(const Position&, const Position&) = default;

private:
    Board board_{};
    SquareSet occupied_[2];
    std::uint64_t hash_ = 0;
    std::array<Square, 2> general_{kNoSquare, kNoSquare};
    std::uint16_t halfmove_ = 0;
    std::uint16_t fullmove_ = 1;
    Color side_ = Color::Red;
};

inline constexpr const char* kStartFen =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

}  // namespace xq
