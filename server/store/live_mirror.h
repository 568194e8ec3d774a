#pragma once
// The live games exactly as the journal holds them, kept in memory by a backend whose database can
// go away (PostgreSQL): after a refused turn the dispatcher rebuilds the room from
// load_recoverable_games, and while the database is unreachable this answers instead, so a room
// goes back to its last committed state rather than being lost. Fed the records of each committed
// turn (those not refused), in order.

#include <map>
#include <span>
#include <string>
#include <vector>

#include "server/store/records.h"

namespace xq::server {

class LiveMirror {
public:
    void reset(std::vector<RecoverableGame> games);
    // The records of a committed turn; `refused` holds the indexes the store refused (sorted).
    void apply(std::span<const JournalRecord> records, const std::vector<JournalFailure>& refused);
    // Oldest first (by creation time, then id), as the database lists them.
    std::vector<RecoverableGame> games() const;

private:
    void apply(const JournalRecord& record);
    std::map<std::string, RecoverableGame> games_;
};

}  // namespace xq::server
