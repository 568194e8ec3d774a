#pragma once
// What the time-control picker holds, apart from its drawing: a preset from the grid, a custom
// control typed in (validated), or, where a game may be played without clocks, no clock.

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/model/board_geometry.h"
#include "client/model/lobby_model.h"

namespace xq::client {

// The custom fields' ranges: the server's own limits (server/dispatch/wire.cpp).
inline constexpr std::uint32_t kMinBaseMinutes = 1;
inline constexpr std::uint32_t kMaxBaseMinutes = 180;
inline constexpr std::uint32_t kMaxIncrementSeconds = 60;

// "minutes" and "increment" as typed; a message fit to show when either is out of range or not a number.
std::expected<TimeControlChoice, std::string> parse_time_control(std::string_view minutes, std::string_view increment);

// What the lobby's picker shows first.
inline const TimeControlChoice kLobbyDefaultControl{10, 5, std::nullopt};

class TimeControlPicker {
public:
    enum class Kind { Preset, Custom, NoClock };

    // `allow_no_clock`: offline games, which may be played without clocks. The initial choice is
    // the preset equal to `initial`, or no clock when that is allowed and `initial` is empty.
    TimeControlPicker(bool allow_no_clock, std::optional<TimeControlChoice> initial);

    void pick_preset(std::size_t index);  // an index into standard_time_controls()
    void pick_custom();
    void pick_no_clock();  // ignored unless no clock is allowed
    void set_custom_text(std::string minutes, std::string increment);

    Kind kind() const { return kind_; }
    bool allows_no_clock() const { return allow_no_clock_; }

    // The picker's geometry, here so that the forms around it (and tests) can place what follows:
    // its rows of buttons, and the custom fields with their message under them when shown.
    static constexpr float kRowH = 30, kGap = 6, kFieldRowH = 32, kMessageH = 22;
    // Five columns make the nine presets and Custom two rows; narrower, four or three.
    static int columns(float width) { return width >= 300 ? 5 : width >= 240 ? 4 : 3; }
    // The height the picker takes at `width` in its current state.
    float height(float width) const;
    // Cell `index` of the grid drawn in `area` (the presets in order, then No clock where allowed,
    // then Custom).
    static Rect cell(Rect area, std::size_t index);
    bool is_preset(std::size_t index) const { return kind_ == Kind::Preset && preset_ == index; }
    const std::string& minutes_text() const { return minutes_; }
    const std::string& increment_text() const { return increment_; }

    // The chosen control (nullopt: no clock), or why the custom fields do not make one.
    std::expected<std::optional<TimeControlChoice>, std::string> choice() const;
    // "10+5", "No clock", or the custom control; "?" while the custom fields are invalid.
    std::string label() const;

private:
    bool allow_no_clock_;
    Kind kind_ = Kind::Preset;
    std::size_t preset_ = 0;
    std::string minutes_ = "20";
    std::string increment_ = "10";
};

}  // namespace xq::client
