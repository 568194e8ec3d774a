#pragma once
// Replaying a live game's journal (moves and takebacks, numbered n = 1, 2, ...) onto its record:
// what crash recovery reads, the same for both backends. Not part of the API.

#include <cstdint>
#include <optional>
#include <vector>

#include "server/store/records.h"

namespace xq::server {

// One journal row as read back; iccs empty for a takeback.
struct JournalRow {
    std::int64_t n = 0;
    bool takeback = false;
    JournalMove move;
    std::uint64_t version = 0;
};

// Plays a game's rows (in any order: sorted here by n) onto `g`; the damage found, if any (a gap
// in n, a move that is not the next ply, a takeback past the start: then `g` is not to be used).
std::optional<StoreError> replay_journal_rows(RecoverableGame& g, std::vector<JournalRow>& log);

}  // namespace xq::server
