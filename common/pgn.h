#pragma once
// Game records in PGN, both flavours met in the wild: the xqbase style (`[Game "Chinese Chess"]`,
// Red/Black tags, Chinese move text unless `[Format]` says WXF or ICCS) and the engine/GUI style
// (`[Variant "xiangqi"]`, White/Black tags, ICCS coordinates). Text is UTF-8; converting other
// encodings is the caller's business. Reading is lenient about what real archives do (see
// notation.md §2.5) and strict about moves: every move is checked against the legal moves.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "notation.h"

namespace xq {

enum class PgnStyle {
    Xqbase,  // [Game "Chinese Chess"], Red/Black, move text in the chosen notation
    Engine,  // [Variant "xiangqi"], White/Black, 0-based ICCS coordinates ("h2e2")
};

struct PgnTag {
    std::string name;
    std::string value;
    friend bool operator==(const PgnTag&, const PgnTag&) = default;
};

// One game. Moves are coordinates; text is rendered against the position each is played from.
struct PgnGame {
    std::vector<PgnTag> tags;            // every tag as read (or to be written), in order
    Position start = Position::start();  // from the FEN tag, else the standard start
    std::vector<Move> moves;             // the main line
    std::vector<std::string> comments;   // comments[i] follows moves[i]; "" for none (may be short)
    std::string opening_comment;         // a comment before the first move
    std::string result = "*";            // "1-0" (Red wins), "0-1", "1/2-1/2" or "*"

    // The value of the first tag with this name (names compare case-sensitively, as PGN does).
    std::optional<std::string> tag(std::string_view name) const;
    // Replaces the first tag with this name, or appends one.
    void set_tag(std::string_view name, std::string_view value);
    // The comment after move i, or "" when there is none.
    std::string_view comment_after(std::size_t i) const;
    // The position after every move has been played.
    Position final_position() const;
};

enum class PgnErrorCode {
    Syntax,         // unbalanced {} or (), stray characters, a tag in the middle of the moves
    BadTag,         // a tag line that is not [Name "value"]
    BadFen,         // the FEN tag does not parse
    IllegalMove,    // well-formed move text that no legal move fits
    AmbiguousMove,  // move text that more than one legal move fits
    InvalidMove,    // a token that is not a move in any notation we read
};

// Stable snake_case names for JSON: "pgn_syntax", "pgn_bad_tag", "pgn_bad_fen",
// "pgn_illegal_move", "pgn_ambiguous_move", "pgn_invalid_move".
std::string_view code_name(PgnErrorCode code);

struct PgnError {
    PgnErrorCode code;
    std::string message;
    int line = 0;      // 1-based line of the input where the problem is
    int ply = 0;       // 1-based ply of the offending move; 0 when the error is not about a move
    std::string text;  // the offending token or tag line
};

// A game as read: complete, or everything before the first error together with that error.
struct PgnReadResult {
    PgnGame game;
    std::optional<PgnError> error;
    bool ok() const { return !error.has_value(); }
};

// Reads every game in a file. A leading UTF-8 BOM is skipped. An error ends its own game only:
// reading resumes at the next game's tag section.
std::vector<PgnReadResult> read_pgn(std::string_view utf8);

// Writes one game. `notation` applies to the xqbase style (Chinese, ChineseTraditional, Wxf or
// Iccs; the last two add a [Format] tag); the engine style always writes ICCS coordinates. Tags
// the writer owns (Game, Variant, Format, FEN, SetUp, Result) are taken from the record's fields,
// and Red/White are renamed to suit the style. The moves must be legal from `start`.
std::string write_pgn(const PgnGame& game, PgnStyle style = PgnStyle::Xqbase,
                      Notation notation = Notation::Chinese);

// Is this one of "1-0", "0-1", "1/2-1/2", "*"?
bool is_pgn_result(std::string_view text);

}  // namespace xq
