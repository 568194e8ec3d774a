// Room::restore: a started game rebuilt from the journal (crash recovery, or a room rolled back
// to its durable state after a failed journal commit). Policies are in room.h and proto/README.md.

#include "server/rooms/room_restore.h"

#include <algorithm>

#include "common/iccs.h"
#include "common/movegen.h"

namespace xq::server {

std::expected<std::unique_ptr<Room>, std::string> Room::restore(RoomId id, TimeControl control, RandomSource random,
                                                                const RestoredGame& g, TimePoint now) {
    auto room = std::make_unique<Room>(std::move(id), control, std::move(random), g.start);
    for (Color c : {Color::Red, Color::Black}) {
        const RestoredSeat& from = g.seats[static_cast<std::size_t>(index_of(c))];
        Seat& s = room->seat_mut(c);
        s.taken = true;
        s.name = from.name;
        s.token = from.token;
        s.account = from.account;
        s.participant = from.participant;
        s.connected = from.connected;
        s.away_until = from.connected ? std::nullopt : from.away_until;
    }
    room->status_ = Status::Playing;
    room->rated_ = g.rated;
    room->started_at_ = now;
    std::array<GameClock::Duration, 2> clocks = room->clock_history_.front();
    for (const RestoredMove& rm : g.moves) {
        const auto m = parse_iccs(rm.iccs);
        if (!m || !is_legal(room->game_.position(), *m) || room->game_.is_over())
            return std::unexpected("ply " + std::to_string(room->game_.ply_count() + 1) + " (" + rm.iccs +
                                   ") does not replay");
        const Color mover = room->game_.position().side_to_move();
        [[maybe_unused]] const auto played = room->game_.play(*m);
        clocks = {rm.clocks[0], rm.clocks[1]};
        room->clock_history_.push_back(clocks);
        // The acknowledgement of each journaled move is kept, so a client that retries a move
        // id it sent before the crash gets the original MoveMade and nothing is played twice.
        const bool running = !room->game_.is_over() && room->game_.ply_count() >= 2;
        const ClockReading reading{rm.clocks[0], rm.clocks[1], running ? std::optional<Color>(~mover) : std::nullopt};
        Event ack{rm.version, Audience::Everyone, MoveMade{room->game_.ply_count(), *m, reading, rm.move_id, mover}};
        const auto seat = static_cast<std::size_t>(index_of(mover));
        room->acks_[seat].push_back({rm.move_id, rm.version});
        room->highest_ack_id_[seat] = std::max(room->highest_ack_id_[seat], rm.move_id);
        room->old_acks_.push_back(std::move(ack));
        room->move_versions_.push_back(rm.version);
    }
    room->both_moved_ = room->game_.ply_count() >= 2;
    room->version_ = g.version;
    for (const RestoredMove& rm : g.moves) room->version_ = std::max(room->version_, rm.version);
    // Spectators stay as far behind as before the restart (the delay is journaled with the game).
    room->spectator_delay_ = g.spectator_delay;
    const auto shown = static_cast<std::size_t>(room->spectator_plies());
    room->spectator_version_ =
        shown < room->move_versions_.size() ? room->move_versions_[shown] - 1 : room->version_;
    // Clocks were paused while the server was down: the side to move continues from its time at
    // the last journaled event, with a fresh per-move allowance; before both sides have moved, the
    // wait for the first move starts again.
    if (room->both_moved_)
        room->clock_.reset(clocks, room->game_.position().side_to_move(), now);
    else
        room->await_first_move(now);
    if (room->game_.is_over()) {
        // The journal holds the ending move but not the ending (its record failed): end it now.
        Events ignored;
        room->finish(ignored, now);
    }
    return room;
}

}  // namespace xq::server
