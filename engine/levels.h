#pragma once
// Playing strength levels 1-8: the engine's Skill Level (0-20; Fairy-Stockfish weakens its move
// choice below 20) and the think time per move. Level 8 is the engine at full strength.
//
//   level | Skill Level | think time per move
//   ------+-------------+--------------------
//     1   |      0      |   100 ms
//     2   |      3      |   150 ms
//     3   |      6      |   250 ms
//     4   |      9      |   400 ms
//     5   |     12      |   600 ms
//     6   |     15      |  1000 ms
//     7   |     18      |  1500 ms
//     8   |     20      |  2500 ms
//
// Under a game clock the think time is further bounded by the clock (think_time_ms below): the
// server's bots and the client's offline computer share that rule.

#include <cstdint>
#include <optional>

namespace xq::engine {

inline constexpr int kMinLevel = 1;
inline constexpr int kMaxLevel = 8;

struct Level {
    int level = kMaxLevel;
    int skill = 20;            // UCI "Skill Level"
    int think_time_ms = 2500;  // per move, before the clock's bounds
};

// The row for level 1-8; nullopt otherwise.
std::optional<Level> level(int n);

// Milliseconds to think: the level's time, bounded by the clock (a 20th of the time left plus
// three quarters of the increment) and by the per-move cap less a margin, and at least 10 ms.
int think_time_ms(int level_ms, std::int64_t remaining_ms, std::int64_t increment_ms,
                  std::optional<std::int64_t> move_cap_left_ms);

}  // namespace xq::engine
