#pragma once
// A broadcast bigger than one process's descriptors (loadgen_watch_file.cpp): the playing loadgen
// (--game-file FILE) writes its first game's id and each move's send time to FILE; loadgens of
// watchers only (--watch FILE) watch that game, say so with FILE.ready.PID, and measure delivery
// against those send times (steady_clock is CLOCK_MONOTONIC: one clock for every process here).

#include <cstddef>
#include <string>

#include "loadgen.h"

namespace xq::loadgen {

bool file_exists(const std::string& path);
void touch_file(const std::string& path);
// FILE starts anew with "game ID"; every move sent at ply P adds "P NANOSECONDS".
void write_game_id(const std::string& path, std::uint64_t game);
void log_sent(const std::string& path, std::size_t ply, Clock::time_point sent);

}  // namespace xq::loadgen
