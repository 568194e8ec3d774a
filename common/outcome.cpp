#include "outcome.h"

#include <array>

#include "movegen.h"

namespace xq {
namespace {

// Piece counts per colour and type.
using Counts = std::array<std::array<int, 8>, 2>;

Counts count_pieces(const Position& pos) {
    Counts n{};
    for (Color c : {Color::Red, Color::Black})
        pos.pieces(c).for_each([&](Square s) { ++n[index_of(c)][static_cast<int>(type_of(pos.at(s)))]; });
    return n;
}

int count(const Counts& n, Color c, PieceType t) { return n[index_of(c)][static_cast<int>(t)]; }

// Does the side to move have a move after which the opponent has no legal move?
bool has_mate_in_one(const Position& pos) {
    for (Move m : legal_moves(pos))
        if (!has_legal_move(pos.with_move(m))) return true;
    return false;
}

}  // namespace

Outcome position_outcome(const Position& pos) {
    if (has_legal_move(pos)) return {};
    // Unlike chess, stalemate is no draw: the side that cannot move has lost.
    return {loss_for(pos.side_to_move()), pos.in_check() ? Reason::Checkmate : Reason::Stalemate};
}

MaterialDraw material_draw_level(const Position& pos) {
    const Counts n = count_pieces(pos);
    auto total = [&](PieceType t) { return count(n, Color::Red, t) + count(n, Color::Black, t); };
    if (total(PieceType::Soldier) > 0) return MaterialDraw::No;
    // Only chariots, horses and cannons ("major material" in Pikafish) can attack from afar.
    auto majors = [&](Color c) {
        return count(n, c, PieceType::Chariot) + count(n, c, PieceType::Horse) +
               count(n, c, PieceType::Cannon);
    };
    const int red = majors(Color::Red), black = majors(Color::Black);
    if (red + black == 0) return MaterialDraw::Direct;

    auto lone_cannon = [&](Color c) { return majors(c) == 1 && count(n, c, PieceType::Cannon) == 1; };
    if (red + black == 1) {
        const Color side = red == 1 ? Color::Red : Color::Black;
        // A lone cannon needs its own advisors as screens; without them it mates only a bare palace.
        if (lone_cannon(side) && count(n, side, PieceType::Advisor) == 0) {
            const int defenders = count(n, ~side, PieceType::Advisor);
            const int elephants = count(n, side, PieceType::Elephant);
            if (defenders == 0) return MaterialDraw::Direct;
            if (defenders == 1) return elephants == 0 ? MaterialDraw::Direct : MaterialDraw::UnlessMateInOne;
            if (elephants == 0) return MaterialDraw::UnlessMateInOne;
        }
    }
    if (lone_cannon(Color::Red) && lone_cannon(Color::Black) && total(PieceType::Advisor) == 0)
        return total(PieceType::Elephant) == 0 ? MaterialDraw::Direct : MaterialDraw::UnlessMateInOne;
    return MaterialDraw::No;
}

bool insufficient_material(const Position& pos) {
    switch (material_draw_level(pos)) {
        case MaterialDraw::No:
            return false;
        case MaterialDraw::Direct:
            return true;
        case MaterialDraw::UnlessMateInOne:
            return has_legal_move(pos) && !has_mate_in_one(pos);
    }
    return false;
}

bool has_mating_material(const Position& pos, Color side) {
    bool found = false;
    pos.pieces(side).for_each([&](Square s) {
        const PieceType t = type_of(pos.at(s));
        found |= t == PieceType::Chariot || t == PieceType::Horse || t == PieceType::Cannon ||
                 t == PieceType::Soldier;
    });
    return found;
}

std::string_view to_string(Result r) {
    switch (r) {
        case Result::Ongoing:
            return "ongoing";
        case Result::RedWins:
            return "red_wins";
        case Result::BlackWins:
            return "black_wins";
        case Result::Draw:
            return "draw";
    }
    return "ongoing";
}

std::string_view to_string(Reason r) {
    switch (r) {
        case Reason::Checkmate:
            return "checkmate";
        case Reason::Stalemate:
            return "stalemate";
        case Reason::PerpetualCheck:
            return "perpetual_check";
        case Reason::PerpetualChase:
            return "perpetual_chase";
        case Reason::Repetition:
            return "repetition";
        case Reason::MoveLimit:
            return "move_limit";
        case Reason::InsufficientMaterial:
            return "insufficient_material";
        case Reason::Resignation:
            return "resignation";
        case Reason::Agreement:
            return "agreement";
        case Reason::Timeout:
            return "timeout";
        case Reason::Abandonment:
            return "abandonment";
        case Reason::None:
            break;
    }
    return "";
}

}  // namespace xq
