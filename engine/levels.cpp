#include "engine/levels.h"

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

}  // namespace xq::engine
