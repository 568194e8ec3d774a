// Notation dispatch, ICCS/DhtmlXQ coordinates, and the logic WXF and Chinese share: describing a
// move in four parts, ranking twin pieces, and resolving parsed text against the legal moves.

#include "notation.h"

#include <algorithm>

#include "iccs.h"
#include "notation_detail.h"

namespace xq {
namespace detail {
namespace {

constexpr bool moves_straight(PieceType t) {
    return t == PieceType::General || t == PieceType::Chariot || t == PieceType::Cannon ||
           t == PieceType::Soldier;
}

// Is rank a nearer the enemy than rank b, seen from c?
constexpr bool ahead_of(Color c, int a, int b) { return c == Color::Red ? a > b : a < b; }

int count_on_file(const Position& pos, Piece p, int file) {
    int n = 0;
    for (int rank = 0; rank < kRanks; ++rank) n += pos.at(make_square(file, rank)) == p;
    return n;
}

// Is the piece on `from` the one the text names: by its file, its place among twins on its file,
// or its number among the soldiers that share files?
bool selects(const Position& pos, const MoveSpec& spec, Square from) {
    const int file = own_file(color_of(pos.at(from)), file_of(from));
    const Twins t = twins_of(pos, from);
    const int n = t.on_file;
    const int i = t.place;
    switch (spec.selector) {
        case Selector::File:
            return file == spec.file;
        case Selector::Front:
            return n >= 2 && i == 0;
        case Selector::Middle:
            return n >= 3 && n % 2 == 1 && i == n / 2;
        case Selector::Rear:
            return n >= 2 && i == n - 1;
        case Selector::WxfPlus:
            return n >= 2 && i == (n <= 3 ? 0 : 1);
        case Selector::WxfMinus:
            return n >= 2 && i == (n <= 3 ? n - 1 : n - 2);
        case Selector::WxfPlusPlus:
            return n >= 4 && i == 0;
        case Selector::WxfMinusMinus:
            return n >= 4 && i == n - 1;
        case Selector::FileFront:
            return file == spec.file && n >= 2 && i == 0;
        case Selector::FileRear:
            return file == spec.file && n >= 2 && i == n - 1;
        case Selector::FileNth:
            return file == spec.file && i == spec.index - 1;
        case Selector::GroupNth:
            return t.group_place >= 0 && t.group_place == spec.index - 1;
    }
    return false;
}

std::unexpected<MoveTextError> move_error(MoveTextErrorCode code, std::string_view text,
                                          std::string_view why) {
    return std::unexpected(MoveTextError{code, "\"" + std::string(text) + "\": " + std::string(why)});
}

// A legal coordinate move, or IllegalMove when the squares are well formed but the move is not.
std::expected<Move, MoveTextError> checked(const Position& pos, Move m, std::string_view text) {
    if (!is_legal(pos, m)) return move_error(MoveTextErrorCode::IllegalMove, text, "not a legal move here");
    return m;
}

// DhtmlXQ "x1y1x2y2": files 0-8 from Red's left, rows 0-9 from the top (Black's back rank).
std::optional<Move> parse_dhtmlxq(std::string_view s) {
    if (s.size() != 4 || !std::ranges::all_of(s, [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    const int x1 = s[0] - '0', y1 = s[1] - '0', x2 = s[2] - '0', y2 = s[3] - '0';
    if (x1 >= kFiles || x2 >= kFiles || (x1 == x2 && y1 == y2)) return std::nullopt;
    return Move(make_square(x1, kRanks - 1 - y1), make_square(x2, kRanks - 1 - y2));
}

std::string narrow(const std::u32string& folded) {
    std::string s;
    for (char32_t c : folded) s += static_cast<char>(c);
    return s;
}

bool is_ascii(const std::u32string& folded) {
    return std::ranges::all_of(folded, [](char32_t c) { return c < 0x80; });
}

}  // namespace

MoveParts describe(const Position& pos, Move m) {
    const Piece p = pos.at(m.from());
    MoveParts parts{color_of(p), type_of(p), own_file(color_of(p), file_of(m.from())), Direction::Sideways,
                    own_file(color_of(p), file_of(m.to()))};
    const int dr = rank_of(m.to()) - rank_of(m.from());
    if (dr == 0) return parts;
    parts.direction =
        ahead_of(parts.color, rank_of(m.to()), rank_of(m.from())) ? Direction::Forward : Direction::Backward;
    // Straight movers count steps forward and back; every other move names its destination file.
    if (moves_straight(parts.type)) parts.target = dr < 0 ? -dr : dr;
    return parts;
}

Twins twins_of(const Position& pos, Square sq) {
    const Piece p = pos.at(sq);
    const Color c = color_of(p);
    Twins t;
    t.on_file = 0;
    for (int rank = 0; rank < kRanks; ++rank) {
        if (pos.at(make_square(file_of(sq), rank)) != p) continue;
        ++t.on_file;
        t.place += ahead_of(c, rank, rank_of(sq));
    }
    if (type_of(p) != PieceType::Soldier) return t;
    // xqbase orders the soldiers that share files from the mover's right file to its left.
    for (int own = 1; own <= kFiles; ++own) {
        const int file = board_file(c, own);
        const int n = count_on_file(pos, p, file);
        t.most_on_a_file = std::max(t.most_on_a_file, n);
        if (n < 2) continue;
        ++t.crowded_files;
        if (file == file_of(sq)) t.group_place = t.group_size + t.place;
        t.group_size += n;
    }
    return t;
}

std::expected<Move, MoveTextError> resolve(const Position& pos, const MoveSpec& spec, std::string_view text) {
    MoveList fits;
    for (Move m : legal_moves(pos)) {
        const MoveParts parts = describe(pos, m);
        if (parts.type == spec.type && parts.direction == spec.direction && parts.target == spec.target &&
            selects(pos, spec, m.from()))
            fits.push(m);
    }
    if (fits.size() > 1 && spec.wxf_middle) {
        // The WXF page names the middle one of three (or five) soldiers by its plain file digit.
        MoveSpec middle = spec;
        middle.selector = Selector::Middle;
        MoveList narrowed;
        for (Move m : fits)
            if (selects(pos, middle, m.from())) narrowed.push(m);
        if (narrowed.size() == 1) return narrowed[0];
    }
    if (fits.empty()) return move_error(MoveTextErrorCode::IllegalMove, text, "no legal move fits");
    if (fits.size() > 1) {
        std::string list;
        for (Move m : fits) list += (list.empty() ? "" : ", ") + to_iccs(m);
        return move_error(MoveTextErrorCode::AmbiguousMove, text, "fits several legal moves: " + list);
    }
    return fits[0];
}

std::unexpected<MoveTextError> syntax_error(std::string_view text, std::string_view why) {
    return move_error(MoveTextErrorCode::InvalidSyntax, text, why);
}

std::u32string fold_text(std::string_view text) {
    std::u32string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        const std::size_t len = lead < 0x80       ? 1
                                : lead >> 5 == 6  ? 2
                                : lead >> 4 == 14 ? 3
                                : lead >> 3 == 30 ? 4
                                                  : 0;
        if (len == 0 || i + len > text.size()) return {};
        char32_t c = len == 1 ? lead : lead & (0x7fu >> len);
        for (std::size_t k = 1; k < len; ++k) {
            const auto cont = static_cast<unsigned char>(text[i + k]);
            if (cont >> 6 != 2) return {};
            c = (c << 6) | (cont & 0x3fu);
        }
        i += len;
        if (c >= 0xff01 && c <= 0xff5e) c -= 0xfee0;  // full-width ASCII forms
        if (c == 0x3000) c = ' ';                     // ideographic space
        out += c;
    }
    const auto blank = [](char32_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!out.empty() && blank(out.back())) out.pop_back();
    const auto first = std::ranges::find_if_not(out, blank);
    return {first, out.end()};
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xc0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xe0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (c & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (c & 0x3f));
    }
}

}  // namespace detail

std::string_view code_name(MoveTextErrorCode code) {
    switch (code) {
        case MoveTextErrorCode::InvalidSyntax:
            return "invalid_move_syntax";
        case MoveTextErrorCode::IllegalMove:
            return "illegal_move";
        case MoveTextErrorCode::AmbiguousMove:
            return "ambiguous_move";
    }
    return "unknown";
}

std::string_view to_string(Notation n) {
    switch (n) {
        case Notation::Iccs:
            return "iccs";
        case Notation::Wxf:
            return "wxf";
        case Notation::Chinese:
            return "chinese";
        case Notation::ChineseTraditional:
            return "chinese_traditional";
    }
    return "unknown";
}

std::string render_move(const Position& pos, Move m, Notation notation) {
    switch (notation) {
        case Notation::Iccs:
            return to_iccs(m);
        case Notation::Wxf:
            return detail::render_wxf(pos, m);
        case Notation::Chinese:
            return detail::render_chinese(pos, m, false);
        case Notation::ChineseTraditional:
            return detail::render_chinese(pos, m, true);
    }
    return {};
}

// Detection: ICCS (h2e2, H2-E2) and DhtmlXQ (7747) are ASCII coordinates, any other ASCII text is
// WXF, and text with CJK glyphs is Chinese. Full-width forms count as their ASCII twins.
std::expected<Move, MoveTextError> parse_move(const Position& pos, std::string_view text) {
    const std::u32string folded = detail::fold_text(text);
    if (folded.empty()) return detail::syntax_error(text, "empty or not UTF-8");
    if (!detail::is_ascii(folded)) return detail::parse_chinese(pos, folded, text);
    const std::string s = detail::narrow(folded);
    if (const auto m = parse_iccs(s)) return detail::checked(pos, *m, text);
    if (const auto m = detail::parse_dhtmlxq(s)) return detail::checked(pos, *m, text);
    return detail::parse_wxf(pos, folded, text);
}

std::expected<Move, MoveTextError> parse_move(const Position& pos, std::string_view text, Notation notation) {
    const std::u32string folded = detail::fold_text(text);
    if (folded.empty()) return detail::syntax_error(text, "empty or not UTF-8");
    switch (notation) {
        case Notation::Iccs: {
            const auto m = detail::is_ascii(folded) ? parse_iccs(detail::narrow(folded)) : std::nullopt;
            if (!m) return detail::syntax_error(text, "not an ICCS move like h2e2");
            return detail::checked(pos, *m, text);
        }
        case Notation::Wxf:
            return detail::parse_wxf(pos, folded, text);
        case Notation::Chinese:
        case Notation::ChineseTraditional:
            return detail::parse_chinese(pos, folded, text);
    }
    return detail::syntax_error(text, "unknown notation");
}

}  // namespace xq
