// Each journal record as the statement that applies it, and what its answer means. A statement
// refuses the expected cases by touching nothing (its WHERE fails) and answers one row saying
// why: (rows applied, the game's plies or NULL when it is not live, its fence), read from the
// snapshot before the statement. So a turn's statements can all go out at once (pg_journal.cpp).

#include <chrono>
#include <cmath>

#include "common/iccs.h"
#include "server/store/postgres/pg_store.h"
#include "server/store/record_checks.h"

namespace xq::server {
namespace {

using pg::param;

std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The answer row of a statement whose data-modifying part is the CTE `w` and whose game id is $1.
constexpr std::string_view kAnswer =
    " SELECT (SELECT count(*) FROM w), l.plies, l.fence FROM (SELECT 1) one "
    "LEFT JOIN games l ON l.id = $1 AND l.status = 'live'";

// The fence condition on parameters $n (the fence held: NULL for none, a store without a node
// id) and $n+1 (this turn, for a game started in it, whose fence is not known yet).
std::string fence_is(int n) {
    const std::string fence = "$" + std::to_string(n), turn = "$" + std::to_string(n + 1);
    return "(" + fence + "::bigint IS NULL OR fence = " + fence + " OR turn = " + turn + "::bigint)";
}

std::string context_of(const JournalRecord& record) {
    if (const auto* start = std::get_if<JournalStart>(&record)) return "begin live game " + start->game.id;
    if (const auto* append = std::get_if<JournalAppend>(&record))
        return "append game " + append->move.game_id + " ply " + std::to_string(append->move.ply);
    if (const auto* takeback = std::get_if<JournalTakeback>(&record))
        return "take back game " + takeback->game_id + " to ply " + std::to_string(takeback->plies_left);
    if (const auto* token = std::get_if<JournalSeatToken>(&record)) return "rotate a token of game " + token->game_id;
    if (const auto* abort = std::get_if<JournalAbort>(&record)) return "abort game " + abort->game_id;
    return "finish game " + std::get<JournalFinish>(record).game.id;
}

}  // namespace

void PgStore::add_fence_params(std::vector<pg::Param>& params, std::string_view game, std::int64_t turn) const {
    if (owner_.empty()) {
        params.insert(params.end(), 2, pg::Param());
        return;
    }
    const auto it = fences_.find(std::string(game));
    params.push_back(param(it == fences_.end() ? std::int64_t{-1} : it->second));
    params.push_back(starting_.contains(std::string(game)) ? param(turn) : pg::Param());
}

bool PgStore::fenced(std::string_view game, std::int64_t fence) const {
    if (owner_.empty() || starting_.contains(std::string(game))) return false;
    const auto it = fences_.find(std::string(game));
    return it == fences_.end() || it->second != fence;
}

StoreResult<pg::Statement> PgStore::plan(const JournalRecord& record, std::int64_t turn) const {
    const std::string context = context_of(record);
    if (const auto* start = std::get_if<JournalStart>(&record)) {
        const LiveGameRecord& g = start->game;
        for (auto valid : {detail::check_id(g.id), detail::check_time_control(g.time_control)})
            if (!valid) return std::unexpected(in_context(std::move(valid.error()), context));
        // A node's game gets its owner and a fresh fence in the same statement. An id taken
        // (live or archived) inserts nothing.
        return pg::Statement{
            "WITH w AS (INSERT INTO games (id, status, red_name, black_name, red_token, black_token, base_seconds, "
            "increment_seconds, move_cap_seconds, start_fen, created_at, red_account, black_account, rated, "
            "spectator_delay, version, join_code, turn, owner, fence) "
            "VALUES ($1, 'live', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, "
            "CASE WHEN $18::text IS NULL THEN 0 ELSE nextval('xq_fence') END) "
            "ON CONFLICT (id) DO NOTHING RETURNING fence) "
            "SELECT (SELECT count(*) FROM w), NULL::integer, (SELECT fence FROM w)",
            {param(g.id), param(g.red_name), param(g.black_name), param(g.red_token), param(g.black_token),
             param(g.time_control.base_seconds), param(g.time_control.increment_seconds),
             param(g.time_control.move_cap_seconds), param(g.start_fen), param(g.created_at_ms),
             pg::null_if_empty(g.red_account), pg::null_if_empty(g.black_account), param(g.rated),
             param(g.spectator_delay), param(static_cast<std::int64_t>(start->version)),
             pg::null_if_empty(start->join_code), param(turn), pg::null_if_empty(owner_)}};
    }
    if (const auto* append = std::get_if<JournalAppend>(&record)) {
        const JournalMove& m = append->move;
        if (m.iccs.size() != 4 || !parse_iccs(m.iccs))
            return std::unexpected(detail::invalid(context + ": not an ICCS move '" + m.iccs + "'"));
        // The games row checks the ply and the fence, and numbers the journal row.
        pg::Statement statement{
            "WITH g AS (UPDATE games SET plies = $2, journal_rows = journal_rows + 1 "
            "WHERE id = $1 AND status = 'live' AND plies = $2 - 1 AND " + fence_is(10) + " RETURNING journal_rows), "
            "w AS (INSERT INTO journal (game_id, n, ply, iccs, move_id, red_ms, black_ms, at, version, turn) "
            "SELECT $1, journal_rows, $2, $3, $4, $5, $6, $7, $8, $9 FROM g RETURNING 1)" + std::string(kAnswer),
            {param(m.game_id), param(m.ply), param(m.iccs), param(m.move_id), param(m.red_ms), param(m.black_ms),
             param(m.at_ms), param(static_cast<std::int64_t>(append->version)), param(turn)}};
        add_fence_params(statement.params, m.game_id, turn);
        return statement;
    }
    if (const auto* takeback = std::get_if<JournalTakeback>(&record)) {
        pg::Statement statement{
            "WITH g AS (UPDATE games SET plies = $2, journal_rows = journal_rows + 1 "
            "WHERE id = $1 AND status = 'live' AND $2 >= 0 AND $2 <= plies AND " + fence_is(6) + " RETURNING journal_rows), "
            "w AS (INSERT INTO journal (game_id, n, ply, iccs, move_id, red_ms, black_ms, at, version, turn) "
            "SELECT $1, journal_rows, $2, NULL, 0, 0, 0, $3, $4, $5 FROM g RETURNING 1)" + std::string(kAnswer),
            {param(takeback->game_id), param(takeback->plies_left), param(unix_ms()),
             param(static_cast<std::int64_t>(takeback->version)), param(turn)}};
        add_fence_params(statement.params, takeback->game_id, turn);
        return statement;
    }
    if (const auto* rotated = std::get_if<JournalSeatToken>(&record)) {
        // A waiting game has no live row yet: its tokens reach the database with its start.
        pg::Statement statement{std::string("WITH w AS (UPDATE games SET ") + (rotated->red ? "red_token" : "black_token") +
                                    " = $2 WHERE id = $1 AND status = 'live' AND " + fence_is(3) + " RETURNING 1)" +
                                    std::string(kAnswer),
                                {param(rotated->game_id), param(rotated->token)}};
        add_fence_params(statement.params, rotated->game_id, turn);
        return statement;
    }
    if (const auto* abort = std::get_if<JournalAbort>(&record)) {
        // The journal goes with the row (ON DELETE CASCADE).
        pg::Statement statement{"WITH w AS (DELETE FROM games WHERE id = $1 AND status = 'live' AND " + fence_is(2) +
                                    " RETURNING 1)" + std::string(kAnswer),
                                {param(abort->game_id)}};
        add_fence_params(statement.params, abort->game_id, turn);
        return statement;
    }
    return std::unexpected(StoreError{StoreErrorCode::Internal, context + ": a finish has no single statement"});
}

std::optional<StoreError> PgStore::verdict(const JournalRecord& record, const pg::Result& answer) const {
    if (answer.rows() != 1) return StoreError{StoreErrorCode::Internal, context_of(record) + ": no answer row"};
    if (answer.int64(0, 0) > 0) return std::nullopt;
    const std::string context = context_of(record);
    const std::string game(journal_game_id(record));
    const bool live = !answer.is_null(0, 1);
    if (live && fenced(game, answer.int64(0, 2)))
        return StoreError{StoreErrorCode::Fenced,
                          context + ": game " + game + " is owned by another node now (its fence moved on)"};
    if (std::holds_alternative<JournalStart>(record))
        return StoreError{StoreErrorCode::Constraint, context + ": a game with this id exists already"};
    if (std::holds_alternative<JournalAppend>(record))
        return StoreError{StoreErrorCode::Constraint,
                          live ? context + ": not the next ply of its game (stored already, or a gap)"
                               : context + ": game " + game + " is not live"};
    if (std::holds_alternative<JournalTakeback>(record))
        return live ? StoreError{StoreErrorCode::Constraint, context + ": the game has " + answer.text(0, 1) + " plies"}
                    : StoreError{StoreErrorCode::NotFound, context + ": game " + game + " is not live"};
    return std::nullopt;  // a token or an abort of a game not live: nothing to do
}

StoreResult<std::int64_t> PgStore::apply(const JournalRecord& record, std::int64_t turn) {
    if (const auto* finish = std::get_if<JournalFinish>(&record)) {
        auto done = apply_finish(finish->game, turn);
        if (!done) return std::unexpected(std::move(done.error()));
        return 0;
    }
    auto statement = plan(record, turn);
    if (!statement) return std::unexpected(std::move(statement.error()));
    auto answer = run(statement->sql, statement->params);
    if (!answer) return std::unexpected(in_context(std::move(answer.error()), context_of(record)));
    if (auto refusal = verdict(record, *answer)) return std::unexpected(std::move(*refusal));
    return answer->is_null(0, 2) ? 0 : answer->int64(0, 2);
}

StoreResult<void> PgStore::apply_finish(const ArchivedGame& g, std::int64_t turn) {
    // The live row becomes the archive entry and its journal goes; a game never journaled live is
    // inserted. A private game keeps only the mark that it was private.
    const std::string context = "finish game " + g.id;
    auto plies = detail::count_iccs_moves(g.moves);
    if (!plies) return std::unexpected(in_context(std::move(plies.error()), context));
    const std::string sql =
        "UPDATE games SET status = 'archived', red_token = NULL, black_token = NULL, started_at = $1, "
        "ended_at = $2, result = $3, reason = $4, explanation = $5, moves = $6, ply_count = $7, pgn = $8, "
        "join_code = CASE WHEN $9 OR join_code IS NOT NULL THEN '' END, red_account = $10, black_account = $11, "
        "rated = $12, red_rating_before = $13, red_rating_after = $14, black_rating_before = $15, "
        "black_rating_after = $16, red_provisional = $17, black_provisional = $18 "
        "WHERE id = $19 AND status = 'live' AND " + fence_is(20);
    std::vector<pg::Param> params{param(g.started_at_ms), param(g.ended_at_ms), param(to_string(g.result)), param(to_string(g.reason)),
         param(g.explanation), param(g.moves), param(*plies), param(g.pgn), param(g.is_private),
         pg::null_if_empty(g.red_account), pg::null_if_empty(g.black_account), param(g.rated),
         g.red_rating ? param(static_cast<std::int64_t>(std::lround(g.red_rating->before.rating))) : pg::Param(),
         g.red_rating ? param(static_cast<std::int64_t>(std::lround(g.red_rating->after.rating))) : pg::Param(),
         g.black_rating ? param(static_cast<std::int64_t>(std::lround(g.black_rating->before.rating))) : pg::Param(),
         g.black_rating ? param(static_cast<std::int64_t>(std::lround(g.black_rating->after.rating))) : pg::Param(),
         g.red_rating ? param(ratings::is_provisional(g.red_rating->after)) : pg::Param(),
         g.black_rating ? param(ratings::is_provisional(g.black_rating->after)) : pg::Param(), param(g.id)};
    add_fence_params(params, g.id, turn);
    auto done = run(sql, params);
    if (!done) return std::unexpected(in_context(std::move(done.error()), context));
    if (done->affected() > 0) {
        if (auto gone = run("DELETE FROM journal WHERE game_id = $1", {param(g.id)}); !gone)
            return std::unexpected(std::move(gone.error()));
        // Only a live row turned archived gets here, once: a finish replayed finds no live row
        // and its insert below is refused, so a result never counts twice.
        return write_ratings(g);
    }
    if (!owner_.empty()) {
        auto live = run("SELECT fence FROM games WHERE id = $1 AND status = 'live'", {param(g.id)});
        if (!live) return std::unexpected(in_context(std::move(live.error()), context));
        if (live->rows() > 0)
            return std::unexpected(StoreError{StoreErrorCode::Fenced,
                                              context + ": game " + g.id + " is owned by another node now (its fence moved on)"});
    }
    return insert_archived(g);
}

}  // namespace xq::server
