// WXF (AXF) notation: piece letter, file or twin mark, direction, target ("C2=5", "R+=3").
// Rendering: letters K A E H R C P, '=' for sideways moves, "R+"/"R-" for twins on one file, and
// Fairy-Stockfish style "<place><file>" ("15=6") for soldiers when a file holds three or more or
// two files hold two or more. Parsing also takes the WXF page's forms (P+, P5, P-, ++, --, "6-"),
// wukong's sign-first form ("+P+1"), '.', lower case, full width and the letters B, N, G.

#include <cctype>

#include "notation_detail.h"

namespace xq::detail {
namespace {

PieceType piece_of_letter(char c) {
    switch (c) {
        case 'K':
        case 'G':
            return PieceType::General;
        case 'A':
            return PieceType::Advisor;
        case 'E':
        case 'B':
            return PieceType::Elephant;
        case 'H':
        case 'N':
            return PieceType::Horse;
        case 'R':
            return PieceType::Chariot;
        case 'C':
            return PieceType::Cannon;
        case 'P':
            return PieceType::Soldier;
        default:
            return PieceType::None;
    }
}

char letter_of(PieceType t) {
    switch (t) {
        case PieceType::General:
            return 'K';
        case PieceType::Advisor:
            return 'A';
        case PieceType::Elephant:
            return 'E';
        case PieceType::Horse:
            return 'H';
        case PieceType::Chariot:
            return 'R';
        case PieceType::Cannon:
            return 'C';
        case PieceType::Soldier:
            return 'P';
        case PieceType::None:
            break;
    }
    return '?';
}

constexpr bool is_digit(char c) { return c >= '1' && c <= '9'; }
constexpr bool is_sign(char c) { return c == '+' || c == '-'; }
constexpr char digit(int n) { return static_cast<char>('0' + n); }

// Reads what precedes the direction: the piece and which of its kind moves. False if malformed.
bool parse_source(std::string_view s, MoveSpec& spec) {
    const auto letter = [](char c) { return piece_of_letter(c) != PieceType::None; };
    const auto plus_minus = [](char c, Selector plus, Selector minus) { return c == '+' ? plus : minus; };
    if (s.size() == 2) {
        if (letter(s[0]) && is_digit(s[1])) {  // C2
            spec = {piece_of_letter(s[0]), Selector::File, s[1] - '0'};
            spec.wxf_middle = spec.type == PieceType::Soldier;
        } else if (letter(s[0]) && is_sign(s[1])) {  // R+
            spec = {piece_of_letter(s[0]), plus_minus(s[1], Selector::WxfPlus, Selector::WxfMinus)};
        } else if (is_sign(s[0]) && letter(s[1])) {  // +R (wukong)
            spec = {piece_of_letter(s[1]), plus_minus(s[0], Selector::WxfPlus, Selector::WxfMinus)};
        } else if (is_digit(s[0]) && is_sign(s[1])) {  // 6- (WXF page, two crowded files)
            spec = {PieceType::Soldier, plus_minus(s[1], Selector::FileFront, Selector::FileRear),
                    s[0] - '0'};
        } else if (is_digit(s[0]) && is_digit(s[1])) {  // 26 (Fairy-Stockfish)
            spec = {PieceType::Soldier, Selector::FileNth, s[1] - '0', s[0] - '0'};
        } else {
            return false;
        }
        return true;
    }
    if (s.size() != 3) return false;
    if (letter(s[0]) && is_sign(s[1]) && s[2] == s[1]) {  // P++
        spec = {piece_of_letter(s[0]), plus_minus(s[1], Selector::WxfPlusPlus, Selector::WxfMinusMinus)};
    } else if (is_sign(s[0]) && s[1] == s[0] && letter(s[2])) {  // ++P
        spec = {piece_of_letter(s[2]), plus_minus(s[0], Selector::WxfPlusPlus, Selector::WxfMinusMinus)};
    } else if (letter(s[0]) && is_digit(s[1]) && is_sign(s[2])) {  // P6-
        spec = {piece_of_letter(s[0]), plus_minus(s[2], Selector::FileFront, Selector::FileRear), s[1] - '0'};
    } else if (letter(s[0]) && is_digit(s[1]) && is_digit(s[2])) {  // P26
        spec = {piece_of_letter(s[0]), Selector::FileNth, s[2] - '0', s[1] - '0'};
    } else {
        return false;
    }
    return true;
}

}  // namespace

std::string render_wxf(const Position& pos, Move m) {
    const MoveParts parts = describe(pos, m);
    const Twins twins = twins_of(pos, m.from());
    std::string out;
    if (parts.type == PieceType::Soldier && twins.on_file >= 2 &&
        (twins.most_on_a_file >= 3 || twins.crowded_files >= 2)) {
        out = {digit(twins.place + 1), digit(parts.file)};
    } else if ((takes_tandem_mark(parts.type) || parts.type == PieceType::Soldier) && twins.on_file == 2) {
        out = {letter_of(parts.type), twins.place == 0 ? '+' : '-'};
    } else {
        out = {letter_of(parts.type), digit(parts.file)};
    }
    out += parts.direction == Direction::Forward ? '+' : parts.direction == Direction::Backward ? '-' : '=';
    out += digit(parts.target);
    return out;
}

std::expected<Move, MoveTextError> parse_wxf(const Position& pos, const std::u32string& text,
                                             std::string_view original) {
    std::string s;
    for (char32_t c : text) {
        if (c >= 0x80) return syntax_error(original, "not WXF: non-ASCII character");
        s += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    if (s.size() < 4 || s.size() > 5) return syntax_error(original, "not a WXF move like C2=5");
    const char dir = s[s.size() - 2];
    const char target = s.back();
    if (!is_digit(target)) return syntax_error(original, "WXF target must be a digit 1-9");
    MoveSpec spec;
    if (!parse_source(std::string_view(s).substr(0, s.size() - 2), spec))
        return syntax_error(original, "not a WXF piece and file (C2, R+, +R, 15)");
    switch (dir) {
        case '+':
            spec.direction = Direction::Forward;
            break;
        case '-':
            spec.direction = Direction::Backward;
            break;
        case '=':
        case '.':
            spec.direction = Direction::Sideways;
            break;
        default:
            return syntax_error(original, "WXF direction must be +, - or =");
    }
    spec.target = target - '0';
    return resolve(pos, spec, original);
}

}  // namespace xq::detail
