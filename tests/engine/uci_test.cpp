// The engine adapter's text handling without an engine: coordinates both ways, info and bestmove.

#include <gtest/gtest.h>

#include "common/iccs.h"
#include "engine/levels.h"
#include "engine/uci_info.h"
#include "engine/uci_move.h"

namespace xq::engine {
namespace {

Move iccs(std::string_view text) { return *parse_iccs(text); }

TEST(EngineCoords, OursToEngineShiftsRanksUpByOne) {
    EXPECT_EQ(to_uci(iccs("h2e2")), "h3e3");
    EXPECT_EQ(to_uci(iccs("a0a1")), "a1a2");
    EXPECT_EQ(to_uci(iccs("e9e8")), "e10e9");
    EXPECT_EQ(to_uci(iccs("i8i9")), "i9i10");
}

TEST(EngineCoords, EngineToOursShiftsRanksDownByOne) {
    EXPECT_EQ(from_uci("h3e3"), iccs("h2e2"));
    EXPECT_EQ(from_uci("h10g8"), iccs("h9g7"));
    EXPECT_EQ(from_uci("a10a9"), iccs("a9a8"));
    EXPECT_EQ(from_uci("i9i10"), iccs("i8i9"));
}

TEST(EngineCoords, EverySquarePairRoundTrips) {
    for (Square from = 0; from < kSquares; ++from)
        for (Square to = 0; to < kSquares; ++to) {
            if (from == to) continue;
            const Move m(from, to);
            ASSERT_EQ(from_uci(to_uci(m)), m) << to_uci(m);
        }
}

TEST(EngineCoords, MalformedEngineTextIsRejected) {
    for (const char* bad : {"", "(none)", "0000", "h0e3", "h11e3", "j3e3", "h3e", "h3e3x", "h3h3", "H3E3", "h3e3 "})
        EXPECT_FALSE(from_uci(bad)) << bad;
}

TEST(EngineUci, InfoScoresAreRead) {
    auto cp = parse_info_score("info depth 12 seldepth 18 multipv 1 score cp -37 nodes 1000 pv h3e3");
    ASSERT_TRUE(cp);
    EXPECT_FALSE(cp->is_mate);
    EXPECT_EQ(cp->value, -37);
    EXPECT_EQ(cp->depth, 12);
    auto mate = parse_info_score("info depth 3 score mate -2 pv a1a2");
    ASSERT_TRUE(mate);
    EXPECT_TRUE(mate->is_mate);
    EXPECT_EQ(mate->value, -2);
}

TEST(EngineUci, OtherLinesAndGarbageGiveNoScore) {
    EXPECT_FALSE(parse_info_score("info string variant xiangqi"));
    EXPECT_FALSE(parse_info_score("info depth 5 score cp 20 lowerbound nodes 3"));
    EXPECT_FALSE(parse_info_score("info depth 5 score cp abc"));
    EXPECT_FALSE(parse_info_score("info depth 5 score"));
    EXPECT_FALSE(parse_info_score("bestmove h3e3"));
    EXPECT_FALSE(parse_info_score(""));
}

TEST(EngineUci, BestmoveIsRead) {
    EXPECT_EQ(parse_bestmove("bestmove h3e3 ponder h10g8")->move, "h3e3");
    EXPECT_EQ(parse_bestmove("bestmove (none)")->move, "(none)");
    EXPECT_FALSE(parse_bestmove("bestmove"));
    EXPECT_FALSE(parse_bestmove("info depth 1"));
}

TEST(EngineLevels, EightLevelsGrowInSkillAndTime) {
    EXPECT_FALSE(level(0));
    EXPECT_FALSE(level(9));
    for (int n = kMinLevel; n < kMaxLevel; ++n) {
        EXPECT_LT(level(n)->skill, level(n + 1)->skill);
        EXPECT_LT(level(n)->think_time_ms, level(n + 1)->think_time_ms);
    }
    EXPECT_EQ(level(kMaxLevel)->skill, 20);
    EXPECT_EQ(level(kMinLevel)->skill, 0);
}

}  // namespace
}  // namespace xq::engine
