// Clocks of games on this machine (hotseat; the offline computer uses the same LocalClock), driven
// by a fake time: they wait for both first moves, charge and add the increment like the server's,
// give back the time of a taken-back move, and a fallen flag ends the game by the rules library.

#include <gtest/gtest.h>

#include "client/model/hotseat_game.h"
#include "client/model/local_clock.h"
#include "common/fen.h"
#include "common/iccs.h"

namespace xq::client {
namespace {

using namespace std::chrono_literals;

Move mv(std::string_view text) { return *parse_iccs(text); }

// A time source the test moves by hand.
struct FakeTime {
    TimePoint now = TimePoint{} + 1000h;
    LocalClock::Now source() {
        return [this] { return now; };
    }
};

Millis left(const GameModel& model, Color side, const FakeTime& t) { return model.clock().remaining(side, t.now); }

TEST(LocalClock, HotseatWithoutAControlHasNoClocks) {
    GameModel model;
    FakeTime t;
    HotseatGame game(model, std::nullopt, t.source());
    EXPECT_FALSE(model.clock().known());
    game.move(mv("h2e2"));
    t.now += 10h;
    game.pump();
    EXPECT_FALSE(model.result());
    EXPECT_FALSE(model.clock().known());
}

TEST(LocalClock, StartsAfterBothFirstMovesAndAddsTheIncrement) {
    GameModel model;
    FakeTime t;
    HotseatGame game(model, TimeControlChoice{1, 2, std::nullopt}, t.source());
    ASSERT_TRUE(model.clock().known());
    EXPECT_EQ(left(model, Color::Red, t), 60'000);
    EXPECT_EQ(model.clock().running(), std::nullopt);

    t.now += 30s;  // Red's first move is free, as on the server
    game.move(mv("h2e2"));
    EXPECT_EQ(model.clock().running(), std::nullopt);
    t.now += 40s;  // and Black's
    game.move(mv("h9g7"));
    EXPECT_EQ(model.clock().running(), Color::Red);
    EXPECT_EQ(left(model, Color::Red, t), 60'000);
    EXPECT_EQ(left(model, Color::Black, t), 60'000);

    t.now += 5s;
    EXPECT_EQ(left(model, Color::Red, t), 55'000);  // counting down
    game.move(mv("h0g2"));
    EXPECT_EQ(model.clock().running(), Color::Black);
    EXPECT_EQ(left(model, Color::Red, t), 57'000);  // 60 - 5 + 2
    t.now += 1500ms;
    game.move(mv("i9h9"));
    EXPECT_EQ(left(model, Color::Black, t), 60'500);
    EXPECT_EQ(model.clock().running(), Color::Red);
}

TEST(LocalClock, AFallenFlagLosesAndALateMoveIsNotPlayed) {
    GameModel model;
    FakeTime t;
    HotseatGame game(model, TimeControlChoice{1, 0, std::nullopt}, t.source());
    game.move(mv("h2e2"));
    game.move(mv("h9g7"));
    t.now += 59'999ms;
    game.pump();
    EXPECT_FALSE(model.result());
    t.now += 1ms;
    game.move(mv("h0g2"));  // too late: the flag falls instead
    ASSERT_TRUE(model.result());
    EXPECT_EQ(model.ply_count(), 2);
    EXPECT_EQ(model.result()->result, Result::BlackWins);
    EXPECT_EQ(model.result()->reason, "timeout");
    EXPECT_EQ(left(model, Color::Red, t), 0);
    EXPECT_EQ(model.clock().running(), std::nullopt);
}

TEST(LocalClock, PumpEndsTheGameOnTime) {
    GameModel model;
    FakeTime t;
    HotseatGame game(model, TimeControlChoice{3, 2, std::nullopt}, t.source());
    game.move(mv("h2e2"));
    game.move(mv("h9g7"));
    game.move(mv("h0g2"));
    t.now += 3min;
    game.pump();
    ASSERT_TRUE(model.result());
    EXPECT_EQ(model.result()->result, Result::RedWins);
}

TEST(LocalClock, AFlagIsADrawWhenTheOpponentCannotMate) {
    GameModel model;
    FakeTime t;
    LocalClock clock(TimeControlChoice{1, 0, std::nullopt}, t.source());
    // Red has a chariot; Black only its general and an advisor, which never cross the river.
    ASSERT_TRUE(model.reset(*parse_fen("4k4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1"), {}, Role::Hotseat));
    clock.restart(model);
    ASSERT_TRUE(model.play_local(mv("a0a1")));
    clock.follow(model);
    ASSERT_TRUE(model.play_local(mv("e8f7")));
    clock.follow(model);
    EXPECT_EQ(model.clock().running(), Color::Red);
    t.now += 61s;
    EXPECT_TRUE(clock.check_flag(model));
    ASSERT_TRUE(model.result());
    EXPECT_EQ(model.result()->result, Result::Draw);
    EXPECT_EQ(model.result()->reason, "timeout");
}

TEST(LocalClock, ATakebackGivesBackTheTimeOfThatMoment) {
    GameModel model;
    FakeTime t;
    HotseatGame game(model, TimeControlChoice{5, 0, std::nullopt}, t.source());
    game.move(mv("h2e2"));
    game.move(mv("h9g7"));
    t.now += 20s;
    game.move(mv("h0g2"));  // Red: 4:40
    t.now += 30s;
    game.move(mv("i9h9"));  // Black: 4:30
    t.now += 50s;           // Red thinks, then both agree to take Black's move back
    game.offer(OfferType::Takeback);
    EXPECT_EQ(model.ply_count(), 3);
    EXPECT_EQ(model.clock().running(), Color::Black);
    EXPECT_EQ(left(model, Color::Black, t), 300'000);  // Black's time when it was to move
    EXPECT_EQ(left(model, Color::Red, t), 280'000);
    game.offer(OfferType::Takeback);
    game.offer(OfferType::Takeback);  // back before both first moves: no clock runs
    EXPECT_EQ(model.ply_count(), 1);
    EXPECT_EQ(model.clock().running(), std::nullopt);
    t.now += 1h;
    game.pump();
    EXPECT_FALSE(model.result());
}

TEST(LocalClock, ResignationStopsTheClocks) {
    GameModel model;
    FakeTime t;
    HotseatGame game(model, TimeControlChoice{1, 0, std::nullopt}, t.source());
    game.move(mv("h2e2"));
    game.move(mv("h9g7"));
    t.now += 10s;
    game.resign();
    ASSERT_TRUE(model.result());
    EXPECT_EQ(model.result()->reason, "resignation");
    EXPECT_EQ(model.clock().running(), std::nullopt);
    EXPECT_EQ(left(model, Color::Red, t), 50'000);
    t.now += 1h;
    game.pump();
    EXPECT_EQ(model.result()->reason, "resignation");
}

}  // namespace
}  // namespace xq::client
