#include "server/log/log.h"

#include <chrono>
#include <cstdio>

namespace xq::server {
namespace {

LogLevel current = LogLevel::Info;

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

}  // namespace xq::server
