// The live-game journal on PostgreSQL: a turn in one transaction and one round trip, a refused
// record undone alone, a COMMIT without an answer settled on reconnect, and the journal replayed
// for recovery.

#include <algorithm>
#include <unordered_map>

#include "server/log/log.h"
#include "server/store/journal_replay.h"
#include "server/store/postgres/pg_store.h"
#include "server/store/record_checks.h"

namespace xq::server {
namespace {

using pg::param;

std::string journal_context(const JournalRecord& record) { return "journal game " + std::string(journal_game_id(record)); }

// Each turn also writes its number under this store's id: how a COMMIT without an answer is
// settled (settle_doubt).
constexpr std::string_view kTurnMark =
    "INSERT INTO xq_turns (node, turn) VALUES ($1, $2) ON CONFLICT (node) DO UPDATE SET turn = excluded.turn";

}  // namespace

StoreResult<std::vector<JournalFailure>> PgStore::commit_journal(std::span<const JournalRecord> records) {
    if (records.empty()) return std::vector<JournalFailure>{};
    // A finish is several statements with a choice between them: a turn that has one (once in a
    // game's life) goes statement by statement, as does a turn a record made the server reject.
    const bool finishes =
        std::ranges::any_of(records, [](const JournalRecord& r) { return std::holds_alternative<JournalFinish>(r); });
    if (!finishes) {
        auto sent = commit_pipelined(records);
        if (!sent) return std::unexpected(std::move(sent.error()));
        if (*sent) {
            mirror_.apply(records, **sent);
            return std::move(**sent);
        }
        // That attempt was rolled back; without a connection there is no second one.
        if (lost()) return std::unexpected(StoreError{StoreErrorCode::Io, "commit journal: postgres connection lost"});
    }
    auto done = commit_isolated(records);
    if (done) mirror_.apply(records, *done);
    return done;
}

StoreResult<std::optional<std::vector<JournalFailure>>> PgStore::commit_pipelined(std::span<const JournalRecord> records) {
    // While a turn is in doubt nothing else is written: settling it must see the database as that
    // turn left it (connection() settles it first on reconnect).
    auto conn = connection();
    if (!conn) return std::unexpected(in_context(std::move(conn.error()), "commit journal"));
    const std::int64_t turn = ++turn_;
    std::vector<JournalFailure> failures;
    std::vector<pg::Statement> statements{{"BEGIN", {}}};
    std::vector<std::size_t> sent;  // the record of each statement after BEGIN
    starting_.clear();
    for (std::size_t i = 0; i < records.size(); ++i) {
        auto statement = plan(records[i], turn);
        if (!statement) {
            failures.push_back({i, in_context(std::move(statement.error()), journal_context(records[i]))});
            continue;
        }
        statements.push_back(std::move(*statement));
        sent.push_back(i);
        if (const auto* start = std::get_if<JournalStart>(&records[i])) starting_.insert(start->game.id);
    }
    statements.push_back({std::string(kTurnMark), {param(node_), param(turn)}});
    statements.push_back({"COMMIT", {}});
    auto answers = (*conn)->pipeline(statements);
    if (!answers) {
        // The connection failed with the turn on its way: whether its COMMIT landed nobody knows
        // until we can ask (settle_doubt).
        drop(answers.error().message);
        doubt_ = turn;
        return std::unexpected(in_context(std::move(answers.error()), "commit journal"));
    }
    for (const auto& answer : *answers)
        if (!answer) {
            // The server rejected a statement and skipped the rest, COMMIT included: the
            // transaction is left aborted until ROLLBACK, and nothing of the turn is stored.
            (void)run("ROLLBACK");
            return std::optional<std::vector<JournalFailure>>{};
        }
    std::vector<std::pair<std::size_t, std::int64_t>> applied;
    for (std::size_t k = 0; k < sent.size(); ++k) {
        const pg::Result& answer = *(*answers)[k + 1];
        if (auto refusal = verdict(records[sent[k]], answer))
            failures.push_back({sent[k], in_context(std::move(*refusal), journal_context(records[sent[k]]))});
        else applied.emplace_back(sent[k], answer.is_null(0, 2) ? 0 : answer.int64(0, 2));
    }
    std::ranges::sort(failures, {}, &JournalFailure::index);
    note_ownership(records, applied, failures);
    return std::optional<std::vector<JournalFailure>>{std::move(failures)};
}

StoreResult<std::vector<JournalFailure>> PgStore::commit_isolated(std::span<const JournalRecord> records) {
    auto conn = connection();
    if (!conn) return std::unexpected(in_context(std::move(conn.error()), "commit journal"));
    const std::int64_t turn = ++turn_;
    std::vector<JournalFailure> failures;
    std::vector<std::pair<std::size_t, std::int64_t>> applied;
    auto abandon = [&](StoreError e) -> StoreResult<std::vector<JournalFailure>> {
        if (!lost()) (void)run("ROLLBACK");
        return std::unexpected(in_context(std::move(e), "commit journal"));
    };
    if (auto begun = run("BEGIN"); !begun) return abandon(std::move(begun.error()));
    starting_.clear();
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (auto sp = run("SAVEPOINT journal_record"); !sp) return abandon(std::move(sp.error()));
        auto done = apply(records[i], turn);
        if (done) {
            applied.emplace_back(i, *done);
            if (const auto* start = std::get_if<JournalStart>(&records[i])) starting_.insert(start->game.id);
            continue;
        }
        if (lost()) return abandon(std::move(done.error()));
        failures.push_back({i, in_context(std::move(done.error()), journal_context(records[i]))});
        if (auto back = run("ROLLBACK TO SAVEPOINT journal_record"); !back) return abandon(std::move(back.error()));
    }
    if (auto marked = run(kTurnMark, {param(node_), param(turn)}); !marked) return abandon(std::move(marked.error()));
    auto committed = run("COMMIT");
    if (!committed) {
        // No answer to COMMIT: stored or not, nobody knows until we can ask (settle_doubt).
        if (lost()) doubt_ = turn;
        return std::unexpected(in_context(std::move(committed.error()), "commit journal"));
    }
    note_ownership(records, applied, failures);
    return failures;
}

