#include "movegen.h"

#include <algorithm>

#include "attacks.h"
#include "geometry.h"

namespace xq {
namespace {

// May a piece of colour `us` land on a square holding p (empty or an enemy)?
inline bool can_land(Piece p, Color us) { return p == Piece::None || color_of(p) != us; }

// Single steps with nothing to block them: advisors, generals and soldiers.
template <class Emit>
inline void step_moves(const Piece* b, Square from, const geo::SquareList& list, Color us, Emit& emit) {
    for (int i = 0; i < list.size; ++i)
        if (can_land(b[list.squares[i]], us)) emit(from, list.squares[i]);
}

// Emits emit(from, to) for each pseudo-legal move of the piece pc of colour us standing on from.
template <class Emit>
inline void piece_moves(const Piece* b, Square from, Piece pc, Color us, Emit&& emit) {
    const auto& t = geo::kTables;
    const int ci = index_of(us);
    switch (type_of(pc)) {
        case PieceType::Chariot:
            for (int d = 0; d < 4; ++d) {
                const geo::Ray& ray = t.rays[from][d];
                for (int i = 0; i < ray.length; ++i) {
                    const Square to = ray.squares[i];
                    if (b[to] == Piece::None) {
                        emit(from, to);
                        continue;
                    }
                    if (color_of(b[to]) != us) emit(from, to);
                    break;
                }
            }
            break;
        case PieceType::Cannon:
            for (int d = 0; d < 4; ++d) {
                const geo::Ray& ray = t.rays[from][d];
                int i = 0;
                for (; i < ray.length && b[ray.squares[i]] == Piece::None; ++i) emit(from, ray.squares[i]);
                // Captures jump exactly one piece, the screen, of either colour.
                for (++i; i < ray.length; ++i) {
                    const Piece target = b[ray.squares[i]];
                    if (target == Piece::None) continue;
                    if (color_of(target) != us) emit(from, ray.squares[i]);
                    break;
                }
            }
            break;
        case PieceType::Horse: {
            const geo::StepList& steps = t.horse_moves[from];
            for (int i = 0; i < steps.size; ++i)
                // A piece on the leg next to the horse blocks the jump.
                if (b[steps.steps[i].block] == Piece::None && can_land(b[steps.steps[i].square], us))
                    emit(from, steps.steps[i].square);
            break;
        }
        case PieceType::Elephant: {
            const geo::StepList& steps = t.elephant_moves[ci][from];
            for (int i = 0; i < steps.size; ++i)
                // A piece on the elephant's eye blocks it; the table keeps it on its own half.
                if (b[steps.steps[i].block] == Piece::None && can_land(b[steps.steps[i].square], us))
                    emit(from, steps.steps[i].square);
            break;
        }
        case PieceType::Advisor:
            step_moves(b, from, t.advisor_moves[ci][from], us, emit);
            break;
        case PieceType::General:
            step_moves(b, from, t.general_moves[ci][from], us, emit);
            break;
        case PieceType::Soldier:
            step_moves(b, from, t.soldier_moves[ci][from], us, emit);
            break;
        case PieceType::None:
            break;
    }
}

// Decides whether pseudo-legal moves leave the mover's general safe. Only moves that start next to
// or in line with the general, end in line with it, move the general, or answer a check can
// change its safety; those are played on a scratch board and tested, the rest pass at once.
class LegalityFilter {
public:
    explicit LegalityFilter(const Position& pos)
        : scratch_(pos.board()),
          us_(pos.side_to_move()),
          general_(pos.general(us_)),
          danger_(geo::kTables.legality[static_cast<std::size_t>(general_)].data()),
          in_check_(pos.in_check()) {}

    bool allows(Square from, Square to) {
        if (!in_check_ && !(danger_[from] & geo::kDangerFrom) && !(danger_[to] & geo::kDangerTo)) return true;
        const Piece moving = scratch_[static_cast<std::size_t>(from)];
        const Piece captured = scratch_[static_cast<std::size_t>(to)];
        scratch_[static_cast<std::size_t>(to)] = moving;
        scratch_[static_cast<std::size_t>(from)] = Piece::None;
        const Square general = from == general_ ? to : general_;
        const bool safe = !detail::general_attacked(scratch_.data(), general, ~us_);
        scratch_[static_cast<std::size_t>(from)] = moving;
        scratch_[static_cast<std::size_t>(to)] = captured;
        return safe;
    }

private:
    Board scratch_;
    Color us_;
    Square general_;
    const std::uint8_t* danger_;
    bool in_check_;
};

// Calls emit(from, to) for every legal move.
template <class Emit>
inline void for_each_legal(const Position& pos, Emit&& emit) {
    LegalityFilter filter(pos);
    const Piece* b = pos.board().data();
    const Color us = pos.side_to_move();
    pos.pieces(us).for_each([&](Square from) {
        piece_moves(b, from, b[from], us, [&](Square f, Square to) {
            if (filter.allows(f, to)) emit(f, to);
        });
    });
}

}  // namespace

bool MoveList::contains(Move m) const { return std::find(begin(), end(), m) != end(); }

MoveList legal_moves(const Position& pos) {
    MoveList list;
    for_each_legal(pos, [&](Square from, Square to) { list.push(Move(from, to)); });
    return list;
}

MoveList legal_moves_from(const Position& pos, Square from) {
    MoveList list;
    if (from < 0 || from >= kSquares) return list;
    const Piece pc = pos.at(from);
    if (pc == Piece::None || color_of(pc) != pos.side_to_move()) return list;
    LegalityFilter filter(pos);
    piece_moves(pos.board().data(), from, pc, pos.side_to_move(), [&](Square f, Square to) {
        if (filter.allows(f, to)) list.push(Move(f, to));
    });
    return list;
}

bool is_legal(const Position& pos, Move m) {
    const Square from = m.from(), to = m.to();
    if (from >= kSquares || to >= kSquares) return false;
    const Piece pc = pos.at(from);
    if (pc == Piece::None || color_of(pc) != pos.side_to_move()) return false;
    bool pseudo = false;
    piece_moves(pos.board().data(), from, pc, pos.side_to_move(),
                [&](Square, Square target) { pseudo |= target == to; });
    return pseudo && LegalityFilter(pos).allows(from, to);
}

std::size_t count_legal_moves(const Position& pos) {
    std::size_t n = 0;
    for_each_legal(pos, [&](Square, Square) { ++n; });
    return n;
}

bool has_legal_move(const Position& pos) {
    // Stops at the first piece that has a legal move.
    LegalityFilter filter(pos);
    const Piece* b = pos.board().data();
    const Color us = pos.side_to_move();
    bool found = false;
    pos.pieces(us).for_each([&](Square from) {
        if (found) return;
        piece_moves(b, from, b[from], us, [&](Square f, Square to) {
            if (!found && filter.allows(f, to)) found = true;
        });
    });
    return found;
}

MoveList pseudo_legal_moves(const Position& pos) {
    MoveList list;
    const Piece* b = pos.board().data();
    const Color us = pos.side_to_move();
    pos.pieces(us).for_each([&](Square from) {
        piece_moves(b, from, b[from], us, [&](Square f, Square to) { list.push(Move(f, to)); });
    });
    return list;
}

}  // namespace xq
