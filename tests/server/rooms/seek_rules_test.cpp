// The quick-match rules as a cluster's matcher applies them (seek_rules.h): a batch of seeks read
// at once, in arrival order, paired as one server would have paired them one by one.

#include <gtest/gtest.h>

#include "server/rooms/seek_rules.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

const TimeControl kBlitz{5min, 3s, {}};
const TimeControl kRapid{15min, 10s, {}};

std::vector<WaitingSeek> waiting(const std::vector<Seek>& seeks, const std::vector<Millis>& waited) {
    std::vector<WaitingSeek> out;
    for (std::size_t i = 0; i < seeks.size(); ++i) out.push_back({&seeks[i], waited[i]});
    return out;
}

TEST(SeekRules, ABatchPairsTheLongestWaiterFirstWithinItsRange) {
    const std::vector<Seek> seeks = {
        {"ann", 1, kBlitz, true, 1500},  {"cas", 2, kBlitz, false, 0},   {"far", 3, kBlitz, true, 1900},
        {"rap", 4, kRapid, false, 0},    {"ben", 5, kBlitz, true, 1640}, {"dan", 6, kBlitz, false, 0},
        {"eve", 7, kBlitz, true, 1550},
    };
    const auto pairs = pair_waiting_seeks(waiting(seeks, {3s, 3s, 2s, 2s, 1s, 1s, 0ms}));
    // ann takes ben (140 within 150), not far (400) nor eve (later); cas takes dan; far, rap and
    // eve (1550: 350 from far) wait.
    const std::vector<std::pair<std::size_t, std::size_t>> expected = {{0, 4}, {1, 5}};
    EXPECT_EQ(pairs, expected);
}

TEST(SeekRules, EitherSidesWidenedRangeWill) {
    const std::vector<Seek> seeks = {{"new", 1, kBlitz, true, 1500}, {"old", 2, kBlitz, true, 1950}};
    EXPECT_TRUE(pair_waiting_seeks(waiting(seeks, {0ms, 29s})).empty());  // 450 apart, ranges 150 and 400...
    EXPECT_EQ(pair_waiting_seeks(waiting(seeks, {0ms, 30s})).size(), 1u);  // ...then 450
    EXPECT_FALSE(seek_accepts(seeks[0], 0ms, seeks[1]));
    EXPECT_TRUE(seek_accepts(seeks[1], 30s, seeks[0]));
    EXPECT_TRUE(seek_accepts(seeks[1], 60s, {"any", 3, kBlitz, true, 9999}));  // unlimited from a minute
    EXPECT_FALSE(seek_accepts(seeks[1], 60s, {"cas", 4, kBlitz, false, 1950}));  // never a casual one
}

}  // namespace
}  // namespace xq::server
