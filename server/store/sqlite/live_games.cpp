// The live-game journal's rows: a games row with status 'live', its moves and takebacks appended
// to the `journal` log (commit_journal, turn_commit.cpp, decides what), and the log replayed for
// recovery and for what the store keeps in memory of each live game.

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "common/iccs.h"
#include "server/store/journal_replay.h"
#include "server/store/sqlite/sqlite_store.h"
#include "server/store/sqlite/store_detail.h"

namespace xq::server {


StoreResult<SqliteStore::LiveJournal*> SqliteStore::live_journal(std::string_view id, std::string_view context) {
    if (live_stale_)
        if (auto reloaded = reload_live(); !reloaded) return std::unexpected(in_context(std::move(reloaded.error()), context));
    const auto it = live_.find(id);
    if (it == live_.end())
        return std::unexpected(StoreError{StoreErrorCode::Constraint,
                                          std::string(context) + ": game " + std::string(id) + " is not live"});
    return &it->second;
}

StoreResult<void> SqliteStore::insert_journal_row(const JournalMove& m, std::optional<int> takeback_to, std::uint64_t version,
                                            LiveJournal& live) {
    static const std::string kInsert =
        "INSERT INTO journal (game_id, n, ply, iccs, move_id, red_ms, black_ms, at, version) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    auto done = db_.run(kInsert, {m.game_id, live.rows + 1, std::int64_t{takeback_to.value_or(m.ply)},
                                  takeback_to ? sql::Value(nullptr) : sql::Value(m.iccs), m.move_id, m.red_ms,
                                  m.black_ms, m.at_ms, static_cast<std::int64_t>(version)});
    if (!done) return done;
    // Counted once the row is in: a refused row leaves the memory as the file.
    live.plies = takeback_to.value_or(m.ply);
    ++live.rows;
    ++live_rows_;
    next_seq_ = db_.last_insert_rowid() + 1;
    return {};
}

StoreResult<void> SqliteStore::begin_live_game(const LiveGameRecord& g) {
    for (auto valid : {detail::check_id(g.id), detail::check_time_control(g.time_control)})
        if (!valid) return std::unexpected(in_context(std::move(valid.error()), "begin live game " + g.id));
    if (live_stale_)
        if (auto reloaded = reload_live(); !reloaded) return std::unexpected(in_context(std::move(reloaded.error()), "begin live game " + g.id));
    auto done = db_.run(
        "INSERT INTO games (id, status, red_name, black_name, red_token, black_token, base_seconds, "
        "increment_seconds, move_cap_seconds, start_fen, created_at, red_account, black_account, rated, spectator_delay) "
        "VALUES (?, 'live', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        {g.id, g.red_name, g.black_name, g.red_token, g.black_token, g.time_control.base_seconds,
         g.time_control.increment_seconds, g.time_control.move_cap_seconds, g.start_fen, g.created_at_ms,
         detail::null_if_empty(g.red_account), detail::null_if_empty(g.black_account), std::int64_t{g.rated},
         std::int64_t{g.spectator_delay}});
    if (!done) return std::unexpected(in_context(std::move(done.error()), "begin live game " + g.id));
    live_.emplace(g.id, LiveJournal{});
    return {};
}

StoreResult<std::vector<SqliteStore::ReplayedGame>> SqliteStore::replay_journal(std::optional<std::string_view> only) {
    // One snapshot for both reads, unless the caller's transaction is one already.
    std::optional<sql::Transaction> snapshot;
    if (!db_.in_transaction()) {
        auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Read);
        if (!tx) return std::unexpected(in_context(std::move(tx.error()), "read the journal"));
        snapshot.emplace(std::move(*tx));
    }

    std::vector<ReplayedGame> games;
    std::unordered_map<std::string, std::size_t> index;
    {
        static const std::string kLive =
            "SELECT id, red_name, black_name, red_token, black_token, base_seconds, increment_seconds, "
            "move_cap_seconds, start_fen, created_at, version, join_code, red_account, black_account, rated, spectator_delay FROM games "
            "WHERE status = 'live' ORDER BY created_at, id";
        static const std::string kOne =
            "SELECT id, red_name, black_name, red_token, black_token, base_seconds, increment_seconds, "
            "move_cap_seconds, start_fen, created_at, version, join_code, red_account, black_account, rated, spectator_delay FROM games "
            "WHERE status = 'live' AND id = ?";
        auto q = only ? db_.query(kOne, {*only}) : db_.query(kLive);
        if (!q) return std::unexpected(in_context(std::move(q.error()), "read the journal"));
        while (true) {
            auto row = q->next();
            if (!row) return std::unexpected(in_context(std::move(row.error()), "read the journal"));
            if (!*row) break;
            ReplayedGame g;
            g.game.game.record = LiveGameRecord{q->text(0), q->text(1), q->text(2), q->text(3), q->text(4),
                                                {q->int64(5), q->int64(6), q->int64(7)}, q->text(8), q->int64(9),
                                                q->text(12), q->text(13), q->int64(14) != 0,
                                                static_cast<int>(q->int64(15))};
            g.game.version = static_cast<std::uint64_t>(q->int64(10));
            g.game.join_code = q->text(11);
            index.emplace(g.game.game.record.id, games.size());
            games.push_back(std::move(g));
        }
    }

    // The log has no index by game (that is what keeps appends on one page), so it is read whole.
    std::vector<std::vector<JournalRow>> rows(games.size());
    {
        auto q = db_.query("SELECT game_id, n, ply, iccs, move_id, red_ms, black_ms, at, version, iccs IS NULL FROM journal");
        if (!q) return std::unexpected(in_context(std::move(q.error()), "read the journal"));
        while (true) {
            auto row = q->next();
            if (!row) return std::unexpected(in_context(std::move(row.error()), "read the journal"));
            if (!*row) break;
            const auto game = index.find(q->text(0));
            if (game == index.end()) continue;  // a finished or aborted game's rows, left for compaction
            rows[game->second].push_back(JournalRow{q->int64(1), q->int64(9) != 0,
                                             JournalMove{q->text(0), static_cast<int>(q->int64(2)), q->text(3), q->int64(4),
                                                         q->int64(5), q->int64(6), q->int64(7)},
                                             static_cast<std::uint64_t>(q->int64(8))});
        }
    }

    for (std::size_t i = 0; i < games.size(); ++i) {
        games[i].rows = static_cast<std::int64_t>(rows[i].size());
        if (auto damage = replay_journal_rows(games[i].game, rows[i])) games[i].damage = std::move(*damage);
    }
    return games;
}

StoreResult<void> SqliteStore::reload_live() {
    auto games = replay_journal();
    if (!games) return std::unexpected(std::move(games.error()));
    std::unordered_map<std::string, LiveJournal, Hash, std::equal_to<>> live;
    std::int64_t rows = 0;
    for (const ReplayedGame& g : *games) {
        if (g.damage) continue;  // never appended to again: recovery reports it and leaves it be
        live.emplace(g.game.game.record.id, LiveJournal{static_cast<int>(g.game.game.moves.size()), g.rows});
        rows += g.rows;
    }
    auto q = db_.query("SELECT coalesce(min(seq), 1), coalesce(max(seq), 0) + 1 FROM journal");
    if (!q) return std::unexpected(in_context(std::move(q.error()), "read the journal's bounds"));
    auto row = q->next();
    if (!row) return std::unexpected(in_context(std::move(row.error()), "read the journal's bounds"));
    first_seq_ = q->int64(0);
    next_seq_ = q->int64(1);
    live_ = std::move(live);
    live_rows_ = rows;
    live_stale_ = false;
    return {};
}

}  // namespace xq::server
