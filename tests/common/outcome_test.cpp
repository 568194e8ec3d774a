// Mate and stalemate: the side to move with no legal move loses either way.

#include <gtest/gtest.h>

#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "common/outcome.h"

namespace xq {
namespace {

Outcome outcome_of(std::string_view fen) {
    const auto pos = parse_fen(fen);
    EXPECT_TRUE(pos) << fen;
    return pos ? position_outcome(*pos) : Outcome{};
}

TEST(Outcome, StartIsOngoing) { EXPECT_EQ(position_outcome(Position::start()), Outcome{}); }

TEST(Outcome, Checkmate) {
    // Black general d9 in check from the chariot d7; d8 is covered and e9 would face the red general.
    const auto o = outcome_of("3k5/9/3R5/9/9/9/9/9/9/4K4 b");
    EXPECT_EQ(o.result, Result::RedWins);
    EXPECT_EQ(o.reason, Reason::Checkmate);
}

TEST(Outcome, StalemateLosesForTheSideToMove) {
    // Black general d9 is not in check, but d8 is covered by the chariot and e9 faces the red general.
    const auto o = outcome_of("3k5/R8/9/9/9/9/9/9/9/4K4 b");
    EXPECT_EQ(o.result, Result::RedWins);
    EXPECT_EQ(o.reason, Reason::Stalemate);
}

TEST(Outcome, MateReachedByAMove) {
    auto pos = *parse_fen("3k5/9/R8/9/9/9/9/9/9/4K4 w");
    EXPECT_EQ(position_outcome(pos), Outcome{});
    const Move m = *parse_iccs("a7d7");
    ASSERT_TRUE(is_legal(pos, m));
    pos.play(m);
    EXPECT_TRUE(pos.in_check());
    EXPECT_EQ(position_outcome(pos).reason, Reason::Checkmate);
    EXPECT_EQ(position_outcome(pos).result, Result::RedWins);
}

TEST(Outcome, Names) {
    EXPECT_EQ(to_string(Result::BlackWins), "black_wins");
    EXPECT_EQ(to_string(Reason::Stalemate), "stalemate");
}

}  // namespace
}  // namespace xq
