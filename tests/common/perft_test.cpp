// Every row of the shared perft table (verified against two engines) must match exactly.

#include <gtest/gtest.h>

#include "common/fen.h"
#include "common/perft.h"
#include "support/test_data.h"

namespace xq {
namespace {

const std::vector<test::PerftCase>& cases() {
    static const auto all = test::load_perft_cases(test::data_path("perft/positions.tsv"));
    return all;
}

class SharedPerft : public ::testing::TestWithParam<std::size_t> {};

TEST_P(SharedPerft, MatchesReference) {
    const auto& c = cases().at(GetParam());
    SCOPED_TRACE(c.fen + " depth " + std::to_string(c.depth) + " (" + c.note + ")");
    const auto pos = parse_fen(c.fen);
    ASSERT_TRUE(pos) << pos.error().message;
    EXPECT_EQ(perft(*pos, c.depth), c.nodes);
}

INSTANTIATE_TEST_SUITE_P(Table, SharedPerft, ::testing::Range<std::size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& row) {
                             return "row" + std::to_string(row.param + 2) + "_depth" +
                                    std::to_string(cases()[row.param].depth);
                         });

TEST(Perft, TableIsNotEmpty) { EXPECT_GE(cases().size(), 50u); }

}  // namespace
}  // namespace xq
