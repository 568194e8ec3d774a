// Lobby: taking in rooms rebuilt from the journal (crash recovery, rollback after a failed commit).

#include "server/rooms/lobby.h"

namespace xq::server {

void Lobby::adopt(std::unique_ptr<Room> room, std::optional<std::string> join_code, TimePoint now) {
    room->set_end_hook([this](const Room& r, TimePoint at) { return archive(r, at); });
    room->set_first_move_time(first_move_time_);
    const RoomId id = room->id();
    const bool ended = room->status() == Status::Finished;
    Room& ref = *room;
    rooms_.insert_or_assign(id, Entry{std::move(room), std::move(join_code)});
    if (ended) archive(ref, now);
}

std::optional<std::string> Lobby::join_code(const RoomId& id) const {
    const auto it = rooms_.find(id);
    return it == rooms_.end() ? std::nullopt : it->second.join_code;
}

}  // namespace xq::server
