#pragma once
// The server's clocks are the rules library's Fischer clock (common/clock.h), which the client's
// local games share; these names keep the server's own words.

#include "common/clock.h"

namespace xq::server {

using timekeeping::ClockReading;
using timekeeping::GameClock;
using timekeeping::Millis;
using timekeeping::SteadyClock;
using timekeeping::TimeControl;
using timekeeping::TimePoint;

}  // namespace xq::server
