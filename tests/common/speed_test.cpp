// Speeds by estimated duration (base + 40 x increment), at each boundary.

#include <gtest/gtest.h>

#include "common/speed.h"

namespace xq::timekeeping {
namespace {

TimeControl tc(int base_seconds, int increment_seconds) {
    return TimeControl{Millis{base_seconds * 1000LL}, Millis{increment_seconds * 1000LL}, std::nullopt};
}

TEST(Speed, ByEstimatedDuration) {
    struct Row {
        int base, increment;
        Speed speed;
    };
    const Row rows[] = {
        {60, 0, Speed::Bullet},    {120, 1, Speed::Bullet},     {60, 2, Speed::Bullet},  // 140 s
        {180, 0, Speed::Blitz},    {120, 2, Speed::Blitz},                              // 180 s, 200 s
        {300, 3, Speed::Blitz},    {420, 1, Speed::Blitz},                              // 420 s, 460 s
        {480, 0, Speed::Rapid},    {300, 5, Speed::Rapid},      {600, 5, Speed::Rapid},  // 500, 800 s
        {900, 10, Speed::Rapid},     {1200, 7, Speed::Rapid},     // 1,300 s, 1,480 s
        {900, 15, Speed::Classical}, {1500, 0, Speed::Classical}, {1200, 8, Speed::Classical},  // 1,500, 1,520 s
        {1380, 2, Speed::Rapid},  // 1,460 s
    };
    for (const auto& r : rows) {
        EXPECT_EQ(speed_of(tc(r.base, r.increment)), r.speed) << r.base << "+" << r.increment;
    }
    EXPECT_EQ(to_string(Speed::Bullet), "bullet");
    EXPECT_EQ(to_string(Speed::Classical), "classical");
}

}  // namespace
}  // namespace xq::timekeeping
