// The server's turn-by-turn journal (commit_journal: one transaction per event-loop turn, one
// savepoint per record) and the read of everything crash recovery needs.

#include <unordered_map>

#include "common/iccs.h"
#include "server/store.h"
#include "server/store_detail.h"

namespace xq::server {

using sql::in_context;

std::string_view journal_game_id(const JournalRecord& record) {
    return std::visit(
        [](const auto& r) -> std::string_view {
            using T = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<T, JournalStart>) return r.game.id;
            else if constexpr (std::is_same_v<T, JournalAppend>) return r.move.game_id;
            else if constexpr (std::is_same_v<T, JournalFinish>) return r.game.id;
            else return r.game_id;
        },
        record);
}

StoreResult<void> Store::apply(const JournalRecord& record) {
    if (const auto* start = std::get_if<JournalStart>(&record)) {
        if (auto begun = begin_live_game(start->game); !begun) return begun;
        return db_.run("UPDATE games SET version = ?, join_code = ? WHERE id = ?",
                       {static_cast<std::int64_t>(start->version),
                        start->join_code.empty() ? sql::Value(nullptr) : sql::Value(start->join_code), start->game.id});
    }
    if (const auto* append = std::get_if<JournalAppend>(&record)) {
        const JournalMove& m = append->move;
        if (m.iccs.size() != 4 || !parse_iccs(m.iccs))
            return std::unexpected(detail::invalid("append game " + m.game_id + ": not an ICCS move '" + m.iccs + "'"));
        return db_.run(
            "INSERT INTO moves (game_id, ply, iccs, move_id, red_ms, black_ms, at, version) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            {m.game_id, std::int64_t{m.ply}, m.iccs, m.move_id, m.red_ms, m.black_ms, m.at_ms,
             static_cast<std::int64_t>(append->version)});
    }
    if (const auto* takeback = std::get_if<JournalTakeback>(&record)) {
        auto updated = db_.run("UPDATE games SET version = ? WHERE id = ? AND status = 'live'",
                               {static_cast<std::int64_t>(takeback->version), takeback->game_id});
        if (!updated) return updated;
        if (db_.changes() == 0)
            return std::unexpected(StoreError{StoreErrorCode::NotFound, "no live game " + takeback->game_id});
        return db_.run("DELETE FROM moves WHERE game_id = ? AND ply > ?",
                       {takeback->game_id, std::int64_t{takeback->plies_left}});
    }
    if (const auto* abort = std::get_if<JournalAbort>(&record))
        return db_.run("DELETE FROM games WHERE id = ? AND status = 'live'", {abort->game_id});
    // A finish: the live row becomes the archive entry; a game never journaled live is inserted.
    const ArchivedGame& g = std::get<JournalFinish>(record).game;
    auto plies = detail::count_iccs_moves(g.moves);
    if (!plies) return std::unexpected(std::move(plies.error()));
    auto done = db_.run(
        "UPDATE games SET status = 'archived', red_token = NULL, black_token = NULL, started_at = ?, "
        "ended_at = ?, result = ?, reason = ?, explanation = ?, moves = ?, ply_count = ?, pgn = ? "
        "WHERE id = ? AND status = 'live'",
        {g.started_at_ms, g.ended_at_ms, to_string(g.result), to_string(g.reason), g.explanation, g.moves,
         std::int64_t{*plies}, g.pgn, g.id});
    if (!done) return done;
    if (db_.changes() > 0) return {};
    return archive_game(g);
}

StoreResult<std::vector<JournalFailure>> Store::commit_journal(std::span<const JournalRecord> records) {
    if (records.empty()) return std::vector<JournalFailure>{};
    // Records are almost never refused, so the whole turn goes in plain first; savepoints (three
    // more statements a record) are only paid on the retry after a refusal.
    auto plain = commit_turn(records, false);
    if (plain && plain->empty()) return plain;
    return commit_turn(records, true);
}

StoreResult<std::vector<JournalFailure>> Store::commit_turn(std::span<const JournalRecord> records, bool isolate) {
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

StoreResult<std::vector<RecoverableGame>> Store::load_recoverable_games() {
    auto live = load_live_games();
    if (!live) return std::unexpected(std::move(live.error()));
    std::vector<RecoverableGame> games;
    std::unordered_map<std::string, std::size_t> index;
    for (LiveGame& g : *live) {
        index.emplace(g.record.id, games.size());
        games.push_back(RecoverableGame{std::move(g), "", 0, {}});
    }
    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Read);
    if (!tx) return std::unexpected(in_context(std::move(tx.error()), "load recoverable games"));
    {
        auto q = db_.query("SELECT id, version, join_code FROM games WHERE status = 'live'");
        if (!q) return std::unexpected(in_context(std::move(q.error()), "load recoverable games"));
        while (true) {
            auto row = q->next();
            if (!row) return std::unexpected(in_context(std::move(row.error()), "load recoverable games"));
            if (!*row) break;
            if (auto it = index.find(q->text(0)); it != index.end()) {
                games[it->second].version = static_cast<std::uint64_t>(q->int64(1));
                games[it->second].join_code = q->text(2);
            }
        }
    }
    auto q = db_.query("SELECT m.game_id, m.version FROM moves m JOIN games g ON g.id = m.game_id "
                       "WHERE g.status = 'live' ORDER BY m.game_id, m.ply");
    if (!q) return std::unexpected(in_context(std::move(q.error()), "load recoverable games"));
    while (true) {
        auto row = q->next();
        if (!row) return std::unexpected(in_context(std::move(row.error()), "load recoverable games"));
        if (!*row) break;
        if (auto it = index.find(q->text(0)); it != index.end())
            games[it->second].move_versions.push_back(static_cast<std::uint64_t>(q->int64(1)));
    }
    // A game changed between the two reads cannot happen (one writer: this process), but a
    // mismatch must not index past the moves.
    for (RecoverableGame& g : games) g.move_versions.resize(g.game.moves.size());
    return games;
}

}  // namespace xq::server
