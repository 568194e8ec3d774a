// The server's turn-by-turn journal (commit_journal: one transaction per event-loop turn, one
// savepoint per record) and the read of everything crash recovery needs.

#include <chrono>

#include "common/iccs.h"
#include "server/store/sqlite/sqlite_store.h"
#include "server/store/sqlite/store_detail.h"

namespace xq::server {


namespace {

std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

StoreResult<void> SqliteStore::apply(const JournalRecord& record) {
    if (const auto* start = std::get_if<JournalStart>(&record)) {
        if (auto begun = begin_live_game(start->game); !begun) return begun;
        return db_.run("UPDATE games SET version = ?, join_code = ? WHERE id = ?",
                       {static_cast<std::int64_t>(start->version),
                        start->join_code.empty() ? sql::Value(nullptr) : sql::Value(start->join_code), start->game.id});
    }
    if (const auto* append = std::get_if<JournalAppend>(&record)) {
        const JournalMove& m = append->move;
        const std::string context = "append game " + m.game_id + " ply " + std::to_string(m.ply);
        if (m.iccs.size() != 4 || !parse_iccs(m.iccs))
            return std::unexpected(detail::invalid(context + ": not an ICCS move '" + m.iccs + "'"));
        auto live = live_journal(m.game_id, context);
        if (!live) return std::unexpected(std::move(live.error()));
        if (m.ply != (*live)->plies + 1)
            return std::unexpected(StoreError{StoreErrorCode::Constraint,
                                              context + ": not the next ply of its game (stored already, or a gap)"});
        return insert_journal_row(m, std::nullopt, append->version, **live);
    }
    if (const auto* takeback = std::get_if<JournalTakeback>(&record)) {
        const std::string context = "take back game " + takeback->game_id + " to ply " + std::to_string(takeback->plies_left);
        auto live = live_journal(takeback->game_id, context);
        if (!live) {
            StoreError e = std::move(live.error());
            if (e.code == StoreErrorCode::Constraint) e.code = StoreErrorCode::NotFound;  // no such live game
            return std::unexpected(std::move(e));
        }
        if (takeback->plies_left < 0 || takeback->plies_left > (*live)->plies)
            return std::unexpected(StoreError{StoreErrorCode::Constraint, context + ": the game has " +
                                                                              std::to_string((*live)->plies) + " plies"});
        JournalMove row{takeback->game_id, takeback->plies_left, "", 0, 0, 0, unix_ms()};
        return insert_journal_row(row, takeback->plies_left, takeback->version, **live);
    }
    if (const auto* rotated = std::get_if<JournalSeatToken>(&record)) {
        auto done = db_.run(rotated->red ? "UPDATE games SET red_token = ? WHERE id = ? AND status = 'live'"
                                         : "UPDATE games SET black_token = ? WHERE id = ? AND status = 'live'",
                            {rotated->token, rotated->game_id});
        if (!done) return done;
        // A waiting game has no live row yet: its tokens reach the file with its start.
        return {};
    }
    // An abort or a finish ends the game's journal: its rows stay until compaction drops them.
    auto forget = [this](std::string_view id) {
        if (const auto it = live_.find(id); it != live_.end()) {
            live_rows_ -= it->second.rows;
            live_.erase(it);
        }
    };
    if (const auto* abort = std::get_if<JournalAbort>(&record)) {
        auto done = db_.run("DELETE FROM games WHERE id = ? AND status = 'live'", {abort->game_id});
        if (done) forget(abort->game_id);
        return done;
    }
    // A finish: the live row becomes the archive entry; a game never journaled live is inserted.
    // A private game's join code goes with its tokens: only the mark that it was private stays.
    const ArchivedGame& g = std::get<JournalFinish>(record).game;
    auto plies = detail::count_iccs_moves(g.moves);
    if (!plies) return std::unexpected(std::move(plies.error()));
    auto done = db_.run(
        "UPDATE games SET status = 'archived', red_token = NULL, black_token = NULL, started_at = ?, "
        "ended_at = ?, result = ?, reason = ?, explanation = ?, moves = ?, ply_count = ?, pgn = ?, "
        "join_code = CASE WHEN ? OR join_code IS NOT NULL THEN '' END, red_account = ?, black_account = ?, "
        "rated = ?, red_rating_before = ?, red_rating_after = ?, black_rating_before = ?, black_rating_after = ?, "
        "red_provisional = ?, black_provisional = ? WHERE id = ? AND status = 'live'",
        {g.started_at_ms, g.ended_at_ms, to_string(g.result), to_string(g.reason), g.explanation, g.moves,
         std::int64_t{*plies}, g.pgn, std::int64_t{g.is_private}, detail::null_if_empty(g.red_account),
         detail::null_if_empty(g.black_account), std::int64_t{g.rated}, detail::rating_before(g.red_rating),
         detail::rating_after(g.red_rating), detail::rating_before(g.black_rating), detail::rating_after(g.black_rating),
         detail::provisional_after(g.red_rating), detail::provisional_after(g.black_rating), g.id});
    if (!done) return done;
    if (db_.changes() > 0) {
        forget(g.id);
        // Only a live row turned archived gets here, once: a finish replayed finds no live row and
        // its insert below is refused, so a result never counts twice.
        return write_ratings(g);
    }
    return archive_game(g);
}

StoreResult<std::vector<JournalFailure>> SqliteStore::commit_journal(std::span<const JournalRecord> records) {
    if (records.empty()) return std::vector<JournalFailure>{};
    // Records are almost never refused, so the whole turn goes in plain first; savepoints (three
    // more statements a record) are only paid on the retry after a refusal.
    auto plain = commit_turn(records, false);
    if (plain && plain->empty()) return plain;
    // That attempt rolled back: what the store holds in memory of live games is rebuilt first.
    live_stale_ = true;
    auto isolated = commit_turn(records, true);
    // A record undone by its savepoint may have touched the memory before its last statement failed.
    if (!isolated || !isolated->empty()) live_stale_ = true;
    return isolated;
}

StoreResult<std::vector<JournalFailure>> SqliteStore::commit_turn(std::span<const JournalRecord> records, bool isolate) {
    std::vector<JournalFailure> failures;
    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Write);
    if (!tx) return std::unexpected(in_context(std::move(tx.error()), "commit journal"));
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (isolate)
            if (auto sp = db_.run("SAVEPOINT journal_record"); !sp)
                return std::unexpected(in_context(std::move(sp.error()), "commit journal"));
        auto applied = apply(records[i]);
        if (!applied) {
            failures.push_back({i, in_context(std::move(applied.error()),
                                              "journal game " + std::string(journal_game_id(records[i])))});
            // Without savepoints a refusal ends the attempt; the transaction rolls back on return.
            if (!isolate) return failures;
            if (auto back = db_.run("ROLLBACK TO journal_record"); !back)
                return std::unexpected(in_context(std::move(back.error()), "commit journal"));
        }
        if (isolate)
            if (auto rel = db_.run("RELEASE journal_record"); !rel)
                return std::unexpected(in_context(std::move(rel.error()), "commit journal"));
    }
    auto committed = tx->commit();
    if (!committed) return std::unexpected(in_context(std::move(committed.error()), "commit journal"));
    return failures;
}

StoreResult<std::vector<RecoverableGame>> SqliteStore::load_recoverable_games(std::vector<StoreError>* damaged) {
    auto replayed = replay_journal();
    if (!replayed) return std::unexpected(in_context(std::move(replayed.error()), "load recoverable games"));
    std::vector<RecoverableGame> games;
    games.reserve(replayed->size());
    for (ReplayedGame& g : *replayed) {
        if (!g.damage) games.push_back(std::move(g.game));
        else if (damaged) damaged->push_back(std::move(*g.damage));
    }
    return games;
}

}  // namespace xq::server
