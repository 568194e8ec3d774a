#pragma once
// The live-game journal as the server keeps it during one event-loop turn: every room event that
// changes a game's durable state (start with seats and tokens, move, takeback, end, abort)
// becomes a record, and the turn's records are committed in one transaction (group commit)
// before any of the turn's outgoing frames leave the server (outbox.h).

#include <cstdint>
#include <set>
#include <vector>

#include "server/rooms/lobby.h"
#include "server/store/store.h"

namespace xq::server {

class TurnJournal {
public:
    // Someone whose request produced records: told INTERNAL if they cannot be journaled.
    struct Asker {
        RoomId room;
        ParticipantId who = 0;
        std::uint64_t request_id = 0;
    };
    struct Outcome {
        std::set<RoomId> failed;     // rooms with a refused record (all noted rooms if the commit failed)
        std::set<RoomId> fenced;     // of those, rooms another node took over (StoreErrorCode::Fenced)
        std::vector<Asker> askers;   // of the failed rooms
        std::size_t records = 0;
    };

    // Notes the records that `events` of `room` call for; true when any was noted.
    bool note(const Room& room, const Events& events, const Lobby& lobby, ParticipantId asker, std::uint64_t request_id);
    // A game ended with a result (the lobby's archive hook).
    void note_finished(ArchivedGame game);
    // A seat's resume token was replaced (resume, or an account's login): its new hash.
    void note_seat_token(const Room& room, Color color) {
        records_.push_back(JournalSeatToken{room.id(), color == Color::Red, room.seat(color).token});
    }
    bool pending() const { return !records_.empty() || !endings_.empty(); }
    // Commits what is pending and forgets it.
    Outcome commit(Store& store);
    // Compacts the store's journal a step when due: called once the turn's frames have left.
    void maintain(Store& store);

private:
    std::vector<JournalRecord> records_;
    // Applied after records_: a game's end is noted (by the end hook) before its last move is.
    std::vector<JournalRecord> endings_;
    std::vector<Asker> askers_;
};

// Unix milliseconds now, for journal and archive stamps.
std::int64_t wall_ms();

}  // namespace xq::server
