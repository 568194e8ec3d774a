// Lag compensation as pure tables (server/rooms/lag_tracker.h) and in a room's clock.

#include <gtest/gtest.h>

#include "server/rooms/lag_tracker.h"
#include "server/rooms/room.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

TEST(RoundTrip, MedianOfTheLastFiveSamples) {
    RoundTrip rt;
    EXPECT_EQ(rt.estimate(), 0ms);
    rt.record(200ms);
    EXPECT_EQ(rt.estimate(), 200ms);
    rt.record(3000ms);  // one stall does not move the median far
    rt.record(210ms);
    EXPECT_EQ(rt.estimate(), 210ms);
    for (int i = 0; i < 5; ++i) rt.record(50ms);  // the old samples are gone
    EXPECT_EQ(rt.estimate(), 50ms);
    EXPECT_EQ(rt.samples(), 8u);
}

TEST(LagQuota, GainFollowsTheEstimatedDurationAsInScalachess) {
    // min(1 s, (base s + 40 x increment s) * 4 ms + 150 ms)
    EXPECT_EQ(LagQuota::gain_for({1min, 0s, {}}), 390ms);     // 60 s
    EXPECT_EQ(LagQuota::gain_for({0min, 0s, {}}), 150ms);
    EXPECT_EQ(LagQuota::gain_for({3min, 2s, {}}), 1000ms);    // 260 s: capped
    EXPECT_EQ(LagQuota::gain_for({2min, 0s, {}}), 630ms);     // 120 s
    const LagQuota q({3min, 2s, {}});
    EXPECT_EQ(q.quota(), 3000ms);
    EXPECT_EQ(q.max(), 7000ms);
}

TEST(LagQuota, FakedLagIsCappedByTheQuotaWhichRefillsPerMove) {
    LagQuota q({1min, 0s, {}});  // gain 390, quota 1170, max 2730
    const Millis claimed = 1000ms;
    const Millis expected[] = {1000ms, 560ms, 390ms, 390ms, 390ms};
    for (Millis want : expected) {
        const Millis given = q.offer(claimed);
        EXPECT_EQ(given, want);
        q.on_move(given);
    }
    // An honest small lag leaves the quota growing up to its maximum.
    for (int i = 0; i < 20; ++i) q.on_move(q.offer(20ms));
    EXPECT_EQ(q.quota(), 2730ms);
    EXPECT_EQ(q.offer(-5ms), 0ms);
}

TEST(RoomLag, CreditGoesToTheMoverAndNeverExceedsTheMoveTime) {
    int n = 0;
    Room room("r", {3min, 2s, {}}, [&n] { return static_cast<std::uint64_t>(++n); });
    const TimePoint t0{};
    ASSERT_TRUE(room.join(Color::Red, "red", 1, t0));
    ASSERT_TRUE(room.join(Color::Black, "black", 2, t0));
    ASSERT_TRUE(room.move(1, 1, 0, "h2e2", t0));
    ASSERT_TRUE(room.move(2, 1, 1, "h9g7", t0 + 1s));  // the clocks start: Red's runs
    // Red took 300 ms, 200 of them the link's: 200 ms back, plus the increment.
    auto done = room.move(1, 2, 2, "h0g2", t0 + 1s + 300ms, 200ms);
    ASSERT_TRUE(done);
    const auto& made = std::get<MoveMade>(done->ack.body);
    EXPECT_EQ(made.lag_credit, 200ms);
    EXPECT_EQ(made.clocks.red, 180s - 100ms + 2s);
    EXPECT_EQ(room.lag_quota(Color::Red).quota(), 3000ms - 200ms + 1000ms);
    // Black claims 900 ms of lag on a 50 ms move: it gets the 50 ms, not more.
    done = room.move(2, 2, 3, "b9c7", t0 + 1s + 350ms, 900ms);
    ASSERT_TRUE(done);
    EXPECT_EQ(std::get<MoveMade>(done->ack.body).lag_credit, 50ms);
    EXPECT_EQ(std::get<MoveMade>(done->ack.body).clocks.black, 180s + 2s);
}

TEST(RoomLag, LagIsShownWhenItChangesNoticeablyAtMostEveryFiveSeconds) {
    int n = 0;
    Room room("r", {3min, 2s, {}}, [&n] { return static_cast<std::uint64_t>(++n); });
    const TimePoint t0{};
    ASSERT_TRUE(room.join(Color::Red, "red", 1, t0));
    ASSERT_TRUE(room.join(Color::Black, "black", 2, t0));
    EXPECT_EQ(room.set_lag(Color::Red, 200ms, t0).size(), 1u);
    EXPECT_EQ(room.set_lag(Color::Red, 400ms, t0 + 1s).size(), 0u);  // too soon
    EXPECT_EQ(room.set_lag(Color::Red, 210ms, t0 + 6s).size(), 0u);  // not noticeable
    EXPECT_EQ(room.set_lag(Color::Red, 400ms, t0 + 7s).size(), 1u);
    EXPECT_EQ(room.snapshot(t0 + 7s).seats[0].lag, 400ms);
}

}  // namespace
}  // namespace xq::server
