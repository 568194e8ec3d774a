#pragma once
// Move text in the three notations players use: ICCS coordinates ("h2e2"), WXF ("C2=5") and
// Chinese ("炮二平五"). Moves are stored as coordinates; text is rendered and parsed on demand
// against the position the move is played from.

#include <expected>
#include <string>
#include <string_view>

#include "movegen.h"

namespace xq {

// Rendering picks one form per notation: WXF writes "R+=3" for tandem pieces and Fairy-Stockfish's
// "15=6" for crowded soldiers; Chinese writes Black's numbers as ASCII digits. Parsing accepts every
// convention of WXF and xqbase Chinese as real archives write them, full-width forms, glyph
// variants and DhtmlXQ's "7747".
enum class Notation {
    Iccs,                // h2e2
    Wxf,                 // C2=5, H8+7, R+=3
    Chinese,             // 炮二平五 / 马8进7, simplified glyphs
    ChineseTraditional,  // 炮二平五 / 馬8進7, traditional glyphs
};

enum class MoveTextErrorCode {
    InvalidSyntax,  // not a move in any notation we read
    IllegalMove,    // well formed, but no legal move in this position fits it
    AmbiguousMove,  // well formed, and more than one legal move fits it
};

struct MoveTextError {
    MoveTextErrorCode code;
    std::string message;
};

// Stable snake_case names: "invalid_move_syntax", "illegal_move", "ambiguous_move".
std::string_view code_name(MoveTextErrorCode code);
std::string_view to_string(Notation n);  // "iccs", "wxf", "chinese", "chinese_traditional"

// The glyph Chinese move text writes for a piece (traditional unless `notation` is Chinese): a
// board that draws its pieces with it shows the same characters as its move list.
std::string_view chinese_glyph(Piece piece, Notation notation);

// Renders a legal move of pos in the given notation.
std::string render_move(const Position& pos, Move m, Notation notation);

// Parses move text in any of the notations (detected from the text) against pos.
std::expected<Move, MoveTextError> parse_move(const Position& pos, std::string_view text);

// Parses move text that must be in the given notation (Chinese accepts both glyph sets).
std::expected<Move, MoveTextError> parse_move(const Position& pos, std::string_view text, Notation notation);

}  // namespace xq
