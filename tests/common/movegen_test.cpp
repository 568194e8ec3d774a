// Focused tests, one rule at a time, on small constructed positions.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "common/fen.h"
#include "common/geometry.h"
#include "common/iccs.h"
#include "common/movegen.h"

namespace xq {
namespace {

Position at(std::string_view fen) {
    auto pos = parse_fen(fen);
    EXPECT_TRUE(pos) << fen << ": " << (pos ? "" : pos.error().message);
    return pos ? *pos : Position::start();
}

// Destinations of the piece on `from`, as a set of square names.
std::set<std::string> targets(const Position& pos, std::string_view from) {
    std::set<std::string> out;
    for (Move m : legal_moves_from(pos, *parse_square(from))) out.insert(square_name(m.to()));
    return out;
}

using Set = std::set<std::string>;

TEST(Geometry, EveryTableEntryIsOnTheBoard) {
    const auto& t = geo::kTables;
    for (int s = 0; s < kSquares; ++s) {
        for (const auto& ray : t.rays[s])
            for (int i = 0; i < ray.length; ++i) EXPECT_LT(ray.squares[i], kSquares);
        for (const auto* list :
             {&t.horse_moves[s], &t.horse_attackers[s], &t.elephant_moves[0][s], &t.elephant_moves[1][s]})
            for (int i = 0; i < list->size; ++i) {
                EXPECT_LT(list->steps[i].square, kSquares);
                EXPECT_LT(list->steps[i].block, kSquares);
            }
        for (int c = 0; c < 2; ++c)
            for (const auto* list : {&t.advisor_moves[c][s], &t.general_moves[c][s], &t.soldier_moves[c][s],
                                     &t.soldier_attackers[c][s]})
                for (int i = 0; i < list->size; ++i) EXPECT_LT(list->squares[i], kSquares) << "square " << s;
    }
}

TEST(Moves, GeneralStaysInPalace) {
    EXPECT_EQ(targets(at("4k4/9/9/9/9/9/9/9/9/3K5 w"), "d0"),
              (Set{"d1"}));  // e0 would face the black general
    EXPECT_EQ(targets(at("3k5/9/9/9/9/9/9/9/4K4/9 w"), "e1"), (Set{"e0", "e2", "f1"}));
    EXPECT_EQ(targets(at("3k5/9/9/9/9/9/9/5K3/9/9 w"), "f2"), (Set{"f1", "e2"}));
}

TEST(Moves, AdvisorOnPalaceDiagonals) {
    EXPECT_EQ(targets(at("5k3/9/9/9/9/9/9/9/4A4/3K5 w"), "e1"), (Set{"f0", "d2", "f2"}));
    EXPECT_EQ(targets(at("3k5/9/9/9/9/9/9/9/9/4KA3 w"), "f0"), (Set{"e1"}));
}

TEST(Moves, ElephantEyeAndRiver) {
    // Elephant on e2: four diagonal targets when free.
    EXPECT_EQ(targets(at("4k4/9/9/9/9/9/9/4B4/9/3K5 w"), "e2"), (Set{"c0", "g0", "c4", "g4"}));
    // A piece on the eye f3 blocks g4; own piece on c0 is not a target.
    EXPECT_EQ(targets(at("4k4/9/9/9/9/9/5p3/4B4/9/2BK5 w"), "e2"), (Set{"g0", "c4"}));
    // An elephant on the river bank may not cross.
    EXPECT_EQ(targets(at("4k4/9/9/9/9/2B6/9/9/9/3K5 w"), "c4"), (Set{"a2", "e2"}));
    EXPECT_EQ(targets(at("3k5/9/9/9/2b6/9/9/9/9/4K4 b"), "c5"), (Set{"a7", "e7"}));
}

TEST(Moves, HorseLeg) {
    EXPECT_EQ(targets(at("4k4/9/9/9/9/4N4/9/9/9/3K5 w"), "e4").size(), 8u);
    // Legs on e5 (own) and f4 (enemy) block four of the eight jumps.
    EXPECT_EQ(targets(at("4k4/9/9/9/4P4/4Np3/9/9/9/3K5 w"), "e4"), (Set{"c5", "c3", "d2", "f2"}));
    // Corner horse: two jumps.
    EXPECT_EQ(targets(at("4k4/9/9/9/9/9/9/9/9/N2K5 w"), "a0"), (Set{"b2", "c1"}));
}

TEST(Moves, ChariotSlidesAndCaptures) {
    EXPECT_EQ(targets(at("4k4/9/9/9/9/9/9/p8/9/R2K5 w"), "a0"), (Set{"a1", "a2", "b0", "c0"}));
}

TEST(Moves, CannonNeedsExactlyOneScreen) {
    // Cannon a0, screen a3, enemy a5 (capturable), enemy a7 behind two screens (not).
    const Position pos = at("4k4/9/r8/9/p8/9/P8/9/9/C2K5 w");
    EXPECT_EQ(targets(pos, "a0"), (Set{"a1", "a2", "b0", "c0", "a5"}));
    // Adjacent enemy with nothing beyond: no capture without a screen.
    EXPECT_EQ(targets(at("4k4/9/9/9/9/9/9/9/p8/C2K5 w"), "a0"), (Set{"b0", "c0"}));
}

TEST(Moves, SoldiersForwardThenSideways) {
    EXPECT_EQ(targets(at("4k4/9/9/9/9/9/4P4/9/9/3K5 w"), "e3"), (Set{"e4"}));
    EXPECT_EQ(targets(at("4k4/9/9/9/4P4/9/9/9/9/3K5 w"), "e5"), (Set{"e6", "d5", "f5"}));
    EXPECT_EQ(targets(at("3k4P/9/9/9/9/9/9/9/9/4K4 w"), "i9"), (Set{"h9"}));  // last rank: sideways only
    EXPECT_EQ(targets(at("4k4/9/9/9/4p4/9/9/9/9/3K5 b"), "e5"), (Set{"e4"}));
    EXPECT_EQ(targets(at("4k4/9/9/9/9/4p4/9/9/9/3K5 b"), "e4"), (Set{"e3", "d4", "f4"}));
}

TEST(Legality, PinnedPieceMayNotLeaveTheFile) {
    // The red horse on e4 is the only piece between the generals.
    EXPECT_TRUE(targets(at("4k4/9/9/9/9/4N4/9/9/9/4K4 w"), "e4").empty());
    // A chariot pinned by a chariot may slide along the file only, or take its pinner.
    EXPECT_EQ(targets(at("3k5/9/4r4/9/9/9/4R4/9/9/4K4 w"), "e3"), (Set{"e1", "e2", "e4", "e5", "e6", "e7"}));
}

TEST(Legality, GeneralMayNotStepOntoTheOpenFile) {
    EXPECT_EQ(targets(at("4k4/9/9/9/9/9/9/9/9/3K5 w"), "d0"), (Set{"d1"}));
}

TEST(Legality, MovingIntoALineCanGiveACannonAScreen) {
    // Black cannon e7 and red general e0 with nothing between: a red piece moving to the e-file
    // would become the screen. The chariot on a3 may go anywhere but e3.
    const Position pos = at("3k5/9/4c4/9/9/9/R8/9/9/4K4 w");
    EXPECT_FALSE(targets(pos, "a3").contains("e3"));
    EXPECT_TRUE(targets(pos, "a3").contains("d3"));
}

TEST(Legality, UnblockingAHorseLegIsIllegal) {
    // Black horse f2 attacks e0 only through its leg f1, where a red horse stands.
    const Position pos = at("3k5/9/9/9/9/9/9/5n3/5N3/4K4 w");
    EXPECT_TRUE(targets(pos, "f1").empty());
}

TEST(Legality, CheckMustBeAnswered) {
    // Red in check from the chariot e9: block on e1 or step to f0 (d0 would face the black general).
    const Position pos = at("3kr4/9/9/9/9/9/9/9/R8/4K4 w");
    ASSERT_TRUE(pos.in_check());
    EXPECT_EQ(targets(pos, "a1"), (Set{"e1"}));
    EXPECT_EQ(targets(pos, "e0"), (Set{"f0"}));
    EXPECT_EQ(legal_moves(pos).size(), 2u);
}

TEST(Legality, IsLegalAgreesWithGeneration) {
    const Position pos = at("1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1");
    const MoveList legal = legal_moves(pos);
    for (Square from = 0; from < kSquares; ++from)
        for (Square to = 0; to < kSquares; ++to)
            if (from != to) {
                EXPECT_EQ(is_legal(pos, Move(from, to)), legal.contains(Move(from, to)));
            }
    EXPECT_FALSE(is_legal(pos, Move()));
    EXPECT_EQ(count_legal_moves(pos), legal.size());
    EXPECT_EQ(has_legal_move(pos), !legal.empty());
}

TEST(Legality, OnlyTheSideToMoveHasMoves) {
    const Position pos = Position::start();
    EXPECT_TRUE(legal_moves_from(pos, *parse_square("h7")).empty());  // black cannon, red to move
    EXPECT_TRUE(legal_moves_from(pos, *parse_square("e5")).empty());  // empty square
    EXPECT_TRUE(legal_moves_from(pos, -3).empty());
    EXPECT_EQ(legal_moves_from(pos, *parse_square("h2")).size(), 12u);
}

}  // namespace
}  // namespace xq
