#include "bot/options.h"

#include <charconv>

namespace xq::bot {
namespace {

std::optional<std::uint32_t> number(std::string_view text) {
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

std::optional<proto::TimeControl> parse_time_control(std::string_view text) {
    const auto plus = text.find('+');
    if (plus == std::string_view::npos) return std::nullopt;
    const auto slash = text.find('/', plus);
    const auto base = number(text.substr(0, plus));
    const auto increment = number(text.substr(plus + 1, slash == std::string_view::npos ? std::string_view::npos : slash - plus - 1));
    if (!base || !increment) return std::nullopt;
    proto::TimeControl tc{*base, *increment, std::nullopt};
    if (slash != std::string_view::npos) {
        const auto cap = number(text.substr(slash + 1));
        if (!cap) return std::nullopt;
        tc.move_cap_seconds = *cap;
    }
    return tc;
}

}  // namespace xq::bot
