#include "fen.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <vector>

#include "iccs.h"

namespace xq {
namespace {

std::unexpected<FenError> fail(FenErrorCode code, std::string message) {
    return std::unexpected(FenError{code, std::move(message)});
}

std::vector<std::string_view> split(std::string_view text, char sep, bool skip_empty) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == sep ||
            (skip_empty && (text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))) {
            if (!skip_empty || i > start) parts.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    return parts;
}

// FEN letters, upper case for Red. B/E and N/H are the two letter sets in use.
std::optional<Piece> piece_from_letter(char ch) {
    const bool red = ch >= 'A' && ch <= 'Z';
    const char lower = red ? static_cast<char>(ch - 'A' + 'a') : ch;
    PieceType t;
    switch (lower) {
        case 'k':
            t = PieceType::General;
            break;
        case 'a':
            t = PieceType::Advisor;
            break;
        case 'b':
        case 'e':
            t = PieceType::Elephant;
            break;
        case 'n':
        case 'h':
            t = PieceType::Horse;
            break;
        case 'r':
            t = PieceType::Chariot;
            break;
        case 'c':
            t = PieceType::Cannon;
            break;
        case 'p':
            t = PieceType::Soldier;
            break;
        default:
            return std::nullopt;
    }
    return make_piece(red ? Color::Red : Color::Black, t);
}

char letter_of(Piece p) {
    constexpr std::string_view letters = " kabnrcp";
    const char lower = letters[static_cast<std::size_t>(type_of(p))];
    return color_of(p) == Color::Red ? static_cast<char>(lower - 'a' + 'A') : lower;
}

std::string describe(Piece p, Square s) {
    return std::string(to_string(color_of(p))) + " " + std::string(to_string(type_of(p))) + " on " +
           square_name(s);
}

// Ranks counted from the owner's back rank, so one rule serves both colours.
int relative_rank(Color c, Square s) { return c == Color::Red ? rank_of(s) : kRanks - 1 - rank_of(s); }

// Can a piece of this type and colour ever stand on s in a game from the start position?
bool reachable(Piece p, Square s) {
    const Color c = color_of(p);
    const int f = file_of(s), r = relative_rank(c, s);
    switch (type_of(p)) {
        case PieceType::General:
            return f >= 3 && f <= 5 && r <= 2;
        case PieceType::Advisor:
            return (f == 4 && r == 1) || ((f == 3 || f == 5) && (r == 0 || r == 2));
        case PieceType::Elephant:
            return ((f == 2 || f == 6) && (r == 0 || r == 4)) || ((f == 0 || f == 4 || f == 8) && r == 2);
        case PieceType::Soldier:
            return r >= 5 || ((r == 3 || r == 4) && f % 2 == 0);
        default:
            return true;
    }
}

FenErrorCode square_error(PieceType t) {
    switch (t) {
        case PieceType::General:
            return FenErrorCode::GeneralOutsidePalace;
        case PieceType::Advisor:
            return FenErrorCode::AdvisorSquare;
        case PieceType::Elephant:
            return FenErrorCode::ElephantSquare;
        default:
            return FenErrorCode::SoldierSquare;
    }
}

std::expected<Board, FenError> parse_placement(std::string_view placement) {
    const auto ranks = split(placement, '/', false);
    if (ranks.size() != kRanks)
        return fail(FenErrorCode::RankCount,
                    "placement has " + std::to_string(ranks.size()) + " ranks, expected 10");
    Board board{};
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const int rank = kRanks - 1 - static_cast<int>(i);  // FEN lists Black's back rank first
        int file = 0;
        for (char ch : ranks[i]) {
            if (ch >= '1' && ch <= '9') {
                file += ch - '0';
            } else if (auto p = piece_from_letter(ch)) {
                if (file < kFiles) board[static_cast<std::size_t>(make_square(file, rank))] = *p;
                ++file;
            } else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
                return fail(FenErrorCode::UnknownPiece,
                            std::string("unknown piece letter '") + ch + "' on rank " + std::to_string(rank));
            } else {
                return fail(FenErrorCode::Syntax,
                            std::string("unexpected character '") + ch + "' in rank " + std::to_string(rank));
            }
            if (file > kFiles) break;
        }
        if (file != kFiles)
            return fail(FenErrorCode::FileCount, "rank " + std::to_string(rank) + " has " +
                                                     (file > kFiles ? "more than 9" : std::to_string(file)) +
                                                     " files, expected 9");
    }
    return board;
}

std::optional<FenError> check_material(const Board& board) {
    constexpr std::array<int, 8> limit = {0, 1, 2, 2, 2, 2, 2, 5};  // by PieceType
    std::array<std::array<int, 8>, 2> count{};
    for (Square s = 0; s < kSquares; ++s) {
        const Piece p = board[static_cast<std::size_t>(s)];
        if (p == Piece::None) continue;
        const auto t = static_cast<std::size_t>(type_of(p));
        if (++count[static_cast<std::size_t>(index_of(color_of(p)))][t] > limit[t])
            return FenError{FenErrorCode::TooManyPieces, "too many " + std::string(to_string(color_of(p))) +
                                                             " " + std::string(to_string(type_of(p))) +
                                                             "s (at most " + std::to_string(limit[t]) + ")"};
        if (!reachable(p, s))
            return FenError{square_error(type_of(p)), describe(p, s) + " is on a square it can never reach"};
    }
    for (Color c : {Color::Red, Color::Black})
        if (count[static_cast<std::size_t>(index_of(c))][1] == 0)
            return FenError{FenErrorCode::MissingGeneral, std::string(to_string(c)) + " has no general"};
    return std::nullopt;
}