void PgStore::note_ownership(std::span<const JournalRecord> records,
                             const std::vector<std::pair<std::size_t, std::int64_t>>& applied,
                             const std::vector<JournalFailure>& failures) {
    if (owner_.empty()) return;
    for (const auto& [i, fence] : applied) {
        const JournalRecord& r = records[i];
        if (const auto* start = std::get_if<JournalStart>(&r)) fences_[start->game.id] = fence;
        else if (std::holds_alternative<JournalFinish>(r) || std::holds_alternative<JournalAbort>(r))
            fences_.erase(std::string(journal_game_id(r)));
    }
    // A game another node took over is not ours any more, nor in what recovery would restore.
    for (const JournalFailure& f : failures)
        if (f.error.code == StoreErrorCode::Fenced) {
            const std::string game(journal_game_id(records[f.index]));
            fences_.erase(game);
            const JournalRecord gone = JournalAbort{game};
            mirror_.apply(std::span(&gone, 1), {});
        }
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

StoreResult<std::vector<RecoverableGame>> PgStore::read_live(const std::string& which,
                                                             const std::vector<pg::Param>& params,
                                                             std::vector<StoreError>* damaged,
                                                             std::unordered_map<std::string, std::int64_t>* fences) {
    auto games = run(
        "SELECT id, red_name, black_name, red_token, black_token, base_seconds, increment_seconds, "
        "move_cap_seconds, start_fen, created_at, version, join_code, red_account, black_account, rated, "
        "spectator_delay, fence FROM games g WHERE status = 'live' AND " + which + " ORDER BY created_at, id",
        params);
    if (!games) return std::unexpected(std::move(games.error()));
    auto rows = run(
        "SELECT j.game_id, j.n, j.ply, j.iccs, j.move_id, j.red_ms, j.black_ms, j.at, j.version, j.iccs IS NULL "
        "FROM journal j JOIN games g ON g.id = j.game_id WHERE g.status = 'live' AND " + which +
            " ORDER BY j.game_id, j.n",
        params);
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
        if (damage) {
            if (damaged) damaged->push_back(std::move(*damage));
            continue;
        }
        if (fences) (*fences)[g.game.record.id] = games->int64(i, 16);
        out.push_back(std::move(g));
    }
    return out;
}

StoreResult<std::vector<RecoverableGame>> PgStore::load_recoverable_games(std::vector<StoreError>* damaged) {
    // A node's store restores the games it owns; a single node's, every live game.
    std::unordered_map<std::string, std::int64_t> fences;
    auto loaded = [&]() -> StoreResult<std::vector<RecoverableGame>> {
        if (auto begun = run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"); !begun)
            return std::unexpected(std::move(begun.error()));
        if (owner_.empty()) return read_live("true", {}, damaged, nullptr);
        return read_live("g.owner = $1", {param(owner_)}, damaged, &fences);
    }();
    if (!lost()) (void)run(loaded ? "COMMIT" : "ROLLBACK");  // (a failed BEGIN: a harmless warning)
    if (loaded) {
        mirror_.reset(*loaded);
        if (!owner_.empty()) fences_ = std::move(fences);
        return loaded;
    }
    // Unreachable (not refused): what this store committed last is what the database holds, or
    // will once a turn in doubt is undone.
    if (lost()) return mirror_.games();
    return std::unexpected(in_context(std::move(loaded.error()), "load recoverable games"));
}

}  // namespace xq::server
