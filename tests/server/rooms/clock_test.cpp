// The Fischer clock, driven by hand: base time, increment, the per-move cap, pause and reset;
// then the clock inside a room: increments in acknowledgements and loss on time.

#include <gtest/gtest.h>

#include "common/fen.h"
#include "server/rooms/clock.h"
#include "server/rooms/room.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

const TimePoint t0 = TimePoint{} + 1000h;

TEST(GameClock, IdleUntilStarted) {
    GameClock clock({5min, 3s, {}});
    EXPECT_EQ(clock.state(), GameClock::State::Idle);
    EXPECT_FALSE(clock.deadline());
    EXPECT_FALSE(clock.turn());
    EXPECT_EQ(clock.reading(t0), (ClockReading{5min, 5min, {}}));
}

TEST(GameClock, RunningSideLosesTimeAndGainsIncrementOnSwitch) {
    GameClock clock({5min, 3s, {}});
    clock.start(Color::Red, t0);
    EXPECT_EQ(clock.turn(), Color::Red);
    EXPECT_EQ(clock.deadline(), t0 + 5min);
    EXPECT_EQ(clock.remaining(Color::Red, t0 + 10s), 4min + 50s);
    EXPECT_EQ(clock.remaining(Color::Black, t0 + 10s), 5min);

    clock.switch_side(t0 + 10s);
    EXPECT_EQ(clock.turn(), Color::Black);
    EXPECT_EQ(clock.remaining(Color::Red, t0 + 20s), 4min + 53s);
    EXPECT_EQ(clock.remaining(Color::Black, t0 + 20s), 4min + 50s);
    EXPECT_EQ(clock.deadline(), t0 + 10s + 5min);
    EXPECT_EQ(clock.reading(t0 + 20s), (ClockReading{4min + 53s, 4min + 50s, Color::Black}));
}

TEST(GameClock, FlagFallsAtTheDeadline) {
    GameClock clock({1min, 0s, {}});
    clock.start(Color::Red, t0);
    EXPECT_FALSE(clock.flag_fallen(t0 + 59999ms));
    EXPECT_TRUE(clock.flag_fallen(t0 + 1min));
    EXPECT_EQ(clock.remaining(Color::Red, t0 + 2min), 0s);  // never negative
}

TEST(GameClock, PerMoveCapBringsTheDeadlineForward) {
    GameClock clock({10min, 5s, 30s});
    clock.start(Color::Red, t0);
    EXPECT_EQ(clock.deadline(), t0 + 30s);
    EXPECT_FALSE(clock.flag_fallen(t0 + 29s));
    EXPECT_TRUE(clock.flag_fallen(t0 + 30s));
    // A quick move resets the allowance for the next turn.
    clock.switch_side(t0 + 20s);
    EXPECT_EQ(clock.deadline(), t0 + 50s);
}

TEST(GameClock, RemainingTimeWinsOverTheCapWhenShorter) {
    GameClock clock({20s, 0s, 30s});
    clock.start(Color::Red, t0);
    EXPECT_EQ(clock.deadline(), t0 + 20s);
}

TEST(GameClock, PauseFreezesTimeAndTheMoveAllowance) {
    GameClock clock({10min, 0s, 30s});
    clock.start(Color::Red, t0);
    clock.pause(t0 + 10s);
    EXPECT_EQ(clock.state(), GameClock::State::Paused);
    EXPECT_EQ(clock.turn(), Color::Red);
    EXPECT_FALSE(clock.deadline());
    EXPECT_EQ(clock.remaining(Color::Red, t0 + 1h), 9min + 50s);
    clock.resume(t0 + 1h);
    // 20 s of the 30 s allowance remain after the pause.
    EXPECT_EQ(clock.deadline(), t0 + 1h + 20s);
}

TEST(GameClock, StopChargesWithoutIncrement) {
    GameClock clock({1min, 10s, {}});
    clock.start(Color::Red, t0);
    clock.stop(t0 + 5s);
    EXPECT_EQ(clock.state(), GameClock::State::Stopped);
    EXPECT_FALSE(clock.deadline());
    EXPECT_EQ(clock.reading(t0 + 1h), (ClockReading{55s, 1min, {}}));
    clock.switch_side(t0 + 1h);  // ignored once stopped
    EXPECT_EQ(clock.reading(t0 + 1h), (ClockReading{55s, 1min, {}}));
}

