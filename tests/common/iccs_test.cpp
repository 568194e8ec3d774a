#include <gtest/gtest.h>

#include "common/iccs.h"

namespace xq {
namespace {

TEST(Iccs, SquaresAndMoves) {
    EXPECT_EQ(square_name(make_square(7, 2)), "h2");
    EXPECT_EQ(parse_square("h2"), make_square(7, 2));
    EXPECT_EQ(parse_square("I9"), make_square(8, 9));
    const auto m = parse_iccs("h2e2");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->from(), make_square(7, 2));
    EXPECT_EQ(m->to(), make_square(4, 2));
    EXPECT_EQ(to_iccs(*m), "h2e2");
    EXPECT_EQ(parse_iccs("H2-E2"), m);
    EXPECT_EQ(parse_iccs("H2E2"), m);
}

TEST(Iccs, RejectsBadText) {
    for (const char* bad :
         {"", "h2", "h2e", "h2e2e", "j2e2", "h2e:", "h-2e2", "h2xe2", "e2e2", "h10e2", "H2_E2"})
        EXPECT_FALSE(parse_iccs(bad)) << bad;
}

TEST(Moves, PackingKeepsBothSquares) {
    for (Square from = 0; from < kSquares; ++from)
        for (Square to = 0; to < kSquares; ++to) {
            const Move m(from, to);
            ASSERT_EQ(m.from(), from);
            ASSERT_EQ(m.to(), to);
        }
    EXPECT_TRUE(Move().is_none());
}

}  // namespace
}  // namespace xq
