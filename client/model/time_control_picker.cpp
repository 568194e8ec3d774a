#include "time_control_picker.h"

#include <algorithm>
#include <charconv>

namespace xq::client {
namespace {

// A whole number of at most 4 digits, spaces around it allowed; nullopt otherwise.
std::optional<std::uint32_t> whole_number(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (text.empty() || text.size() > 4) return std::nullopt;
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

std::expected<TimeControlChoice, std::string> parse_time_control(std::string_view minutes, std::string_view increment) {
    const auto base = whole_number(minutes);
    if (!base || *base < kMinBaseMinutes || *base > kMaxBaseMinutes)
        return std::unexpected("Minutes must be 1 to 180");
    const auto inc = whole_number(increment);
    if (!inc || *inc > kMaxIncrementSeconds) return std::unexpected("Increment must be 0 to 60 s");
    return TimeControlChoice{*base, *inc, std::nullopt};
}

TimeControlPicker::TimeControlPicker(bool allow_no_clock, std::optional<TimeControlChoice> initial)
    : allow_no_clock_(allow_no_clock) {
    const auto& presets = standard_time_controls();
    if (!initial && allow_no_clock) {
        kind_ = Kind::NoClock;
        return;
    }
    const auto it = initial ? std::ranges::find(presets, *initial) : presets.end();
    if (it != presets.end()) {
        preset_ = static_cast<std::size_t>(it - presets.begin());
    } else if (initial) {
        kind_ = Kind::Custom;
        minutes_ = std::to_string(initial->base_minutes);
        increment_ = std::to_string(initial->increment_seconds);
    }
}

void TimeControlPicker::pick_preset(std::size_t index) {
    if (index >= standard_time_controls().size()) return;
    kind_ = Kind::Preset;
    preset_ = index;
}

void TimeControlPicker::pick_custom() { kind_ = Kind::Custom; }

Rect TimeControlPicker::cell(Rect area, std::size_t index) {
    const auto cols = static_cast<std::size_t>(columns(area.w));
    const float cell_w = (area.w - static_cast<float>(cols - 1) * kGap) / static_cast<float>(cols);
    return {area.x + static_cast<float>(index % cols) * (cell_w + kGap),
            area.y + static_cast<float>(index / cols) * (kRowH + kGap), cell_w, kRowH};
}

float TimeControlPicker::height(float width) const {
    const std::size_t cells = standard_time_controls().size() + 1 + (allow_no_clock_ ? 1 : 0);
    const auto cols = static_cast<std::size_t>(columns(width));
    const auto rows = static_cast<float>((cells + cols - 1) / cols);
    float h = rows * kRowH + (rows - 1) * kGap;
    if (kind_ == Kind::Custom) h += kGap + kFieldRowH + kMessageH;
    return h;
}

void TimeControlPicker::pick_no_clock() {
    if (allow_no_clock_) kind_ = Kind::NoClock;
}

void TimeControlPicker::set_custom_text(std::string minutes, std::string increment) {
    minutes_ = std::move(minutes);
    increment_ = std::move(increment);
}

std::expected<std::optional<TimeControlChoice>, std::string> TimeControlPicker::choice() const {
    switch (kind_) {
    case Kind::NoClock: return std::optional<TimeControlChoice>{};
    case Kind::Preset: return std::optional<TimeControlChoice>{standard_time_controls()[preset_]};
    case Kind::Custom: break;
    }
    auto custom = parse_time_control(minutes_, increment_);
    if (!custom) return std::unexpected(custom.error());
    return std::optional<TimeControlChoice>{*custom};
}

std::string TimeControlPicker::label() const {
    const auto chosen = choice();
    if (!chosen) return "?";
    return *chosen ? to_string(**chosen) : "No clock";
}

}  // namespace xq::client
