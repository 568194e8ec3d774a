#pragma once
// The rules core's vocabulary: colours, pieces, squares and moves. Every other file speaks these.

#include <cstdint>
#include <string_view>

namespace xq {

inline constexpr int kFiles = 9;
inline constexpr int kRanks = 10;
inline constexpr int kSquares = kFiles * kRanks;

enum class Color : std::uint8_t { Red = 0, Black = 1 };

constexpr Color operator~(Color c) { return c == Color::Red ? Color::Black : Color::Red; }
constexpr int index_of(Color c) { return static_cast<int>(c); }

enum class PieceType : std::uint8_t {
    None = 0,
    General = 1,
    Advisor = 2,
    Elephant = 3,
    Horse = 4,
    Chariot = 5,
    Cannon = 6,
    Soldier = 7,
};

// A piece in one byte: bits 0-2 the type (0 = empty square), bit 3 set for Black.
enum class Piece : std::uint8_t { None = 0 };

constexpr Piece make_piece(Color c, PieceType t) {
    return static_cast<Piece>(static_cast<unsigned>(t) | (c == Color::Black ? 8u : 0u));
}
constexpr PieceType type_of(Piece p) { return static_cast<PieceType>(static_cast<unsigned>(p) & 7u); }
constexpr Color color_of(Piece p) { return (static_cast<unsigned>(p) & 8u) ? Color::Black : Color::Red; }
constexpr int index_of(Piece p) { return static_cast<int>(p); }

// Squares are 0..89, rank * 9 + file. File 0 is 'a' (Red's left), rank 0 is Red's back rank.
using Square = int;
inline constexpr Square kNoSquare = -1;

constexpr Square make_square(int file, int rank) { return rank * kFiles + file; }
constexpr int file_of(Square s) { return s % kFiles; }
constexpr int rank_of(Square s) { return s / kFiles; }
constexpr bool on_board(int file, int rank) {
    return file >= 0 && file < kFiles && rank >= 0 && rank < kRanks;
}

// Which half of the board a rank belongs to: Red's half is ranks 0-4.
constexpr bool on_own_half(Color c, int rank) { return c == Color::Red ? rank <= 4 : rank >= 5; }
constexpr bool in_palace(Color c, int file, int rank) {
    return file >= 3 && file <= 5 && (c == Color::Red ? rank >= 0 && rank <= 2 : rank >= 7 && rank < kRanks);
}

// A move in 16 bits: bits 0-6 the origin square, bits 7-13 the destination.
// The all-zero value (a0 to a0) is never a real move and serves as "no move".
class Move {
public:
    constexpr Move() = default;
    constexpr Move(Square from, Square to) : bits_(static_cast<std::uint16_t>(from | (to << 7))) {}

    constexpr Square from() const { return bits_ & 0x7f; }
    constexpr Square to() const { return (bits_ >> 7) & 0x7f; }
    constexpr std::uint16_t raw() const { return bits_; }
    constexpr bool is_none() const { return bits_ == 0; }

    friend constexpr bool operator==(Move, Move) = default;
    friend constexpr auto operator<=>(Move, Move) = default;

private:
    std::uint16_t bits_ = 0;
};

std::string_view to_string(Color c);      // "red" / "black"
std::string_view to_string(PieceType t);  // "general", "advisor", ...

}  // namespace xq
