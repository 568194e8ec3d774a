// Room: the spectator delay (issue 19). Spectators see the game spectator_delay() plies behind:
// the events they may see end just before the MoveMade of the first ply they may not, so the
// players' chat and offers come to them in the order they happened, with the moves around them.
// When the game ends, everything is theirs.

#include <algorithm>

#include "server/rooms/room.h"

namespace xq::server {

int Room::spectator_plies() const {
    const int plies = game_.ply_count();
    if (status_ != Status::Playing || spectator_delay_ <= 0) return plies;
    return std::max(0, plies - spectator_delay_);
}

ClockReading Room::spectator_clocks(TimePoint now) const {
    const int shown = spectator_plies();
    if (shown >= game_.ply_count()) return reading(now);
    const auto& then = clock_history_[static_cast<std::size_t>(shown)];
    return ClockReading{std::chrono::duration_cast<Millis>(then[0]), std::chrono::duration_cast<Millis>(then[1]),
                        std::nullopt};
}

void Room::note_for_spectators(const Event& e) {
    if (const auto* made = std::get_if<MoveMade>(&e.body)) {
        move_versions_.resize(static_cast<std::size_t>(made->ply - 1));
        move_versions_.push_back(e.version);
    } else if (const auto* back = std::get_if<TakebackApplied>(&e.body)) {
        move_versions_.resize(static_cast<std::size_t>(back->ply_count));
    }
    const auto shown = static_cast<std::size_t>(spectator_plies());
    // Up to the event before the first hidden ply's MoveMade; a takeback never hides again what
    // spectators have seen.
    const std::uint64_t horizon = shown < move_versions_.size() ? move_versions_[shown] - 1 : version_;
    spectator_version_ = std::max(spectator_version_, horizon);
}

}  // namespace xq::server
