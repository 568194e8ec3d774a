#pragma once
// Rating pools by speed, chosen as lichess does from the estimated duration of a game: base
// seconds + 40 x increment seconds (40 moves a side is a typical game). The server rates each
// speed separately; the client names a time control's speed in the lobby.

#include <string_view>

#include "clock.h"

namespace xq::timekeeping {

enum class Speed { Bullet, Blitz, Rapid, Classical };

// Estimated duration under 180 s: bullet; under 480 s: blitz; under 1,500 s: rapid; else classical.
Speed speed_of(const TimeControl& tc);
std::string_view to_string(Speed speed);  // "bullet", "blitz", "rapid", "classical"

}  // namespace xq::timekeeping
