// Chinese notation: 炮二平五, 马8进7, 前车平三, 四兵平五 (xqbase rules, notation.md §2.3).
// Rendering follows strict xqbase: Red counts with 一..九, Black with ASCII digits 1..9 (also for
// the 1..5 that number crowded soldiers); 前/后 whenever two chariots, horses or cannons share a
// file; soldiers sharing files are ordered right->left, front->back: 前/后, 前/中/后, then numbers.
// Parsing takes simplified and traditional glyphs and their variants, numerals or digits (ASCII
// or full width) for either side, and the mark after the piece as well (車前平三).

#include "notation_detail.h"

namespace xq::detail {
namespace {

constexpr std::u32string_view kNumerals = U"一二三四五六七八九";

PieceType piece_of_glyph(char32_t c) {
    switch (c) {
        case U'帅':
        case U'帥':
        case U'将':
        case U'將':
            return PieceType::General;
        case U'仕':
        case U'士':
            return PieceType::Advisor;
        case U'相':
        case U'象':
            return PieceType::Elephant;
        case U'马':
        case U'馬':
        case U'傌':
            return PieceType::Horse;
        case U'车':
        case U'車':
        case U'俥':
            return PieceType::Chariot;
        case U'炮':
        case U'砲':
        case U'包':
            return PieceType::Cannon;
        case U'兵':
        case U'卒':
            return PieceType::Soldier;
        default:
            return PieceType::None;
    }
}

// 1-9 for a Chinese numeral or a digit, 0 for anything else.
int number_of(char32_t c) {
    if (c >= U'1' && c <= U'9') return static_cast<int>(c - U'0');
    const auto at = kNumerals.find(c);
    return at == std::u32string_view::npos ? 0 : static_cast<int>(at) + 1;
}

// The selector a 前/中/后 mark stands for, or File when c is not a mark.
Selector mark_of(char32_t c) {
    switch (c) {
        case U'前':
            return Selector::Front;
        case U'中':
            return Selector::Middle;
        case U'后':
        case U'後':
            return Selector::Rear;
        default:
            return Selector::File;
    }
}

std::string_view glyph_of(Color c, PieceType t, bool traditional) {
    const bool red = c == Color::Red;
    switch (t) {
        case PieceType::General:
            return red ? (traditional ? "帥" : "帅") : (traditional ? "將" : "将");
        case PieceType::Advisor:
            return red ? "仕" : "士";
        case PieceType::Elephant:
            return red ? "相" : "象";
        case PieceType::Horse:
            return traditional ? "馬" : "马";
        case PieceType::Chariot:
            return traditional ? "車" : "车";
        case PieceType::Cannon:
            return "炮";
        case PieceType::Soldier:
            return red ? "兵" : "卒";
        case PieceType::None:
            break;
    }
    return "?";
}

// Red writes Chinese numerals, Black ASCII digits (records often use full-width ones instead).
void append_number(std::string& out, Color c, int n) {
    if (c == Color::Red)
        append_utf8(out, kNumerals[static_cast<std::size_t>(n - 1)]);
    else
        out += static_cast<char>('0' + n);
}

}  // namespace

std::string render_chinese(const Position& pos, Move m, bool traditional) {
    const MoveParts parts = describe(pos, m);
    const Twins twins = twins_of(pos, m.from());
    const std::string_view glyph = glyph_of(parts.color, parts.type, traditional);
    const std::string_view front = "前";
    const std::string_view rear = traditional ? "後" : "后";
    std::string out;
    if (parts.type == PieceType::Soldier && twins.on_file >= 2) {
        // Groups of 2 or 3 always sit on one file, so the place on the file is the group place.
        if (twins.group_size == 2)
            out = twins.place == 0 ? front : rear;
        else if (twins.group_size == 3)
            out = twins.place == 0 ? front : twins.place == 1 ? std::string_view("中") : rear;
        else
            append_number(out, parts.color, twins.group_place + 1);
        out += glyph;
    } else if (takes_tandem_mark(parts.type) && twins.on_file == 2) {
        out = twins.place == 0 ? front : rear;
        out += glyph;
    } else {
        out = glyph;
        append_number(out, parts.color, parts.file);
    }
    switch (parts.direction) {
        case Direction::Forward:
            out += traditional ? "進" : "进";
            break;
        case Direction::Backward:
            out += "退";
            break;
        case Direction::Sideways:
            out += "平";
            break;
    }
    append_number(out, parts.color, parts.target);
    return out;
}

std::expected<Move, MoveTextError> parse_chinese(const Position& pos, const std::u32string& text,
                                                 std::string_view original) {
    if (text.size() != 4) return syntax_error(original, "not a four-character Chinese move like 炮二平五");
    MoveSpec spec;
    const PieceType first_piece = piece_of_glyph(text[0]);
    const PieceType second_piece = piece_of_glyph(text[1]);
    if (first_piece != PieceType::None && number_of(text[1]) != 0) {  // 炮二
        spec = {first_piece, Selector::File, number_of(text[1])};
    } else if (second_piece != PieceType::None && mark_of(text[0]) != Selector::File) {  // 前车
        spec = {second_piece, mark_of(text[0])};
    } else if (first_piece != PieceType::None && mark_of(text[1]) != Selector::File) {  // 車前
        spec = {first_piece, mark_of(text[1])};
    } else if (second_piece == PieceType::Soldier && number_of(text[0]) != 0) {  // 四兵
        spec = {second_piece, Selector::GroupNth, 0, number_of(text[0])};
    } else {
        return syntax_error(original, "expected a piece with a file (炮二) or a mark (前车, 四兵)");
    }
    switch (text[2]) {
        case U'进':
        case U'進':
            spec.direction = Direction::Forward;
            break;
        case U'退':
            spec.direction = Direction::Backward;
            break;
        case U'平':
            spec.direction = Direction::Sideways;
            break;
        default:
            return syntax_error(original, "direction must be 进, 退 or 平");
    }
    spec.target = number_of(text[3]);
    if (spec.target == 0) return syntax_error(original, "target must be 一..九 or 1..9");
    return resolve(pos, spec, original);
}

}  // namespace xq::detail

namespace xq {

std::string_view chinese_glyph(Piece piece, Notation notation) {
    return detail::glyph_of(color_of(piece), type_of(piece), notation != Notation::Chinese);
}

}  // namespace xq
