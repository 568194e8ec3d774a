#include "server/rooms/seek_rules.h"

#include <cmath>
#include <limits>

namespace xq::server {

double seek_range(Millis waited) {
    if (waited >= kSeekRangeOpenAfter) return std::numeric_limits<double>::infinity();
    return kSeekRangeStart + kSeekRangeStep * static_cast<double>(waited / kSeekWidenEvery);
}

bool seek_accepts(const Seek& waiter, Millis waited, const Seek& s) {
    if (waiter.control != s.control || waiter.rated != s.rated) return false;
    if (!s.rated) return true;
    return std::abs(waiter.rating - s.rating) <= seek_range(waited);
}

std::vector<std::pair<std::size_t, std::size_t>> pair_waiting_seeks(const std::vector<WaitingSeek>& seeks) {
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    std::vector<bool> taken(seeks.size(), false);
    for (std::size_t i = 0; i < seeks.size(); ++i) {
        if (taken[i]) continue;
        for (std::size_t j = i + 1; j < seeks.size(); ++j) {
            if (taken[j]) continue;
            // Either side's widened range will do: the one who waited longer is the more patient.
            const WaitingSeek& a = seeks[i];
            const WaitingSeek& b = seeks[j];
            if (!seek_accepts(*a.seek, a.waited, *b.seek) && !seek_accepts(*b.seek, b.waited, *a.seek)) continue;
            taken[i] = taken[j] = true;
            pairs.emplace_back(i, j);
            break;
        }
    }
    return pairs;
}

}  // namespace xq::server