std::optional<int> parse_counter(std::string_view field) {
    int value = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || end != field.data() + field.size() || value < 0 || value > 65535)
        return std::nullopt;
    return value;
}

// At least one digit and nothing else: a non-negative number, whatever its size. (A sign is a
// syntax error, as it was before the counter got its range check.)
bool is_digits(std::string_view field) {
    return !field.empty() && std::ranges::all_of(field, [](char ch) { return ch >= '0' && ch <= '9'; });
}

}  // namespace

std::string_view code_name(FenErrorCode code) {
    switch (code) {
        case FenErrorCode::Syntax:
            return "fen_syntax";
        case FenErrorCode::RankCount:
            return "fen_rank_count";
        case FenErrorCode::FileCount:
            return "fen_file_count";
        case FenErrorCode::UnknownPiece:
            return "fen_unknown_piece";
        case FenErrorCode::TooManyPieces:
            return "fen_too_many_pieces";
        case FenErrorCode::MissingGeneral:
            return "fen_missing_general";
        case FenErrorCode::GeneralOutsidePalace:
            return "fen_general_outside_palace";
        case FenErrorCode::AdvisorSquare:
            return "fen_advisor_square";
        case FenErrorCode::ElephantSquare:
            return "fen_elephant_square";
        case FenErrorCode::SoldierSquare:
            return "fen_soldier_square";
        case FenErrorCode::GeneralsFacing:
            return "fen_generals_facing";
        case FenErrorCode::OpponentInCheck:
            return "fen_opponent_in_check";
        case FenErrorCode::BadSideToMove:
            return "fen_side_to_move";
        case FenErrorCode::CounterOutOfRange:
            return "fen_counter_range";
    }
    return "fen_error";
}

std::expected<Position, FenError> parse_fen(std::string_view fen) {
    const auto fields = split(fen, ' ', true);
    if (fields.empty()) return fail(FenErrorCode::Syntax, "empty FEN");
    if (fields.size() > 6) return fail(FenErrorCode::Syntax, "too many fields (at most 6)");
    auto board = parse_placement(fields[0]);
    if (!board) return std::unexpected(board.error());
    if (fields.size() < 2) return fail(FenErrorCode::Syntax, "missing side to move after the placement");

    Color side;
    if (fields[1] == "w" || fields[1] == "r")
        side = Color::Red;
    else if (fields[1] == "b")
        side = Color::Black;
    else
        return fail(FenErrorCode::BadSideToMove,
                    "side to move must be w, r or b, got '" + std::string(fields[1]) + "'");

    for (std::size_t i = 2; i < std::min<std::size_t>(fields.size(), 4); ++i)
        if (fields[i] != "-")
            return fail(FenErrorCode::Syntax, "field " + std::to_string(i + 1) + " must be '-', got '" +
                                                  std::string(fields[i]) + "'");
    int halfmove = 0, fullmove = 1;
    if (fields.size() > 4) {
        const auto v = parse_counter(fields[4]);
        if (!v && !is_digits(fields[4]))
            return fail(FenErrorCode::Syntax, "bad no-capture counter '" + std::string(fields[4]) + "'");
        if (!v || *v > kMaxNoCapturePlies)  // digits, but above 119 (or above 65535)
            return fail(FenErrorCode::CounterOutOfRange,
                        "no-capture counter " + std::string(fields[4]) + " is outside 0.." +
                            std::to_string(kMaxNoCapturePlies) + ": " + std::to_string(kMaxNoCapturePlies + 1) +
                            " plies without a capture end the game");
        halfmove = *v;
    }
    if (fields.size() > 5) {
        const auto v = parse_counter(fields[5]);
        if (!v) return fail(FenErrorCode::Syntax, "bad move number '" + std::string(fields[5]) + "'");
        fullmove = std::max(*v, 1);
    }

    if (auto error = check_material(*board)) return std::unexpected(*error);
    const Position pos = Position::from_board(*board, side, halfmove, fullmove);

    const Square red = pos.general(Color::Red), black = pos.general(Color::Black);
    if (file_of(red) == file_of(black)) {
        bool open = true;
        for (Square s = red + kFiles; s < black; s += kFiles) open &= pos.at(s) == Piece::None;
        if (open)
            return fail(FenErrorCode::GeneralsFacing, "the generals face each other on an open file (" +
                                                          square_name(red) + ", " + square_name(black) + ")");
    }
    // The side that just moved may not have left its general attacked.
    const Position flipped = Position::from_board(*board, ~side, halfmove, fullmove);
    if (flipped.in_check())
        return fail(FenErrorCode::OpponentInCheck,
                    std::string(to_string(~side)) + " is not to move but its general is attacked");
    return pos;
}

std::string to_fen(const Position& pos) {
    std::string out;
    for (int rank = kRanks - 1; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < kFiles; ++file) {
            const Piece p = pos.at(make_square(file, rank));
            if (p == Piece::None) {
                ++empty;
                continue;
            }
            if (empty) out += static_cast<char>('0' + empty);
            empty = 0;
            out += letter_of(p);
        }
        if (empty) out += static_cast<char>('0' + empty);
        if (rank) out += '/';
    }
    out += pos.side_to_move() == Color::Red ? " w - - " : " b - - ";
    out += std::to_string(pos.halfmove_clock()) + " " + std::to_string(pos.fullmove_number());
    return out;
}

}  // namespace xq
