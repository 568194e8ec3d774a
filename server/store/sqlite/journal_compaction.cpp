// Compaction of the journal log: rows of finished and aborted games are dropped from its start,
// a chunk at a time, once the log holds more than twice what live games need. Rows of live games
// in that chunk are copied to the end first (their n keeps their order), so the log's length stays
// within about twice the live games' rows and every write stays at the end of the table.

#include "server/store/sqlite/sqlite_store.h"

namespace xq::server {


StoreResult<bool> SqliteStore::compact_journal() {
    if (live_stale_)
        if (auto reloaded = reload_live(); !reloaded) return std::unexpected(in_context(std::move(reloaded.error()), "compact the journal"));
    if (journal_rows() <= 2 * live_rows_ + kCompactChunk) return false;
    const std::int64_t end = first_seq_ + kCompactChunk;
    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Write);
    if (!tx) return std::unexpected(in_context(std::move(tx.error()), "compact the journal"));
    auto copied = db_.run(
        "INSERT INTO journal (game_id, n, ply, iccs, move_id, red_ms, black_ms, at, version) "
        "SELECT game_id, n, ply, iccs, move_id, red_ms, black_ms, at, version FROM journal "
        "WHERE seq < ?1 AND game_id IN (SELECT id FROM games WHERE status = 'live') ORDER BY seq",
        {end});
    if (!copied) return std::unexpected(in_context(std::move(copied.error()), "compact the journal"));
    const std::int64_t next = db_.changes() > 0 ? db_.last_insert_rowid() + 1 : next_seq_;
    auto dropped = db_.run("DELETE FROM journal WHERE seq < ?1", {end});
    if (!dropped) return std::unexpected(in_context(std::move(dropped.error()), "compact the journal"));
    if (auto committed = tx->commit(); !committed)
        return std::unexpected(in_context(std::move(committed.error()), "compact the journal"));
    first_seq_ = end;
    next_seq_ = next;
    return true;
}

}  // namespace xq::server
