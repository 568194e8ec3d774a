#pragma once
// Shared by the WXF and Chinese notations (internal to xq_common). Both say the same four things:
// which piece, which of its twins or which file, the direction, and a target (steps or a file).
// Parsers turn text into a MoveSpec and resolve it against the legal moves; renderers describe a
// move with MoveParts and Twins and spell those out.

#include <expected>
#include <string>
#include <string_view>

#include "notation.h"

namespace xq::detail {

enum class Direction { Forward, Backward, Sideways };

// How the text picks the moving piece. `file` and `index` below give the numbers.
enum class Selector {
    File,           // any piece of the type on `file` (plain digit, also used when 前/后 was left out)
    Front,          // frontmost of two or more on one file (前, WXF + with at most 3 on the file)
    Middle,         // the middle one of an odd number (3 or 5) on one file (中)
    Rear,           // rearmost of two or more on one file (后)
    WxfPlus,        // WXF page "+": frontmost when 2-3 share the file, second when 4-5 do
    WxfMinus,       // WXF page "-": rearmost when 2-3 share the file, second last when 4-5 do
    WxfPlusPlus,    // WXF page "++": frontmost of 4-5 on one file
    WxfMinusMinus,  // WXF page "--": rearmost of 4-5 on one file
    FileFront,      // WXF page "6+" (two crowded files): front one on `file`
    FileRear,       // WXF page "6-": rear one on `file`
    FileNth,        // Fairy-Stockfish "26": the `index`-th from the front (1-based) on `file`
    GroupNth,       // xqbase 一兵..五兵: the `index`-th (1-based) soldier of the crowded-file group
};

struct MoveSpec {
    PieceType type = PieceType::None;
    Selector selector = Selector::File;
    int file = 0;   // 1-9 counted from the mover's right; 0 when the selector needs none
    int index = 0;  // 1-based, for FileNth and GroupNth
    Direction direction = Direction::Forward;
    int target = 0;           // steps for straight vertical moves, otherwise a file 1-9
    bool wxf_middle = false;  // a plain WXF file digit names the middle of 3 or 5 soldiers
};

// Files counted 1-9 from each side's own right: Red's 1 is file i, Black's 1 is file a.
constexpr int own_file(Color c, int file) { return c == Color::Red ? kFiles - file : file + 1; }
constexpr int board_file(Color c, int own) { return c == Color::Red ? kFiles - own : own - 1; }

// The four parts of a move, read from the position it is played in.
struct MoveParts {
    Color color = Color::Red;
    PieceType type = PieceType::None;
    int file = 0;  // own-right number of the origin file
    Direction direction = Direction::Forward;
    int target = 0;
};
MoveParts describe(const Position& pos, Move m);

// Where a piece stands among the same-coloured pieces of its type.
struct Twins {
    int on_file = 1;         // pieces of the type on its file, itself included
    int place = 0;           // 0 = frontmost of those (nearest the enemy)
    int group_size = 0;      // soldiers: how many share a file with another soldier (xqbase group)
    int group_place = -1;    // its place in that group, ordered right->left then front->back
    int crowded_files = 0;   // soldiers: files holding two or more of them
    int most_on_a_file = 0;  // soldiers: the largest count on any one file
};
Twins twins_of(const Position& pos, Square sq);

// Chariots, horses and cannons take front/rear marks; advisors and elephants never need them
// (direction plus destination already tell the two apart) and there is only one general.
constexpr bool takes_tandem_mark(PieceType t) {
    return t == PieceType::Chariot || t == PieceType::Horse || t == PieceType::Cannon;
}

// The one legal move that fits spec, or IllegalMove / AmbiguousMove naming `text`.
std::expected<Move, MoveTextError> resolve(const Position& pos, const MoveSpec& spec, std::string_view text);

std::unexpected<MoveTextError> syntax_error(std::string_view text, std::string_view why);

// Text as code points, with full-width ASCII forms (Ｃ２＝５, １..９) folded to ASCII and
// surrounding white space (also the ideographic space) removed. Empty on malformed UTF-8.
std::u32string fold_text(std::string_view text);
void append_utf8(std::string& out, char32_t c);

std::string render_wxf(const Position& pos, Move m);
std::string render_chinese(const Position& pos, Move m, bool traditional);
std::expected<Move, MoveTextError> parse_wxf(const Position& pos, const std::u32string& text,
                                             std::string_view original);
std::expected<Move, MoveTextError> parse_chinese(const Position& pos, const std::u32string& text,
                                                 std::string_view original);

}  // namespace xq::detail
