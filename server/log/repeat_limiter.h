#pragma once
// Collapses a flood of log lines of one kind: the first few of each kind in a window are
// written, the rest only counted, and once the window is over one line says how many were left
// out. A reconnect loop against a connection cap makes a warning per attempt: without this, tens
// of megabytes a minute (issue 18).

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace xq::server {

class RepeatLimiter {
public:
    using Clock = std::chrono::steady_clock;

    explicit RepeatLimiter(std::size_t first = 5, std::chrono::seconds window = std::chrono::seconds(10))
        : first_(first), window_(window) {}

    // Whether a line of `kind` at `now` is written. Before it, `summaries` gets the summary of
    // that kind's last window when one is due.
    bool admit(std::string_view kind, Clock::time_point now, std::vector<std::string>& summaries);
    // The summaries of every window that has ended by `now` (for a periodic call, so that the
    // last window of a flood that stopped is reported too).
    std::vector<std::string> flush(Clock::time_point now);

private:
    struct Window {
        Clock::time_point start;
        std::size_t seen = 0;
    };
    std::string summary(std::string_view kind, const Window& w) const;

    std::size_t first_;
    std::chrono::seconds window_;
    std::unordered_map<std::string, Window> windows_;
};

}  // namespace xq::server
