// Room: no clock runs until each side has made its first move, and a first move that never comes
// aborts the game (as on lichess and pychess). Fake time throughout.

#include <gtest/gtest.h>

#include "server/rooms/room.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

const TimePoint t0 = TimePoint{} + 1000h;
constexpr ParticipantId kRed = 1, kBlack = 2;

RandomSource counter() {
    return [n = std::uint64_t{0}]() mutable { return ++n; };
}

template <class T>
const T& only(const Events& events) {
    for (const Event& e : events)
        if (const T* body = std::get_if<T>(&e.body)) return *body;
    ADD_FAILURE() << "no such event among " << events.size();
    static const T none{};
    return none;
}

ClockReading clock_of(const MoveDone& done) { return std::get<MoveMade>(done.ack.body).clocks; }

// Both seats taken at t0 with a 5+2 clock.
struct Started {
    Started() : room("r1", {5min, 2s, {}}, counter()) {
        EXPECT_TRUE(room.join(Color::Red, "alice", kRed, t0));
        started = room.join(Color::Black, "bob", kBlack, t0)->events;
    }
    MoveDone move(ParticipantId who, std::string_view iccs, TimePoint at) {
        auto done = room.move(who, next_id++, room.game().ply_count(), iccs, at);
        EXPECT_TRUE(done) << iccs << ": " << (done ? "" : done.error().detail);
        return done ? *done : MoveDone{};
    }
    Room room;
    Events started;
    MoveId next_id = 1;
};

TEST(FirstMove, NoClockRunsWhenTheGameStarts) {
    Started t;
    const ClockReading at_start = only<GameStarted>(t.started).clocks;
    EXPECT_EQ(at_start.running, std::nullopt);
    EXPECT_EQ(at_start.first_move_left, 30s);
    // Twenty seconds of thought over the first move cost Red nothing.
    const ClockReading later = t.room.snapshot(t0 + 20s).clocks;
    EXPECT_EQ(later.red, 5min);
    EXPECT_EQ(later.black, 5min);
    EXPECT_EQ(later.first_move_left, 10s);
    EXPECT_EQ(t.room.deadline(), t0 + 30s);
}

TEST(FirstMove, RedsFirstMoveStartsBlacksFirstMoveTimerNotAClock) {
    Started t;
    const ClockReading after = clock_of(t.move(kRed, "h2e2", t0 + 20s));
    EXPECT_EQ(after.red, 5min);  // neither charged nor incremented
    EXPECT_EQ(after.black, 5min);
    EXPECT_EQ(after.running, std::nullopt);
    EXPECT_EQ(after.first_move_left, 30s);  // Black's allowance, from the move on
    EXPECT_EQ(t.room.deadline(), t0 + 50s);
}

TEST(FirstMove, TheClocksStartWithTheSecondMove) {
    Started t;
    t.move(kRed, "h2e2", t0 + 20s);
    const ClockReading after = clock_of(t.move(kBlack, "h9g7", t0 + 45s));
    EXPECT_EQ(after.red, 5min);
    EXPECT_EQ(after.black, 5min);
    EXPECT_EQ(after.running, Color::Red);
    EXPECT_EQ(after.first_move_left, std::nullopt);
    // From now on as before: Red's time runs, its move earns the increment.
    EXPECT_EQ(t.room.deadline(), t0 + 45s + 5min);
    const ClockReading third = clock_of(t.move(kRed, "h0g2", t0 + 55s));
    EXPECT_EQ(third.red, 5min - 10s + 2s);
    EXPECT_EQ(third.running, Color::Black);
}

TEST(FirstMove, AGameNobodyStartsIsAbortedWithoutAResult) {
    Started t;
    EXPECT_TRUE(t.room.check_flag(t0 + 29s)->empty());
    const auto events = t.room.check_flag(t0 + 30s);
    ASSERT_TRUE(events);
    const GameAborted& aborted = only<GameAborted>(*events);
    EXPECT_EQ(aborted.by, std::nullopt);
    EXPECT_EQ(aborted.explanation, "Red did not make a first move in time: the game is aborted.");
    EXPECT_EQ(t.room.status(), Status::Aborted);
    EXPECT_EQ(t.room.deadline(), std::nullopt);
    EXPECT_EQ(t.room.game().result(), Result::Ongoing);
}

TEST(FirstMove, BlacksMissingFirstMoveAbortsToo) {
    Started t;
    t.move(kRed, "h2e2", t0 + 5s);
    EXPECT_TRUE(t.room.check_flag(t0 + 34s)->empty());
    const auto events = t.room.check_flag(t0 + 35s);
    ASSERT_TRUE(events);
    EXPECT_EQ(only<GameAborted>(*events).explanation,
              "Black did not make a first move in time: the game is aborted.");
    EXPECT_EQ(t.room.status(), Status::Aborted);
}

TEST(FirstMove, AFirstMoveAfterTheDeadlineIsRefused) {
    Started t;
    const auto late = t.room.move(kRed, 1, 0, "h2e2", t0 + 30s);
    ASSERT_FALSE(late);
    EXPECT_EQ(late.error().code, ErrorCode::GameOver);
    EXPECT_EQ(t.room.game().ply_count(), 0);
}

TEST(FirstMove, TheAllowanceIsTheLobbysSetting) {
    Room room("r2", {1min, 0s, {}}, counter());
    room.set_first_move_time(5s);
    ASSERT_TRUE(room.join(Color::Red, "alice", kRed, t0));
    ASSERT_TRUE(room.join(Color::Black, "bob", kBlack, t0));
    EXPECT_EQ(room.deadline(), t0 + 5s);
    EXPECT_EQ(room.check_flag(t0 + 5s)->size(), 1u);
    EXPECT_EQ(room.status(), Status::Aborted);
}

TEST(FirstMove, TakingBackTheOnlyMoveAwaitsTheFirstMoveAgain) {
    Started t;
    t.move(kRed, "h2e2", t0 + 5s);
    ASSERT_TRUE(t.room.request_takeback(kRed));
    const auto applied = t.room.accept_takeback(kBlack, t0 + 10s);
    ASSERT_TRUE(applied);
    const ClockReading clocks = only<TakebackApplied>(*applied).clocks;
    EXPECT_EQ(clocks.running, std::nullopt);
    EXPECT_EQ(clocks.first_move_left, 30s);
    EXPECT_EQ(t.room.deadline(), t0 + 40s);
}

TEST(FirstMove, AnEndedGameHasNoFirstMoveDeadline) {
    Started t;
    const auto ended = t.room.resign(kBlack, t0 + 3s);
    ASSERT_TRUE(ended);
    EXPECT_EQ(only<GameEnded>(*ended).clocks.first_move_left, std::nullopt);
    EXPECT_EQ(t.room.deadline(), std::nullopt);
}

}  // namespace
}  // namespace xq::server
