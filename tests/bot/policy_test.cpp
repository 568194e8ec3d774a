// The bot's documented policies and its pieces that need no engine or server.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bot/game_report.h"
#include "bot/options.h"
#include "bot/policy.h"
#include "engine/levels.h"

namespace xq::bot {
namespace {

engine::Evaluation cp(int red_view) { return engine::Evaluation{red_view, std::nullopt, 10}; }
engine::Evaluation mate(Color winner, int moves) {
    return engine::Evaluation{winner == Color::Red ? 29990 : -29990, engine::Mate{winner, moves}, 10};
}

TEST(BotPolicy, ResignsAtOnceWhenMatedAndAfterThreeHopelessMoves) {
    ResignTracker black;
    EXPECT_TRUE(black.record(mate(Color::Red, 7), Color::Black));
    EXPECT_FALSE(black.record(mate(Color::Black, 7), Color::Black));  // its own mate: play on

    ResignTracker red;
    EXPECT_FALSE(red.record(cp(-1600), Color::Red));
    EXPECT_FALSE(red.record(cp(-1700), Color::Red));
    EXPECT_FALSE(red.record(cp(-1400), Color::Red));  // a better moment resets the count
    EXPECT_FALSE(red.record(cp(-1600), Color::Red));
    EXPECT_FALSE(red.record(cp(-1600), Color::Red));
    EXPECT_TRUE(red.record(cp(-1600), Color::Red));
    // Red's -1600 is Black's +1600.
    ResignTracker winning;
    for (int i = 0; i < 5; ++i) EXPECT_FALSE(winning.record(cp(-1600), Color::Black));
}

TEST(BotPolicy, AcceptsDrawsOnlyAfterMoveThirtyWhenNotClearlyBetter) {
    const Policy policy;
    EXPECT_FALSE(accept_draw(policy, cp(0), Color::Red, 59));
    EXPECT_TRUE(accept_draw(policy, cp(0), Color::Red, 60));
    EXPECT_TRUE(accept_draw(policy, cp(49), Color::Red, 80));
    EXPECT_FALSE(accept_draw(policy, cp(50), Color::Red, 80));
    EXPECT_TRUE(accept_draw(policy, cp(300), Color::Black, 80));  // Black is 300 down
    EXPECT_FALSE(accept_draw(policy, std::nullopt, Color::Red, 80));
}

TEST(BotPolicy, ThinkTimeRespectsTheClockAndTheMoveCap) {
    EXPECT_EQ(engine::think_time_ms(400, 300'000, 3000, std::nullopt), 400);   // the level bounds it
    EXPECT_EQ(engine::think_time_ms(2500, 20'300, 0, std::nullopt), 1000);     // a 20th of the time left
    EXPECT_EQ(engine::think_time_ms(2500, 20'300, 2000, std::nullopt), 2500);  // the increment helps
    EXPECT_EQ(engine::think_time_ms(2500, 300'000, 0, 1000), 700);             // the cap, less a margin
    EXPECT_EQ(engine::think_time_ms(2500, 100, 0, std::nullopt), 10);          // never below the floor
}

TEST(BotOptions, TimeControlsAreParsed) {
    auto tc = parse_time_control("5+3");
    ASSERT_TRUE(tc);
    EXPECT_EQ(tc->base_minutes, 5u);
    EXPECT_EQ(tc->increment_seconds, 3u);
    EXPECT_FALSE(tc->move_cap_seconds);
    tc = parse_time_control("10+0/60");
    ASSERT_TRUE(tc);
    EXPECT_EQ(tc->move_cap_seconds, 60u);
    for (const char* bad : {"", "5", "5+", "+3", "a+3", "5+3/", "5+3/x", "5-3"}) EXPECT_FALSE(parse_time_control(bad)) << bad;
}

TEST(BotReport, OneJsonLineWithTheDocumentedFields) {
    const GameReport report{"black_wins", "checkmate", 41, 3, Color::Black};
    const std::string line = report.to_json();
    EXPECT_EQ(line.find('\n'), std::string::npos);
    const auto json = nlohmann::json::parse(line);
    EXPECT_EQ(json["result"], "black_wins");
    EXPECT_EQ(json["reason"], "checkmate");
    EXPECT_EQ(json["moves"], 41);
    EXPECT_EQ(json["level"], 3);
    EXPECT_EQ(json["side"], "black");
    EXPECT_TRUE(line.starts_with("{\"result\""));
}

}  // namespace
}  // namespace xq::bot
