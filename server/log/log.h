#pragma once
// A small leveled logger to stderr; the server is single-threaded, so no locking.

#include <iostream>
#include <sstream>
#include <string_view>

namespace xq::server {

enum class LogLevel { Debug = 0, Info = 1, Warn = 2, Error = 3, Off = 4 };

LogLevel log_level();
void set_log_level(LogLevel level);
// "debug", "info", "warn", "error", "off"; false for anything else.
bool parse_log_level(std::string_view text, LogLevel& out);

void write_log(LogLevel level, std::string_view line);

// log(LogLevel::Info, "accepted ", peer, " as session ", id);
template <class... Args>
void log(LogLevel level, const Args&... args) {
    if (level < log_level()) return;
    std::ostringstream line;
    (line << ... << args);
    write_log(level, line.str());
}

}  // namespace xq::server
