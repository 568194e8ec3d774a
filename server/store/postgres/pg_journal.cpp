// The live-game journal on PostgreSQL: a turn in one transaction, a refused record undone alone,
// a COMMIT without an answer settled on reconnect, and the journal replayed for recovery.

#include <chrono>
#include <cmath>
#include <unordered_map>

#include "common/iccs.h"
#include "server/log/log.h"
#include "server/store/journal_replay.h"
#include "server/store/postgres/pg_store.h"
#include "server/store/record_checks.h"

namespace xq::server {
namespace {

using pg::param;

std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

StoreError in_context(StoreError e, std::string_view context) {
    e.message = std::string(context) + ": " + e.message;
    return e;
}

StoreError refused(StoreErrorCode code, std::string message) { return StoreError{code, std::move(message)}; }

}  // namespace

StoreResult<void> PgStore::apply(const JournalRecord& record, std::int64_t turn) {
    if (const auto* start = std::get_if<JournalStart>(&record)) {
        const LiveGameRecord& g = start->game;
        for (auto valid : {detail::check_id(g.id), detail::check_time_control(g.time_control)})
            if (!valid) return std::unexpected(in_context(std::move(valid.error()), "begin live game " + g.id));
        auto done = run(
            "INSERT INTO games (id, status, red_name, black_name, red_token, black_token, base_seconds, "
            "increment_seconds, move_cap_seconds, start_fen, created_at, red_account, black_account, rated, "
            "spectator_delay, version, join_code, turn) "
            "VALUES ($1, 'live', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            {param(g.id), param(g.red_name), param(g.black_name), param(g.red_token), param(g.black_token),
             param(g.time_control.base_seconds), param(g.time_control.increment_seconds),
             param(g.time_control.move_cap_seconds), param(g.start_fen), param(g.created_at_ms),
             pg::null_if_empty(g.red_account), pg::null_if_empty(g.black_account), param(g.rated),
             param(g.spectator_delay), param(static_cast<std::int64_t>(start->version)),
             pg::null_if_empty(start->join_code), param(turn)});
        if (!done) return std::unexpected(in_context(std::move(done.error()), "begin live game " + g.id));
        return {};
    }
    if (const auto* append = std::get_if<JournalAppend>(&record)) {
        const JournalMove& m = append->move;
        const std::string context = "append game " + m.game_id + " ply " + std::to_string(m.ply);
        if (m.iccs.size() != 4 || !parse_iccs(m.iccs))
            return std::unexpected(detail::invalid(context + ": not an ICCS move '" + m.iccs + "'"));
        // One statement: the games row checks the ply and numbers the row (the fence condition
        // of the cluster goes in the same WHERE).
        auto done = run(
            "WITH g AS (UPDATE games SET plies = $2, journal_rows = journal_rows + 1 "
            "WHERE id = $1 AND status = 'live' AND plies = $2 - 1 RETURNING journal_rows) "
            "INSERT INTO journal (game_id, n, ply, iccs, move_id, red_ms, black_ms, at, version, turn) "
            "SELECT $1, journal_rows, $2, $3, $4, $5, $6, $7, $8, $9 FROM g",
            {param(m.game_id), param(m.ply), param(m.iccs), param(m.move_id), param(m.red_ms), param(m.black_ms),
             param(m.at_ms), param(static_cast<std::int64_t>(append->version)), param(turn)});
        if (!done) return std::unexpected(in_context(std::move(done.error()), context));
        if (done->affected() == 1) return {};
        auto live = run("SELECT plies FROM games WHERE id = $1 AND status = 'live'", {param(m.game_id)});
        if (!live) return std::unexpected(in_context(std::move(live.error()), context));
        if (live->rows() == 0)
            return std::unexpected(refused(StoreErrorCode::Constraint, context + ": game " + m.game_id + " is not live"));
        return std::unexpected(refused(StoreErrorCode::Constraint,
                                       context + ": not the next ply of its game (stored already, or a gap)"));
    }
    if (const auto* takeback = std::get_if<JournalTakeback>(&record)) {
        const std::string context =
            "take back game " + takeback->game_id + " to ply " + std::to_string(takeback->plies_left);
        auto done = run(
            "WITH g AS (UPDATE games SET plies = $2, journal_rows = journal_rows + 1 "
            "WHERE id = $1 AND status = 'live' AND $2 >= 0 AND $2 <= plies RETURNING journal_rows) "
            "INSERT INTO journal (game_id, n, ply, iccs, move_id, red_ms, black_ms, at, version, turn) "
            "SELECT $1, journal_rows, $2, NULL, 0, 0, 0, $3, $4, $5 FROM g",
            {param(takeback->game_id), param(takeback->plies_left), param(unix_ms()),
             param(static_cast<std::int64_t>(takeback->version)), param(turn)});
        if (!done) return std::unexpected(in_context(std::move(done.error()), context));
        if (done->affected() == 1) return {};
        auto live = run("SELECT plies FROM games WHERE id = $1 AND status = 'live'", {param(takeback->game_id)});
        if (!live) return std::unexpected(in_context(std::move(live.error()), context));
        if (live->rows() == 0)
            return std::unexpected(
                refused(StoreErrorCode::NotFound, context + ": game " + takeback->game_id + " is not live"));
        return std::unexpected(
            refused(StoreErrorCode::Constraint, context + ": the game has " + live->text(0, 0) + " plies"));
    }
    if (const auto* rotated = std::get_if<JournalSeatToken>(&record)) {
        // A waiting game has no live row yet: its tokens reach the database with its start.
        auto done = run(rotated->red ? "UPDATE games SET red_token = $1 WHERE id = $2 AND status = 'live'"
                                     : "UPDATE games SET black_token = $1 WHERE id = $2 AND status = 'live'",
                        {param(rotated->token), param(rotated->game_id)});
        if (!done) return std::unexpected(std::move(done.error()));
        return {};
    }
    if (const auto* abort = std::get_if<JournalAbort>(&record)) {
        auto done = run("DELETE FROM games WHERE id = $1 AND status = 'live'", {param(abort->game_id)});  // journal cascades
        if (!done) return std::unexpected(std::move(done.error()));
        return {};
    }
    // A finish: the live row becomes the archive entry and its journal goes; a game never
    // journaled live is inserted. A private game keeps only the mark that it was private.
    const ArchivedGame& g = std::get<JournalFinish>(record).game;
    auto plies = detail::count_iccs_moves(g.moves);
    if (!plies) return std::unexpected(std::move(plies.error()));
    auto done = run(
        "UPDATE games SET status = 'archived', red_token = NULL, black_token = NULL, started_at = $1, "
        "ended_at = $2, result = $3, reason = $4, explanation = $5, moves = $6, ply_count = $7, pgn = $8, "
        "join_code = CASE WHEN $9 OR join_code IS NOT NULL THEN '' END, red_account = $10, black_account = $11, "
        "rated = $12, red_rating_before = $13, red_rating_after = $14, black_rating_before = $15, "
        "black_rating_after = $16, red_provisional = $17, black_provisional = $18 WHERE id = $19 AND status = 'live'",
        {param(g.started_at_ms), param(g.ended_at_ms), param(to_string(g.result)), param(to_string(g.reason)),
         param(g.explanation), param(g.moves), param(*plies), param(g.pgn), param(g.is_private),
         pg::null_if_empty(g.red_account), pg::null_if_empty(g.black_account), param(g.rated),
         g.red_rating ? param(static_cast<std::int64_t>(std::lround(g.red_rating->before.rating))) : pg::Param(),
         g.red_rating ? param(static_cast<std::int64_t>(std::lround(g.red_rating->after.rating))) : pg::Param(),
         g.black_rating ? param(static_cast<std::int64_t>(std::lround(g.black_rating->before.rating))) : pg::Param(),
         g.black_rating ? param(static_cast<std::int64_t>(std::lround(g.black_rating->after.rating))) : pg::Param(),
         g.red_rating ? param(ratings::is_provisional(g.red_rating->after)) : pg::Param(),
         g.black_rating ? param(ratings::is_provisional(g.black_rating->after)) : pg::Param(), param(g.id)});
    if (!done) return std::unexpected(std::move(done.error()));
    if (done->affected() > 0) {
        if (auto gone = run("DELETE FROM journal WHERE game_id = $1", {param(g.id)}); !gone)
            return std::unexpected(std::move(gone.error()));
        // Only a live row turned archived gets here, once: a finish replayed finds no live row
        // and its insert below is refused, so a result never counts twice.
        return write_ratings(g);
    }
    return insert_archived(g);
}

