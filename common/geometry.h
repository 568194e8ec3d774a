#pragma once
// Precomputed board geometry, built at compile time: rays, horse legs, elephant eyes, palace steps.
// Move generation and attack tests walk these lists instead of testing board edges.

#include <array>
#include <cstdint>

#include "types.h"

namespace xq::geo {

enum Direction : int { North = 0, South = 1, East = 2, West = 3 };  // North: towards rank 9

// Squares from a square to the board edge in one direction, nearest first.
struct Ray {
    std::array<std::uint8_t, 9> squares{};
    std::uint8_t length = 0;
};

// A step that a piece between can block: the horse's leg, the elephant's eye.
struct Step {
    std::uint8_t square = 0;  // destination (or, in an attacker list, the origin)
    std::uint8_t block = 0;   // the square that must be empty
};

struct StepList {
    std::array<Step, 8> steps{};
    std::uint8_t size = 0;
};

struct SquareList {
    std::array<std::uint8_t, 4> squares{};
    std::uint8_t size = 0;
};

// Flags in Tables::legality: which moves could expose the general on a given square.
inline constexpr std::uint8_t kDangerFrom = 1;  // leaving it can open a line or a horse leg
inline constexpr std::uint8_t kDangerTo = 2;    // arriving on it can become a cannon screen

struct Tables {
    std::array<std::array<Ray, 4>, kSquares> rays{};
    std::array<StepList, kSquares> horse_moves{};      // (to, leg)
    std::array<StepList, kSquares> horse_attackers{};  // (from, leg) of horses that attack the square
    std::array<std::array<StepList, kSquares>, 2> elephant_moves{};  // (to, eye), own half only
    std::array<std::array<SquareList, kSquares>, 2> advisor_moves{};
    std::array<std::array<SquareList, kSquares>, 2> general_moves{};
    std::array<std::array<SquareList, kSquares>, 2> soldier_moves{};
    // Squares from which a soldier of the given colour attacks the square.
    std::array<std::array<SquareList, kSquares>, 2> soldier_attackers{};
    // legality[general][square]: kDangerFrom / kDangerTo flags relative to one's own general.
    std::array<std::array<std::uint8_t, kSquares>, kSquares> legality{};
};

namespace detail {

constexpr int forward(Color c) { return c == Color::Red ? 1 : -1; }

constexpr bool crossed_river(Color c, int rank) { return !on_own_half(c, rank); }

constexpr void push(SquareList& l, int s) { l.squares[l.size++] = static_cast<std::uint8_t>(s); }
constexpr void push(StepList& l, int s, int block) {
    l.steps[l.size++] = Step{static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(block)};
}

constexpr Tables make_tables() {
    Tables t{};
    constexpr int dir_df[4] = {0, 0, 1, -1};
    constexpr int dir_dr[4] = {1, -1, 0, 0};
    constexpr int horse_df[8] = {1, -1, 1, -1, 2, 2, -2, -2};
    constexpr int horse_dr[8] = {2, 2, -2, -2, 1, -1, 1, -1};
    constexpr int diag_df[4] = {1, 1, -1, -1};
    constexpr int diag_dr[4] = {1, -1, 1, -1};

    for (int s = 0; s < kSquares; ++s) {
        const int f = file_of(s), r = rank_of(s);
        for (int d = 0; d < 4; ++d) {
            Ray& ray = t.rays[s][d];
            for (int nf = f + dir_df[d], nr = r + dir_dr[d]; on_board(nf, nr);
                 nf += dir_df[d], nr += dir_dr[d])
                ray.squares[ray.length++] = static_cast<std::uint8_t>(make_square(nf, nr));
        }
        for (int i = 0; i < 8; ++i) {
            const int df = horse_df[i], dr = horse_dr[i];
            // The leg is the square next to the horse in the direction of its long stride.
            const int leg_df = (df == 2 || df == -2) ? df / 2 : 0;
            const int leg_dr = (dr == 2 || dr == -2) ? dr / 2 : 0;
            if (on_board(f + df, r + dr))
                push(t.horse_moves[s], make_square(f + df, r + dr), make_square(f + leg_df, r + leg_dr));
            const int of = f - df, orank = r - dr;  // a horse there would reach s
            if (on_board(of, orank))
                push(t.horse_attackers[s], make_square(of, orank), make_square(of + leg_df, orank + leg_dr));
        }
        for (Color c : {Color::Red, Color::Black}) {
            const int ci = index_of(c);
            for (int i = 0; i < 4; ++i) {
                const int ef = f + 2 * diag_df[i], er = r + 2 * diag_dr[i];
                // The elephant may not cross the river and is stopped by a piece on its eye.
                if (on_board(ef, er) && on_own_half(c, er) && on_own_half(c, r))
                    push(t.elephant_moves[ci][s], make_square(ef, er),
                         make_square(f + diag_df[i], r + diag_dr[i]));
                const int af = f + diag_df[i], ar = r + diag_dr[i];
                if (in_palace(c, f, r) && in_palace(c, af, ar))
                    push(t.advisor_moves[ci][s], make_square(af, ar));
                const int gf = f + dir_df[i], gr = r + dir_dr[i];
                if (in_palace(c, f, r) && in_palace(c, gf, gr))
                    push(t.general_moves[ci][s], make_square(gf, gr));
            }
            // Soldiers step forward; after crossing the river also sideways, never back.
            const int fr = r + forward(c);
            if (on_board(f, fr)) push(t.soldier_moves[ci][s], make_square(f, fr));
            if (crossed_river(c, r)) {
                if (f > 0) push(t.soldier_moves[ci][s], make_square(f - 1, r));
                if (f < kFiles - 1) push(t.soldier_moves[ci][s], make_square(f + 1, r));
            }
            const int br = r - forward(c);  // a soldier behind s (from its side) attacks it
            if (on_board(f, br) && !(c == Color::Red ? br < 3 : br > 6))
                push(t.soldier_attackers[ci][s], make_square(f, br));
            if (crossed_river(c, r)) {
                if (f > 0) push(t.soldier_attackers[ci][s], make_square(f - 1, r));
                if (f < kFiles - 1) push(t.soldier_attackers[ci][s], make_square(f + 1, r));
            }
        }
    }
    for (int g = 0; g < kSquares; ++g) {
        for (int s = 0; s < kSquares; ++s) {
            const int df = file_of(s) - file_of(g), dr = rank_of(s) - rank_of(g);
            std::uint8_t flags = 0;
            // Same file or rank: chariot, cannon and facing-general lines run through it.
            if (df == 0 || dr == 0) flags |= kDangerFrom | kDangerTo;
            // A diagonal neighbour is the leg of every horse that could attack the general.
            if ((df == 1 || df == -1) && (dr == 1 || dr == -1)) flags |= kDangerFrom;
            t.legality[g][s] = flags;
        }
    }
    return t;
}

}  // namespace detail

inline constexpr Tables kTables = detail::make_tables();

}  // namespace xq::geo
