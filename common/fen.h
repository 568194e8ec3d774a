#pragma once
// FEN in and out. Parsing is strict: every defect gets its own code and a message naming the
// offending square or field, because FENs arrive from users, files and the network.

#include <expected>
#include <string>
#include <string_view>

#include "position.h"

namespace xq {

enum class FenErrorCode {
    Syntax,                // missing placement, unknown or misplaced field, bad counter
    RankCount,             // the placement does not have 10 ranks
    FileCount,             // a rank does not add up to 9 files
    UnknownPiece,          // a letter that is not one of K A B/E N/H R C P (either case)
    TooManyPieces,         // more than 1 general, 2 advisors/elephants/horses/chariots/cannons, 5 soldiers
    MissingGeneral,        // a side has no general
    GeneralOutsidePalace,  // a general off its 3x3 palace
    AdvisorSquare,         // an advisor off the 5 palace points it can ever reach
    ElephantSquare,        // an elephant off the 7 points of its own half it can ever reach
    SoldierSquare,         // a soldier behind its start rank, or off its 5 start files before the river
    GeneralsFacing,        // the two generals on one file with nothing between them
    OpponentInCheck,       // the side not to move is in check (its general could be captured)
    BadSideToMove,         // the side field is not w, r or b
    CounterOutOfRange,     // the no-capture counter (field 5) is outside 0..119: 120 plies end the game
};

// FEN field 5, the no-capture ply counter, is at most this (Pikafish refuses larger values): 120
// counted plies without a capture are a move-limit draw, so no game starts from such a position.
inline constexpr int kMaxNoCapturePlies = 119;

// Stable snake_case name of a code, for JSON and protocol messages ("generals_facing").
std::string_view code_name(FenErrorCode code);

struct FenError {
    FenErrorCode code;
    std::string message;
};

// Accepts "placement side [- - [halfmove [fullmove]]]". Letters B/N and E/H, and w or r for Red.
// halfmove (the no-capture counter) must be 0..119; fullmove is 0..65535 (0 is read as 1).
std::expected<Position, FenError> parse_fen(std::string_view fen);

// Emits the canonical form: letters B and N, "w" for Red, all six fields. The final position of a
// game drawn by the no-capture limit prints counter 120, which parse_fen() refuses: that FEN
// describes a finished game, not a start. (Stored and sent FENs are always game starts.)
std::string to_fen(const Position& pos);

}  // namespace xq