StoreResult<std::vector<JournalFailure>> PgStore::commit_journal(std::span<const JournalRecord> records) {
    if (records.empty()) return std::vector<JournalFailure>{};
    // Records are almost never refused: the turn goes in plain first, and only after a refusal
    // again with a savepoint per record (two more round trips each).
    auto done = commit_turn(records, false);
    if (done && !done->empty()) {
        // That attempt was rolled back; without a connection there is no second one.
        if (lost()) return std::unexpected(StoreError{StoreErrorCode::Io, "commit journal: postgres connection lost"});
        done = commit_turn(records, true);
    }
    if (done) mirror_.apply(records, *done);
    return done;
}

StoreResult<std::vector<JournalFailure>> PgStore::commit_turn(std::span<const JournalRecord> records, bool isolate) {
    // While a turn is in doubt nothing else is written: settling it must see the database as that
    // turn left it (connection() settles it first on reconnect).
    auto conn = connection();
    if (!conn) return std::unexpected(in_context(std::move(conn.error()), "commit journal"));
    const std::int64_t turn = ++turn_;
    std::vector<JournalFailure> failures;
    auto abandon = [&](StoreError e) -> StoreResult<std::vector<JournalFailure>> {
        if (!lost()) (void)run("ROLLBACK");
        return std::unexpected(in_context(std::move(e), "commit journal"));
    };
    if (auto begun = run("BEGIN"); !begun) return abandon(std::move(begun.error()));
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (isolate)
            if (auto sp = run("SAVEPOINT journal_record"); !sp) return abandon(std::move(sp.error()));
        auto applied = apply(records[i], turn);
        if (!applied) {
            if (lost()) return abandon(std::move(applied.error()));
            failures.push_back({i, in_context(std::move(applied.error()), "journal game " + std::string(journal_game_id(records[i])))});
            if (!isolate) {
                (void)run("ROLLBACK");
                return failures;
            }
            if (auto back = run("ROLLBACK TO SAVEPOINT journal_record"); !back) return abandon(std::move(back.error()));
        }
    }
    if (auto marked = run("INSERT INTO xq_turns (node, turn) VALUES ($1, $2) "
                          "ON CONFLICT (node) DO UPDATE SET turn = excluded.turn",
                          {param(node_), param(turn)});
        !marked)
        return abandon(std::move(marked.error()));
    auto committed = run("COMMIT");
    if (!committed) {
        // No answer to COMMIT: stored or not, nobody knows until we can ask (settle_doubt).
        if (lost()) doubt_ = turn;
        return std::unexpected(in_context(std::move(committed.error()), "commit journal"));
    }
    return failures;
}

