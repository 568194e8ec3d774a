// Glicko-2 against published figures: the paper's own example, and the test figures of an
// independent implementation (the Rust crate skillratings, atomflunder/skillratings, src/glicko2.rs,
// tests test_glicko2, test_equal_glicko2, not_equal_deviation_draw and test_lose_streak; tau 0.5,
// epsilon 0.000001 as here), which rates each game as its own period, as the server does.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "server/ratings/glicko2.h"

namespace xq::ratings {
namespace {

// Glickman, "Example of the Glicko-2 system": one period with three games.
TEST(Glicko2, PaperExample) {
    const Glicko player{1500, 200, 0.06};
    const std::vector<GameScore> games = {{{1400, 30, 0.06}, 1.0}, {{1550, 100, 0.06}, 0.0}, {{1700, 300, 0.06}, 0.0}};
    const Glicko after = rate(player, games);
    EXPECT_NEAR(after.rating, 1464.06, 0.01);
    EXPECT_NEAR(after.deviation, 151.52, 0.01);
    EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, IdlePeriodOnlyWidensTheDeviation) {
    // skillratings test_glicko2_rating_period: 1250/95 with no games becomes RD 96.
    const Glicko after = rate({1250, 95, 0.06}, {});
    EXPECT_EQ(after.rating, 1250);
    EXPECT_EQ(std::round(after.deviation), 96);
    EXPECT_EQ(after.volatility, 0.06);
}

// The paper's three games played as three periods of one game each, both sides rated.
TEST(Glicko2, PaperGamesAsThreePeriods) {
    auto [player, first] = rate_game({1500, 200, 0.06}, {1400, 30, 0.06}, 1.0);
    EXPECT_EQ(std::round(player.rating), 1564);
    EXPECT_EQ(std::round(player.deviation), 175);
    EXPECT_EQ(std::round(first.rating), 1398);
    EXPECT_EQ(std::round(first.deviation), 32);
    player = rate_game(player, {1550, 100, 0.06}, 0.0).red;
    player = rate_game(player, {1700, 300, 0.06}, 0.0).red;
    EXPECT_EQ(std::round(player.rating), 1464);
    EXPECT_EQ(std::round(player.deviation), 152);
    EXPECT_NEAR(player.volatility, 0.059997514049860735, 1e-12);
}

TEST(Glicko2, OneGameBetweenNewishPlayers) {
    const auto win = rate_game({1520, 350, 0.06}, {1420, 350, 0.06}, 1.0);
    EXPECT_EQ(std::round(win.red.rating), 1653);
    EXPECT_EQ(std::round(win.red.deviation), 292);
    EXPECT_EQ(std::round(win.black.rating), 1287);
    EXPECT_EQ(std::round(win.black.deviation), 292);
    const auto draw = rate_game({1600, 350, 0.06}, {1500, 50, 0.06}, 0.5);
    EXPECT_EQ(std::round(draw.red.rating), 1550);
    EXPECT_EQ(std::round(draw.red.deviation), 253);
    EXPECT_EQ(std::round(draw.black.rating), 1501);
    EXPECT_EQ(std::round(draw.black.deviation), 51);
}

// A longer series: two new players, one loses N games in a row then wins one.
TEST(Glicko2, LosingStreakThenAWin) {
    struct Row {
        int losses;
        int loser_rating, loser_deviation, winner_rating, winner_deviation;
        int volatility_millionths;
    };
    for (const Row row : {Row{6, 1397, 212, 1603, 212, 60004}, Row{25, 1248, 176, 1752, 176, 60001}}) {
        Glicko player;
        Glicko opponent;
        for (int i = 0; i < row.losses; ++i) {
            const auto next = rate_game(player, opponent, 0.0);
            player = next.red;
            opponent = next.black;
        }
        const auto last = rate_game(player, opponent, 1.0);
        SCOPED_TRACE(row.losses);
        EXPECT_EQ(std::round(last.red.rating), row.loser_rating);
        EXPECT_EQ(std::round(last.red.deviation), row.loser_deviation);
        EXPECT_EQ(std::round(last.red.volatility * 1e6), row.volatility_millionths);
        EXPECT_EQ(std::round(last.black.rating), row.winner_rating);
        EXPECT_EQ(std::round(last.black.deviation), row.winner_deviation);
        EXPECT_EQ(std::round(last.black.volatility * 1e6), row.volatility_millionths);
    }
}

TEST(Glicko2, ProvisionalAboveDeviation110) {
    EXPECT_TRUE(is_provisional({1500, 350, 0.06}));
    EXPECT_TRUE(is_provisional({1500, 110.5, 0.06}));
    EXPECT_FALSE(is_provisional({1500, 110, 0.06}));
}

}  // namespace
}  // namespace xq::ratings
