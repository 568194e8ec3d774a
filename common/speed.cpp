#include "speed.h"

namespace xq::timekeeping {

Speed speed_of(const TimeControl& tc) {
    const auto estimate = (tc.base + 40 * tc.increment).count();  // milliseconds
    if (estimate < 180'000) return Speed::Bullet;
    if (estimate < 480'000) return Speed::Blitz;
    if (estimate < 1'500'000) return Speed::Rapid;
    return Speed::Classical;
}

std::string_view to_string(Speed speed) {
    switch (speed) {
        case Speed::Bullet:
            return "bullet";
        case Speed::Blitz:
            return "blitz";
        case Speed::Rapid:
            return "rapid";
        case Speed::Classical:
            return "classical";
    }
    return "blitz";
}

}  // namespace xq::timekeeping
