#include "position.h"

#include "attacks.h"
#include "fen.h"
#include "zobrist.h"

namespace xq {

std::string_view to_string(Color c) { return c == Color::Red ? "red" : "black"; }

std::string_view to_string(PieceType t) {
    switch (t) {
        case PieceType::General:
            return "general";
        case PieceType::Advisor:
            return "advisor";
        case PieceType::Elephant:
            return "elephant";
        case PieceType::Horse:
            return "horse";
        case PieceType::Chariot:
            return "chariot";
        case PieceType::Cannon:
            return "cannon";
        case PieceType::Soldier:
            return "soldier";
        case PieceType::None:
            break;
    }
    return "none";
}

Position Position::start() {
    // The start FEN is a constant known to be valid; parsing it keeps one source of truth.
    static const Position start_position = *parse_fen(kStartFen);
    return start_position;
}

Position Position::from_board(const Board& board, Color side_to_move, int halfmove_clock,
                              int fullmove_number) {
    Position p;
    p.board_ = board;
    p.side_ = side_to_move;
    p.halfmove_ = static_cast<std::uint16_t>(halfmove_clock);
    p.fullmove_ = static_cast<std::uint16_t>(fullmove_number);
    for (Square s = 0; s < kSquares; ++s) {
        const Piece pc = board[static_cast<std::size_t>(s)];
        if (pc == Piece::None) continue;
        p.occupied_[index_of(color_of(pc))].add(s);
        p.hash_ ^= zobrist::key(pc, s);
        if (type_of(pc) == PieceType::General) p.general_[index_of(color_of(pc))] = s;
    }
    if (side_to_move == Color::Black) p.hash_ ^= zobrist::kKeys.black_to_move;
    return p;
}

bool Position::in_check() const { return detail::general_attacked(board_.data(), general(side_), ~side_); }

void Position::play(Move m) {
    const Square from = m.from(), to = m.to();
    const Piece moving = board_[static_cast<std::size_t>(from)];
    const Piece captured = board_[static_cast<std::size_t>(to)];
    const Color us = side_;

    if (captured != Piece::None) {
        occupied_[index_of(~us)].remove(to);
        hash_ ^= zobrist::key(captured, to);
        halfmove_ = 0;
    } else {
        ++halfmove_;
    }
    board_[static_cast<std::size_t>(to)] = moving;
    board_[static_cast<std::size_t>(from)] = Piece::None;
    occupied_[index_of(us)].remove(from);
    occupied_[index_of(us)].add(to);
    hash_ ^= zobrist::key(moving, from) ^ zobrist::key(moving, to) ^ zobrist::kKeys.black_to_move;
    if (type_of(moving) == PieceType::General) general_[index_of(us)] = to;
    if (us == Color::Black) ++fullmove_;
    side_ = ~us;
}

}  // namespace xq
