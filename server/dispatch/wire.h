#pragma once
// Translation between the protocol's messages (proto/) and the server's own domain types (rooms,
// lobby, store). The only server code besides request_handlers.cpp that knows the wire format.

#include <expected>
#include <optional>

#include "proto/messages.h"
#include "server/rooms/lobby.h"
#include "server/store/store.h"

namespace xq::server::wire {

// Room ids are 12 hex digits; on the wire they travel as the number those digits spell.
proto::GameId game_id(const RoomId& id);
std::optional<RoomId> room_id(proto::GameId id);

// Bounds of what a client may ask for: 1-180 minutes, 0-60 s increment, a 1-600 s move cap.
std::expected<TimeControl, std::string> time_control(const proto::TimeControl& tc);
proto::TimeControl time_control(const TimeControl& tc);

proto::Clock clock(const ClockReading& reading);
proto::Side side(Color c);
proto::ErrorCode error_code(ErrorCode code);
proto::ServerMessage error(std::uint64_t request_id, proto::ErrorCode code, std::string message,
                           proto::GameId game = 0);
proto::ServerMessage error(std::uint64_t request_id, const Error& e, proto::GameId game = 0);

proto::GameSummary summary(const GameListing& listing);
// The room as one client sees it (its own seat, or none for a spectator).
proto::Snapshot snapshot(const Room& room, TimePoint now, bool is_private, std::optional<Color> your_side);

// A room event as a message, or nullopt for events with no wire form. `with_move_id` keeps the
// mover's move id (its acknowledgement); everyone else's copy leaves it 0.
std::optional<proto::ServerBody> event(const Room& room, const Event& e, bool with_move_id);
std::optional<proto::RoomEvent> room_event(const Room& room, const Event& e, bool with_move_id);

// Archive records.
ArchivedGame archived(const FinishedGame& game);
proto::ArchiveEntry archive_entry(const ArchiveSummary& s);
proto::ArchivedGame archived_game(const ArchivedGame& g);
// ArchiveList.next / ListArchive.after: "ENDED_AT_MS.ROOM_ID", opaque to clients; nullopt for
// text that is not such a key.
std::string archive_key(const ArchiveKey& key);
std::optional<ArchiveKey> parse_archive_key(std::string_view text);

}  // namespace xq::server::wire
