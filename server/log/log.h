#pragma once
// A small leveled logger to stderr; the server is single-threaded, so no locking. Lines at info
// and above are limited per kind (repeat_limiter.h): the kind is a line's first fragment, the
// call site's fixed text ("refusing "), so a flood from many addresses is still one kind.

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
// Writes `line` unless its kind has had its share of the current window (debug lines always).
void write_limited_log(LogLevel level, std::string_view kind, std::string_view line);
// Writes the summaries of the windows that have ended ("N more like this..."); call it now and then.
void flush_log_summaries();

// log(LogLevel::Info, "accepted ", peer, " as session ", id);
template <class First, class... Args>
void log(LogLevel level, const First& first, const Args&... args) {
    if (level < log_level()) return;
    std::ostringstream line;
    line << first;
    const std::size_t kind_length = static_cast<std::size_t>(line.tellp());
    (line << ... << args);
    const std::string text = line.str();
    write_limited_log(level, std::string_view(text).substr(0, kind_length), text);
}

}  // namespace xq::server
