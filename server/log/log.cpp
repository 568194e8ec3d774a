#include "server/log/log.h"

#include <chrono>
#include <cstdio>

#include "server/log/repeat_limiter.h"

namespace xq::server {
namespace {

LogLevel current = LogLevel::Info;

RepeatLimiter& limiter() {
    static RepeatLimiter instance;
    return instance;
}

}  // namespace

LogLevel log_level() { return current; }
void set_log_level(LogLevel level) { current = level; }

bool parse_log_level(std::string_view text, LogLevel& out) {
    constexpr std::pair<std::string_view, LogLevel> names[] = {{"debug", LogLevel::Debug}, {"info", LogLevel::Info},
                                                               {"warn", LogLevel::Warn},   {"error", LogLevel::Error},
                                                               {"off", LogLevel::Off}};
    for (const auto& [name, level] : names)
        if (text == name) {
            out = level;
            return true;
        }
    return false;
}

void write_log(LogLevel level, std::string_view line) {
    constexpr std::string_view tags[] = {"debug", "info", "warn", "error", "off"};
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    std::fprintf(stderr, "%lld.%03lld %s %.*s\n", static_cast<long long>(ms / 1000), static_cast<long long>(ms % 1000),
                 tags[static_cast<int>(level)].data(), static_cast<int>(line.size()), line.data());
}

void write_limited_log(LogLevel level, std::string_view kind, std::string_view line) {
    if (level == LogLevel::Debug) return write_log(level, line);
    std::vector<std::string> summaries;
    const bool admitted = limiter().admit(kind, RepeatLimiter::Clock::now(), summaries);
    for (const std::string& s : summaries) write_log(level, s);
    if (admitted) write_log(level, line);
}

void flush_log_summaries() {
    for (const std::string& s : limiter().flush(RepeatLimiter::Clock::now())) write_log(LogLevel::Warn, s);
}

}  // namespace xq::server
