#include "chase.h"

#include <algorithm>
#include <bitset>

#include "attacks.h"
#include "geometry.h"

namespace xq {
namespace {

using detail::general_attacked;

Piece piece_at(const Board& b, int s) { return b[static_cast<std::size_t>(s)]; }

Square find_general(const Board& b, Color c) {
    const Piece g = make_piece(c, PieceType::General);
    for (Square s = 0; s < kSquares; ++s)
        if (piece_at(b, s) == g) return s;
    return kNoSquare;
}

// Calls f(square) for every occupied square the piece on `from` could capture on, of either
// colour, by its movement rules alone (pins are the caller's business).
template <class F>
void for_each_target(const Board& b, Square from, F&& f) {
    const auto& t = geo::kTables;
    const Piece pc = piece_at(b, from);
    const int ci = index_of(color_of(pc));
    auto steps = [&](const geo::StepList& list) {
        // The horse's leg or the elephant's eye must be empty.
        for (int i = 0; i < list.size; ++i)
            if (piece_at(b, list.steps[i].block) == Piece::None &&
                piece_at(b, list.steps[i].square) != Piece::None)
                f(static_cast<Square>(list.steps[i].square));
    };
    auto points = [&](const geo::SquareList& list) {
        for (int i = 0; i < list.size; ++i)
            if (piece_at(b, list.squares[i]) != Piece::None) f(static_cast<Square>(list.squares[i]));
    };
    switch (type_of(pc)) {
        case PieceType::Chariot:
        case PieceType::Cannon: {
            // A chariot takes the first piece on a line, a cannon the second (over its screen).
            const int skip = type_of(pc) == PieceType::Cannon ? 1 : 0;
            for (int d = 0; d < 4; ++d) {
                const geo::Ray& ray = t.rays[from][d];
                int seen = 0;
                for (int i = 0; i < ray.length; ++i) {
                    if (piece_at(b, ray.squares[i]) == Piece::None) continue;
                    if (seen++ == skip) {
                        f(static_cast<Square>(ray.squares[i]));
                        break;
                    }
                }
            }
            break;
        }
        case PieceType::Horse:
            steps(t.horse_moves[from]);
            break;
        case PieceType::Elephant:
            steps(t.elephant_moves[ci][from]);
            break;
        case PieceType::Advisor:
            points(t.advisor_moves[ci][from]);
            break;
        case PieceType::General:
            points(t.general_moves[ci][from]);
            break;
        case PieceType::Soldier:
            points(t.soldier_moves[ci][from]);
            break;
        case PieceType::None:
            break;
    }
}

bool can_capture(const Board& b, Square from, Square to) {
    bool hit = false;
    for_each_target(b, from, [&](Square s) { hit |= s == to; });
    return hit;
}

// Would the capture from -> to leave the capturer's general safe (flying general included)?
bool capture_is_legal(Board b, Square from, Square to, Square general) {
    const Color side = color_of(piece_at(b, from));
    b[static_cast<std::size_t>(to)] = piece_at(b, from);
    b[static_cast<std::size_t>(from)] = Piece::None;
    return !general_attacked(b.data(), from == general ? to : general, ~side);
}

// Do the generals on a and c face each other on an open file?
bool generals_face(const Board& b, Square a, Square c) {
    if (file_of(a) != file_of(c)) return false;
    for (Square s = std::min(a, c) + kFiles; s < std::max(a, c); s += kFiles)
        if (piece_at(b, s) != Piece::None) return false;
    return true;
}

// The squares of the enemy pieces that attack the general on `general`, a facing general included.
using Attackers = std::bitset<kSquares>;
Attackers general_attackers(const Board& b, Square general) {
    const Color them = ~color_of(piece_at(b, general));
    Attackers out;
    for (Square s = 0; s < kSquares; ++s) {
        const Piece p = piece_at(b, s);
        if (p == Piece::None || color_of(p) != them) continue;
        if (type_of(p) == PieceType::General ? generals_face(b, s, general) : can_capture(b, s, general))
            out.set(static_cast<std::size_t>(s));
    }
    return out;
}

// Would the capture from -> to expose the capturer's general to an attack it does not already
// face? Out of check that is plain legality; in check, a capture that leaves the check as it was
// still counts: the side had that attack, it only could not play it yet.
bool capture_is_playable(Board b, Square from, Square to, Square general, const Attackers& checkers) {
    if (capture_is_legal(b, from, to, general)) return true;
    if (checkers.none()) return false;
    b[static_cast<std::size_t>(to)] = piece_at(b, from);
    b[static_cast<std::size_t>(from)] = Piece::None;
    return (general_attackers(b, from == general ? to : general) & ~checkers).none();
}

// Can `side` legally take back on `to`? Protectors that cannot are fake roots: pinned pieces, a
// general that would face the other one, a cannon whose screen was the piece that just captured.
bool has_legal_recapture(const Board& b, Square to, Color side, Square general) {
    for (Square s = 0; s < kSquares; ++s) {
        const Piece p = piece_at(b, s);
        if (p == Piece::None || color_of(p) != side) continue;
        if (can_capture(b, s, to) && capture_is_legal(b, s, to, general)) return true;
    }
    return false;
}

// Is the piece on `from` pinned: would its general face a new attack if it left the board? A
// side in check has pinned pieces too: those shielding the general from another piece.
bool is_pinned(Board b, Square from, Square general, const Attackers& checkers) {
    const Color side = color_of(piece_at(b, from));
    b[static_cast<std::size_t>(from)] = Piece::None;
    if (!general_attacked(b.data(), general, ~side)) return false;
    return checkers.none() || (general_attackers(b, general) & ~checkers).any();
}

// The attacks on a stronger kind of piece that are chases even when the target is protected.
bool attacks_stronger(PieceType attacker, PieceType target) {
    switch (attacker) {
        case PieceType::Horse:
        case PieceType::Cannon:
            return target == PieceType::Chariot;
        case PieceType::Advisor:
        case PieceType::Elephant:
            return target == PieceType::Chariot || target == PieceType::Horse || target == PieceType::Cannon;
        default:
            return false;
    }
}

}  // namespace

IdBoard number_pieces(const Board& board) {
    IdBoard ids;
    ids.fill(kNoId);
    std::int8_t next[2] = {0, 0};
    for (Square s = 0; s < kSquares; ++s) {
        const Piece p = piece_at(board, s);
        if (p != Piece::None) ids[static_cast<std::size_t>(s)] = next[index_of(color_of(p))]++;
    }
    return ids;
}

PieceIds chased_pieces(const Board& b, const IdBoard& ids, Color attacker, const RulesPolicy& policy) {
    const Color victim = ~attacker;
    const Square own_general = find_general(b, attacker);
    const Square their_general = find_general(b, victim);
    // Usually none: only the side to move can be in check, and it is the attacker only in the
    // position before its own move.
    const Attackers checkers =
        general_attacked(b.data(), own_general, victim) ? general_attackers(b, own_general) : Attackers{};
    PieceIds chased = 0;
    for (Square from = 0; from < kSquares; ++from) {
        const Piece pc = piece_at(b, from);
        if (pc == Piece::None || color_of(pc) != attacker) continue;
        const PieceType type = type_of(pc);
        // Generals and soldiers may repeat their attacks freely.
        if (type == PieceType::General || type == PieceType::Soldier) continue;
        if (policy.pinned_attacker == RulesPolicy::PinnedAttacker::NeverChases &&
            is_pinned(b, from, own_general, checkers))
            continue;
        for_each_target(b, from, [&](Square to) {
            const Piece target = piece_at(b, to);
            if (color_of(target) != victim) return;
            const PieceType target_type = type_of(target);
            // The general is checked, not chased; a soldier is fair game only after the river.
            if (target_type == PieceType::General) return;
            if (target_type == PieceType::Soldier && on_own_half(victim, rank_of(to))) return;
            // An attack held back only by a check the attacker is in still counts (rules-spec 3).
            if (!capture_is_playable(b, from, to, own_general, checkers)) return;
            if (!attacks_stronger(type, target_type)) {
                Board after = b;
                after[static_cast<std::size_t>(to)] = pc;
                after[static_cast<std::size_t>(from)] = Piece::None;
                if (has_legal_recapture(after, to, victim, their_general)) return;
                // Like attacks like: no chase while the target could take the attacker instead.
                if (type == target_type && can_capture(b, to, from) &&
                    capture_is_legal(b, to, from, their_general))
                    return;
            }
            const std::int8_t id = ids[static_cast<std::size_t>(to)];
            if (id != kNoId) chased = static_cast<PieceIds>(chased | (1u << id));
        });
    }
    return chased;
}

}  // namespace xq
