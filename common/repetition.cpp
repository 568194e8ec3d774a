#include "repetition.h"

#include <array>

#include "chase.h"
#include "movegen.h"

namespace xq {
namespace {

bool is_capture(const Position& before, Move m) { return before.at(m.to()) != Piece::None; }

std::string capitalized(std::string_view s) {
    std::string out(s);
    if (!out.empty()) out[0] = static_cast<char>(out[0] - 'a' + 'A');
    return out;
}

// "moves 31–38" or "move 31", from the positions before the first and the last ply.
std::string move_range(const Position& first, const Position& last) {
    const int a = move_number(first), b = move_number(last);
    if (a == b) return "move " + std::to_string(a);
    return "moves " + std::to_string(a) + "\u2013" + std::to_string(b);
}

std::string chased_phrase(const std::vector<Piece>& pieces) {
    std::string out;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (i > 0) out += i + 1 == pieces.size() ? " and " : ", ";
        out += piece_phrase(pieces[i]);
    }
    return out;
}

}  // namespace

std::string piece_phrase(Piece p) {
    return "the " + std::string(to_string(color_of(p))) + " " + std::string(to_string(type_of(p)));
}

std::optional<std::size_t> third_occurrence(std::span<const Position> positions,
                                            std::span<const Move> moves) {
    if (positions.size() < 5) return std::nullopt;
    const std::size_t n = positions.size() - 1;
    const std::uint64_t key = positions[n].hash();
    int seen = 0;
    // Step back two plies at a time (same side to move) and stop at the last capture.
    for (std::size_t i = n; i >= 2; i -= 2) {
        if (is_capture(positions[i - 1], moves[i - 1]) || is_capture(positions[i - 2], moves[i - 2])) break;
        if (positions[i - 2].hash() == key && ++seen == 2) return i - 2;
    }
    return std::nullopt;
}

std::optional<CycleVerdict> judge_repetition(std::span<const Position> positions, std::span<const Move> moves,
                                             const RulesPolicy& policy, int ply_offset) {
    const auto start = third_occurrence(positions, moves);
    if (!start) return std::nullopt;
    const std::size_t first = *start, n = positions.size() - 1;

    // Move i (moves[i], from positions[i] to positions[i + 1]) gives check if positions[i + 1] is in check.
    std::array<bool, 2> all_check{true, true};
    bool any_check = false;
    std::array<std::vector<int>, 2> plies;
    for (std::size_t i = first; i < n; ++i) {
        const int side = index_of(positions[i].side_to_move());
        const bool check = positions[i + 1].in_check();
        all_check[static_cast<std::size_t>(side)] = all_check[static_cast<std::size_t>(side)] && check;
        any_check |= check;
        plies[static_cast<std::size_t>(side)].push_back(static_cast<int>(i) + 1 + ply_offset);
    }

    CycleVerdict v;
    v.first_ply = static_cast<int>(first) + 1 + ply_offset;
    v.last_ply = static_cast<int>(n) + ply_offset;
    const std::string span = move_range(positions[first], positions[n - 1]);
    auto plies_of = [&](Color c) { return plies[static_cast<std::size_t>(index_of(c))]; };
    auto lose = [&](Color loser, Reason reason, std::string what) {
        v.result = loss_for(loser);
        v.reason = reason;
        v.offender = loser;
        v.plies = plies_of(loser);
        const std::size_t a = static_cast<std::size_t>(v.plies.front() - 1 - ply_offset);
        const std::size_t b = static_cast<std::size_t>(v.plies.back() - 1 - ply_offset);
        v.detail = what + ", " + move_range(positions[a], positions[b]);
        v.explanation = capitalized(to_string(loser)) + " loses: " + v.detail + ".";
        return v;
    };
    auto both_plies = [&] {
        for (std::size_t i = first; i < n; ++i) v.plies.push_back(static_cast<int>(i) + 1 + ply_offset);
    };

    // 1-2. Check outranks chase: a lone perpetual checker loses, two of them draw.
    if (all_check[0] != all_check[1])
        return lose(all_check[0] ? Color::Red : Color::Black, Reason::PerpetualCheck, "perpetual check");
    if (all_check[0]) {
        both_plies();
        v.detail = "both sides gave perpetual check, " + span;
        v.explanation = "Draw: " + v.detail + ".";
        return v;
    }
    // Pikafish: a check anywhere in the cycle leaves no perpetual chase to punish (R12).
    if (any_check && policy.check_and_chase == RulesPolicy::CheckAndChase::Draw) {
        v.detail = "the position occurred for the third time, " + span;
        v.explanation = "Draw by repetition: " + v.detail + ".";
        return v;
    }

    // 3-4. Chases. Walk back from the final position, carrying piece ids so a chased piece keeps
    // its identity as it moves; each move chases what it attacks after that it did not before.
    // Only new chases count: a chase the piece already faced before the move is not a chase by
    // this move; nor is an attack that stood before the move but could not be played only because
    // the mover was in check (chased_pieces keeps it in the set before): answering the check does
    // not make it new.
    const IdBoard final_ids = number_pieces(positions[n].board());
    IdBoard ids = final_ids;
    std::array<PieceIds, 2> chase{0xffff, 0xffff};
    std::array<bool, 2> judged{false, false};
    for (std::size_t i = n; i-- > first;) {
        const Color mover = positions[i].side_to_move();
        const auto side = static_cast<std::size_t>(index_of(mover));
        const bool neutral = positions[i + 1].in_check();  // only reached under the Chase policy
        PieceIds after = 0;
        if (!neutral && chase[side]) after = chased_pieces(positions[i + 1].board(), ids, mover, policy);
        const auto from = static_cast<std::size_t>(moves[i].from()),
                   to = static_cast<std::size_t>(moves[i].to());
        ids[from] = ids[to];
        ids[to] = kNoId;
        if (neutral) continue;
        judged[side] = true;
        if (chase[side])
            chase[side] &=
                static_cast<PieceIds>(after & ~chased_pieces(positions[i].board(), ids, mover, policy));
    }
    std::array<bool, 2> chasing{};
    for (std::size_t s = 0; s < 2; ++s) chasing[s] = judged[s] && chase[s] != 0;

    if (chasing[0] != chasing[1]) {
        const Color loser = chasing[0] ? Color::Red : Color::Black;
        const PieceIds set = chase[static_cast<std::size_t>(index_of(loser))];
        for (Square s = 0; s < kSquares; ++s) {
            const Piece p = positions[n].at(s);
            const std::int8_t id = final_ids[static_cast<std::size_t>(s)];
            if (p != Piece::None && color_of(p) != loser && id != kNoId && ((set >> id) & 1))
                v.chased.push_back(p);
        }
        return lose(loser, Reason::PerpetualChase, "perpetual chase of " + chased_phrase(v.chased));
    }
    if (chasing[0]) {
        both_plies();
        v.detail = "both sides chased perpetually, " + span;
        v.explanation = "Draw: " + v.detail + ".";
        return v;
    }
    v.detail = "the position occurred for the third time, " + span;
    v.explanation = "Draw by repetition: " + v.detail + ".";
    return v;
}

std::optional<CycleVerdict> judge_final_position(const Position& start, std::span<const Move> moves,
                                                 const RulesPolicy& policy) {
    std::vector<Position> positions{start};
    positions.reserve(moves.size() + 1);
    for (Move m : moves) {
        if (!is_legal(positions.back(), m)) return std::nullopt;
        positions.push_back(positions.back().with_move(m));
    }
    return judge_repetition(positions, moves, policy);
}

}  // namespace xq
