#include "engine/levels.h"

#include <algorithm>
#include <array>

namespace xq::engine {

std::optional<Level> level(int n) {
    static constexpr std::array<Level, kMaxLevel> kTable{{
        {1, 0, 100},
        {2, 3, 150},
        {3, 6, 250},
        {4, 9, 400},
        {5, 12, 600},
        {6, 15, 1000},
        {7, 18, 1500},
        {8, 20, 2500},
    }};
    if (n < kMinLevel || n > kMaxLevel) return std::nullopt;
    return kTable[static_cast<std::size_t>(n - 1)];
}

int think_time_ms(int level_ms, std::int64_t remaining_ms, std::int64_t increment_ms,
                  std::optional<std::int64_t> move_cap_left_ms) {
    constexpr std::int64_t kFloor = 10;
    // Network and engine start-up eat into every move: keep this much of any bound unused.
    constexpr std::int64_t kMargin = 300;
    std::int64_t budget = level_ms;
    budget = std::min(budget, std::max<std::int64_t>(remaining_ms - kMargin, 0) / 20 + increment_ms * 3 / 4);
    if (move_cap_left_ms) budget = std::min(budget, *move_cap_left_ms - kMargin);
    return static_cast<int>(std::max(budget, kFloor));
}

}  // namespace xq::engine
