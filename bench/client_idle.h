#pragma once
// The client at rest (./xq bench client, and the client_idle_smoke test): a real xiangqi-client
// against a real server, (1) in a lobby that lists a live game and (2) watching that game while
// nobody moves. Its CPU is the child's user plus system time from /proc over the measured seconds;
// its frames are what it counts itself (--frame-count), warm-up included.

#include <expected>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace xq::bench {

struct IdleRun {
    std::filesystem::path server;  // xiangqi-server
    std::filesystem::path client;  // xiangqi-client
    double warmup_seconds = 3;     // from the spawn (or the click that starts watching) to the measurement
    double seconds = 10;           // measured
};

struct IdleRow {
    std::string what;
    double cpu_percent = 0;     // of one core, over the measured seconds
    double target_percent = 0;  // under Xvfb
    std::optional<long> frames;  // none: the client has no --frame-count (an older build)
    double frames_over_seconds = 0;  // the client's whole life, which `frames` covers
};

// Starts the server, the game and one client per row; fails with the reason when any of them does.
std::expected<std::vector<IdleRow>, std::string> measure_idle(const IdleRun& run);

}  // namespace xq::bench
