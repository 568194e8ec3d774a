#pragma once
// Who pairs with whom in quick match: the one set of rules a single server's lobby (lobby.h) and
// a cluster's matcher (server/node/cluster_node_seeks.cpp) both apply, so that a seek pairs the
// same way whichever node its player reached.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "server/rooms/clock.h"
#include "server/rooms/room_types.h"

namespace xq::server {

// A quick-match seek. Rated seeks pair only with rated seeks of the same time control whose
// rating lies within the waiter's range, which widens while it waits (seek_range).
struct Seek {
    std::string name;
    ParticipantId who = 0;
    TimeControl control;
    bool rated = false;
    double rating = 0;  // rated seeks: the seeker's rating at the control's speed
};

// A rated seek's range: +-kSeekRangeStart rating points at first, kSeekRangeStep wider every
// kSeekWidenEvery of waiting, and unlimited from kSeekRangeOpenAfter (so no seek waits forever
// for want of a partner in range while another waits).
inline constexpr double kSeekRangeStart = 150;
inline constexpr double kSeekRangeStep = 50;
inline constexpr Millis kSeekWidenEvery{5000};
inline constexpr Millis kSeekRangeOpenAfter{60000};
double seek_range(Millis waited);

// Whether `waiter`, after waiting `waited`, takes `s` as partner (same control and rated-ness,
// rating in the waiter's range).
bool seek_accepts(const Seek& waiter, Millis waited, const Seek& s);

struct WaitingSeek {
    const Seek* seek = nullptr;
    Millis waited{};
};
// Pairs among seeks that wait, in arrival order: each, longest waiter first, with the first later
// one that either side's (widened) range accepts. The pairs' indices, the earlier one first.
std::vector<std::pair<std::size_t, std::size_t>> pair_waiting_seeks(const std::vector<WaitingSeek>& in_arrival_order);

}  // namespace xq::server