StoreResult<void> PgStore::settle_doubt() {
    if (!doubt_) return {};
    const std::int64_t turn = *doubt_;
    auto exec = [this](std::string_view sql, const std::vector<pg::Param>& params) { return conn_->exec(sql, params); };
    auto seen = exec("SELECT turn FROM xq_turns WHERE node = $1", {param(node_)});
    if (!seen) return std::unexpected(std::move(seen.error()));
    if (seen->rows() == 0 || seen->int64(0, 0) != turn) {
        log(LogLevel::Info, "store: turn ", turn, " in doubt was not committed; nothing to undo");
        doubt_.reset();
        return {};
    }
    // It did commit, and its moves were refused: undo what it wrote, so the database says what
    // the rooms say. (A game it finished stays archived: that room's next write is refused.)
    if (auto begun = exec("BEGIN", {}); !begun) return std::unexpected(std::move(begun.error()));
    auto undone = [&]() -> StoreResult<void> {
        auto games = exec("SELECT DISTINCT game_id FROM journal WHERE turn = $1", {param(turn)});
        if (!games) return std::unexpected(std::move(games.error()));
        if (auto gone = exec("DELETE FROM journal WHERE turn = $1", {param(turn)}); !gone)
            return std::unexpected(std::move(gone.error()));
        for (int i = 0; i < games->rows(); ++i)
            if (auto reset = exec("UPDATE games SET journal_rows = coalesce((SELECT max(n) FROM journal WHERE game_id = $1), 0), "
                                  "plies = coalesce((SELECT ply FROM journal WHERE game_id = $1 ORDER BY n DESC LIMIT 1), 0) "
                                  "WHERE id = $1",
                                  {param(games->text(i, 0))});
                !reset)
                return std::unexpected(std::move(reset.error()));
        if (auto started = exec("DELETE FROM games WHERE turn = $1 AND status = 'live'", {param(turn)}); !started)
            return std::unexpected(std::move(started.error()));
        if (auto marked = exec("UPDATE xq_turns SET turn = -1 WHERE node = $1", {param(node_)}); !marked)
            return std::unexpected(std::move(marked.error()));
        return {};
    }();
    if (!undone) {
        if (!conn_->broken()) (void)exec("ROLLBACK", {});
        return undone;
    }
    if (auto committed = exec("COMMIT", {}); !committed) return std::unexpected(std::move(committed.error()));
    log(LogLevel::Warn, "store: turn ", turn, " in doubt had committed; undone");
    doubt_.reset();
    return {};
}