TEST(GameClock, ResetRestoresTimesAndRestartsTheSide) {
    GameClock clock({1min, 0s, {}});
    clock.start(Color::Red, t0);
    clock.switch_side(t0 + 30s);
    clock.reset({40s, 50s}, Color::Red, t0 + 40s);
    EXPECT_EQ(clock.turn(), Color::Red);
    EXPECT_EQ(clock.deadline(), t0 + 80s);
    EXPECT_EQ(clock.remaining(Color::Black, t0 + 60s), 50s);
}

TEST(TimeControl, TextForListingsAndPgn) {
    EXPECT_EQ((TimeControl{5min, 3s, {}}).to_string(), "300+3");
    EXPECT_EQ((TimeControl{90s, 500ms, 30s}).to_string(), "90+0.5/30");
}

// A room with both seats taken at t0: participant 1 is Red, 2 is Black.
Room seated_room(TimeControl tc, std::string_view start_fen = kStartFen) {
    Room room(
        "r1", tc, [n = std::uint64_t{0}]() mutable { return ++n; }, *parse_fen(start_fen));
    EXPECT_TRUE(room.join(Color::Red, "alice", 1, t0));
    EXPECT_TRUE(room.join(Color::Black, "bob", 2, t0));
    return room;
}

// A copy: the reply is usually a temporary.
GameEnded ended_by(const Reply& reply) {
    EXPECT_TRUE(reply && reply->size() == 1u);
    return std::get<GameEnded>(reply->front().body);
}

// Plays both first moves (h2e2 at t0+1s, h9g7 at t0+2s): the clocks start at t0+2s, Red's running.
void open_clocks(Room& room) {
    ASSERT_TRUE(room.move(1, 1, 0, "h2e2", t0 + 1s));
    ASSERT_TRUE(room.move(2, 1, 1, "h9g7", t0 + 2s));
}

TEST(RoomClock, IncrementShowsInTheMoveAcknowledgement) {
    Room room = seated_room({1min, 5s, {}});
    open_clocks(room);
    const auto done = room.move(1, 2, 2, "h0g2", t0 + 12s);
    ASSERT_TRUE(done);
    EXPECT_EQ(std::get<MoveMade>(done->ack.body).clocks, (ClockReading{55s, 1min, Color::Black}));
    EXPECT_EQ(room.deadline(), t0 + 12s + 1min);
}

TEST(RoomClock, FlagFallEndsTheGameOnTime) {
    Room room = seated_room({1min, 0s, {}});
    open_clocks(room);
    ASSERT_TRUE(room.move(1, 2, 2, "h0g2", t0 + 3s));  // Black's clock runs from t0+3s
    EXPECT_TRUE(room.check_flag(t0 + 62s)->empty());
    // Too late to move: refused without change; the deadline timer's check_flag ends the game.
    EXPECT_EQ(room.move(2, 2, 3, "i9h9", t0 + 63s).error().code, ErrorCode::GameOver);
    EXPECT_EQ(room.status(), Status::Playing);
    const GameEnded end = ended_by(room.check_flag(t0 + 63s));
    EXPECT_EQ(end.result, Result::RedWins);
    EXPECT_EQ(end.reason, Reason::Timeout);
    EXPECT_EQ(end.clocks.black, 0s);
    EXPECT_TRUE(room.check_flag(t0 + 2h)->empty());
}

TEST(RoomClock, FlagFallAgainstBareMaterialIsADraw) {
    // Black flags, but Red has only its general and an advisor: nothing to mate with.
    Room room = seated_room({30s, 0s, {}}, "3k5/9/9/9/9/9/r8/9/4A4/4K4 b - - 0 1");
    ASSERT_TRUE(room.move(2, 1, 0, "a3a4", t0 + 1s));
    ASSERT_TRUE(room.move(1, 1, 1, "e1f2", t0 + 2s));  // Black's clock starts
    EXPECT_EQ(room.deadline(), t0 + 32s);
    const GameEnded end = ended_by(room.check_flag(t0 + 32s));
    EXPECT_EQ(end.result, Result::Draw);
    EXPECT_EQ(end.reason, Reason::Timeout);
}

TEST(RoomClock, MoveOverThePerMoveCapLosesOnTime) {
    Room room = seated_room({10min, 0s, 30s});
    open_clocks(room);
    ASSERT_TRUE(room.move(1, 2, 2, "h0g2", t0 + 3s));
    EXPECT_EQ(room.deadline(), t0 + 33s);
    EXPECT_EQ(room.move(2, 2, 3, "i9h9", t0 + 33s).error().code, ErrorCode::GameOver);
    EXPECT_EQ(ended_by(room.check_flag(t0 + 33s)).result, Result::RedWins);
}

}  // namespace
}  // namespace xq::server
