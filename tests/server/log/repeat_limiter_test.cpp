// Repeated log lines: the first few of a kind per window are written, then one summary.

#include <gtest/gtest.h>

#include "server/log/repeat_limiter.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

TEST(RepeatLimiter, AFloodIsFiveLinesThenOneSummaryPerWindow) {
    RepeatLimiter limiter(5, 10s);
    const auto t0 = RepeatLimiter::Clock::time_point{} + 1h;
    std::vector<std::string> summaries;
    int written = 0;
    for (int i = 0; i < 100'000; ++i) written += limiter.admit("refusing ", t0 + i * 50us, summaries) ? 1 : 0;
    EXPECT_EQ(written, 5);
    EXPECT_TRUE(summaries.empty());
    // Another kind has its own share.
    EXPECT_TRUE(limiter.admit("accept failed: ", t0 + 1s, summaries));
    // The next line after the window brings the summary of the last one, and is written.
    EXPECT_TRUE(limiter.admit("refusing ", t0 + 10s, summaries));
    ASSERT_EQ(summaries.size(), 1u);
    EXPECT_EQ(summaries[0], "99995 more like this in the last 10 s: refusing ...");
}

TEST(RepeatLimiter, FlushReportsAFloodThatStopped) {
    RepeatLimiter limiter(2, 10s);
    const auto t0 = RepeatLimiter::Clock::time_point{} + 1h;
    std::vector<std::string> summaries;
    for (int i = 0; i < 7; ++i) (void)limiter.admit("x", t0, summaries);
    (void)limiter.admit("quiet", t0, summaries);
    EXPECT_TRUE(limiter.flush(t0 + 9s).empty());
    const auto later = limiter.flush(t0 + 10s);
    ASSERT_EQ(later.size(), 1u);  // "quiet" stayed within its share: nothing to say
    EXPECT_EQ(later[0], "5 more like this in the last 10 s: x...");
    EXPECT_TRUE(limiter.flush(t0 + 30s).empty());
    EXPECT_TRUE(limiter.admit("x", t0 + 31s, summaries));  // a fresh window
}

}  // namespace
}  // namespace xq::server