StoreResult<std::vector<RecoverableGame>> PgStore::load_recoverable_games(std::vector<StoreError>* damaged) {
    auto loaded = [&]() -> StoreResult<std::vector<RecoverableGame>> {
        if (auto begun = run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"); !begun)
            return std::unexpected(std::move(begun.error()));
        auto games = run(
            "SELECT id, red_name, black_name, red_token, black_token, base_seconds, increment_seconds, "
            "move_cap_seconds, start_fen, created_at, version, join_code, red_account, black_account, rated, "
            "spectator_delay FROM games WHERE status = 'live' ORDER BY created_at, id");
        if (!games) return std::unexpected(std::move(games.error()));
        auto rows = run(
            "SELECT j.game_id, j.n, j.ply, j.iccs, j.move_id, j.red_ms, j.black_ms, j.at, j.version, j.iccs IS NULL "
            "FROM journal j JOIN games g ON g.id = j.game_id WHERE g.status = 'live' ORDER BY j.game_id, j.n");
        if (!rows) return std::unexpected(std::move(rows.error()));
        std::unordered_map<std::string, std::vector<JournalRow>> logs;
        for (int i = 0; i < rows->rows(); ++i)
            logs[rows->text(i, 0)].push_back(
                JournalRow{rows->int64(i, 1), rows->boolean(i, 9),
                           JournalMove{rows->text(i, 0), static_cast<int>(rows->int64(i, 2)), rows->text(i, 3),
                                       rows->int64(i, 4), rows->int64(i, 5), rows->int64(i, 6), rows->int64(i, 7)},
                           static_cast<std::uint64_t>(rows->int64(i, 8))});
        std::vector<RecoverableGame> out;
        for (int i = 0; i < games->rows(); ++i) {
            RecoverableGame g;
            g.game.record = LiveGameRecord{games->text(i, 0), games->text(i, 1), games->text(i, 2), games->text(i, 3),
                                           games->text(i, 4), {games->int64(i, 5), games->int64(i, 6), games->int64(i, 7)},
                                           games->text(i, 8), games->int64(i, 9), games->text(i, 12), games->text(i, 13),
                                           games->boolean(i, 14), static_cast<int>(games->int64(i, 15))};
            g.version = static_cast<std::uint64_t>(games->int64(i, 10));
            g.join_code = games->text(i, 11);
            auto damage = replay_journal_rows(g, logs[g.game.record.id]);
            if (!damage) out.push_back(std::move(g));
            else if (damaged) damaged->push_back(std::move(*damage));
        }
        return out;
    }();
    if (!lost()) (void)run(loaded ? "COMMIT" : "ROLLBACK");  // (a failed BEGIN: a harmless warning)
    if (loaded) {
        mirror_.reset(*loaded);
        return loaded;
    }
    // Unreachable (not refused): what this store committed last is what the database holds, or
    // will once a turn in doubt is undone.
    if (lost()) return mirror_.games();
    return std::unexpected(in_context(std::move(loaded.error()), "load recoverable games"));
}

}  // namespace xq::server
