// Opening the PostgreSQL store, its connection's life (backoff, reconnect), and the archive.

#include "server/store/postgres/pg_store.h"

#include <sys/random.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "server/log/log.h"
#include "server/store/record_checks.h"

namespace xq::server {
namespace {

using pg::param;

std::string random_node_id() {
    std::uint64_t bits = 0;
    while (getrandom(&bits, sizeof bits, 0) != static_cast<ssize_t>(sizeof bits)) {
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(bits));
    return text;
}

constexpr std::string_view kSummaryColumns =
    "id, red_name, black_name, base_seconds, increment_seconds, move_cap_seconds, result, reason, "
    "ply_count, started_at, ended_at, rated, red_account, black_account, red_rating_before, red_rating_after, "
    "black_rating_before, black_rating_after, red_provisional, black_provisional";

StoreResult<Result> result_of(const pg::Result& r, int row, int column, std::string_view id) {
    auto result = detail::parse_result(r.text(row, column));
    if (!result || *result == Result::Ongoing)
        return std::unexpected(StoreError{StoreErrorCode::Corrupt, "game " + std::string(id) + " has result '" +
                                                                       r.text(row, column) + "'"});
    return *result;
}

StoreResult<Reason> reason_of(const pg::Result& r, int row, int column, std::string_view id) {
    auto reason = detail::parse_reason(r.text(row, column));
    if (!reason)
        return std::unexpected(StoreError{StoreErrorCode::Corrupt, "game " + std::string(id) + " has an unknown reason '" +
                                                                       r.text(row, column) + "'"});
    return *reason;
}

StoreResult<ArchiveSummary> summary_row(const pg::Result& r, int i) {
    ArchiveSummary s;
    s.id = r.text(i, 0);
    s.red_name = r.text(i, 1);
    s.black_name = r.text(i, 2);
    s.time_control = {r.int64(i, 3), r.int64(i, 4), r.int64(i, 5)};
    auto result = result_of(r, i, 6, s.id);
    if (!result) return std::unexpected(std::move(result.error()));
    auto reason = reason_of(r, i, 7, s.id);
    if (!reason) return std::unexpected(std::move(reason.error()));
    s.result = *result;
    s.reason = *reason;
    s.ply_count = static_cast<int>(r.int64(i, 8));
    s.started_at_ms = r.int64(i, 9);
    s.ended_at_ms = r.int64(i, 10);
    s.rated = r.boolean(i, 11);
    s.red_account = r.text(i, 12);
    s.black_account = r.text(i, 13);
    const auto rating = [&](int column) {
        return r.is_null(i, column) ? std::nullopt : std::optional<int>(static_cast<int>(r.int64(i, column)));
    };
    s.red_before = rating(14);
    s.red_after = rating(15);
    s.black_before = rating(16);
    s.black_after = rating(17);
    s.red_provisional = !r.is_null(i, 18) && r.boolean(i, 18);
    s.black_provisional = !r.is_null(i, 19) && r.boolean(i, 19);
    return s;
}

pg::Param rating_before(const std::optional<RatingUpdate>& u) {
    return u ? param(static_cast<std::int64_t>(std::lround(u->before.rating))) : pg::Param();
}
pg::Param rating_after(const std::optional<RatingUpdate>& u) {
    return u ? param(static_cast<std::int64_t>(std::lround(u->after.rating))) : pg::Param();
}
pg::Param provisional_after(const std::optional<RatingUpdate>& u) {
    return u ? param(ratings::is_provisional(u->after)) : pg::Param();
}

}  // namespace

PgStore::PgStore(std::string conninfo, PgStoreOptions options)
    : conninfo_(std::move(conninfo)), node_(random_node_id()), owner_(std::move(options.node)) {}

StoreResult<std::unique_ptr<PgStore>> PgStore::open(std::string conninfo, PgStoreOptions options) {
    std::unique_ptr<PgStore> store(new PgStore(std::move(conninfo), std::move(options)));
    auto conn = pg::Connection::open(store->conninfo_, std::chrono::seconds(5));  // at startup, a little patience
    if (!conn) return std::unexpected(std::move(conn.error()));
    store->conn_.emplace(std::move(*conn));
    if (auto migrated = store->migrate(); !migrated) return std::unexpected(in_context(std::move(migrated.error()), "postgres schema"));
    auto epoch = store->run("SELECT nextval('xq_turn_epoch')");
    if (!epoch) return std::unexpected(in_context(std::move(epoch.error()), "postgres turn epoch"));
    store->turn_ = epoch->int64(0, 0) << 32;
    if (auto live = store->load_recoverable_games(); !live) return std::unexpected(std::move(live.error()));
    return store;
}

void PgStore::drop(const std::string& why) {
    if (conn_) log(LogLevel::Warn, "store: postgres connection lost: ", why);
    conn_.reset();
    last_error_ = why;
    backoff_ = std::clamp(backoff_ * 2, std::chrono::milliseconds(100), std::chrono::milliseconds(2000));
    next_attempt_ = std::chrono::steady_clock::now() + backoff_;
}

StoreResult<pg::Connection*> PgStore::connection() {
    if (conn_ && !conn_->broken()) return &*conn_;
    if (conn_) drop("the connection broke");
    if (std::chrono::steady_clock::now() < next_attempt_)
        return std::unexpected(StoreError{StoreErrorCode::Io, "postgres unreachable (" + last_error_ + ")"});
    auto conn = pg::Connection::open(conninfo_, kConnectTimeout);
    if (!conn) {
        drop(conn.error().message);
        return std::unexpected(StoreError{StoreErrorCode::Io, conn.error().message});
    }
    conn_.emplace(std::move(*conn));
    if (auto settled = settle_doubt(); !settled) {
        if (conn_ && !conn_->broken()) conn_.reset();  // try again later, the doubt still open
        drop(settled.error().message);
        return std::unexpected(StoreError{StoreErrorCode::Io, settled.error().message});
    }
    backoff_ = std::chrono::milliseconds(0);
    log(LogLevel::Info, "store: ", "postgres connection restored");
    return &*conn_;
}

StoreResult<pg::Result> PgStore::run(std::string_view sql, const std::vector<pg::Param>& params) {
    auto conn = connection();
    if (!conn) return std::unexpected(std::move(conn.error()));
    auto r = (*conn)->exec(sql, params);
    if (!r && (*conn)->broken()) drop(r.error().message);
    return r;
}

StoreResult<bool> PgStore::maintain() {
    if (conn_ && !conn_->broken() && !doubt_) return false;
    if (!conn_ && std::chrono::steady_clock::now() < next_attempt_) return false;  // not due yet
    auto conn = connection();
    if (!conn) return std::unexpected(std::move(conn.error()));
    return true;
}

StoreResult<void> PgStore::clear() {
    auto done = run("TRUNCATE games, journal, xq_turns, sessions, ratings, rating_history, accounts");
    if (!done) return std::unexpected(in_context(std::move(done.error()), "clear the store"));
    mirror_.reset({});
    fences_.clear();
    return {};
}

StoreResult<void> PgStore::insert_archived(const ArchivedGame& g) {
    const std::string context = "archive game " + g.id;
    for (auto valid : {detail::check_id(g.id), detail::check_time_control(g.time_control), detail::check_finished(g.result)})
        if (!valid) return std::unexpected(in_context(std::move(valid.error()), context));
    auto plies = detail::count_iccs_moves(g.moves);
    if (!plies) return std::unexpected(in_context(std::move(plies.error()), context));
    auto done = run(
        "INSERT INTO games (id, status, red_name, black_name, base_seconds, increment_seconds, "
        "move_cap_seconds, start_fen, created_at, started_at, ended_at, result, reason, explanation, moves, "
        "ply_count, pgn, join_code, red_account, black_account, rated, red_rating_before, red_rating_after, "
        "black_rating_before, black_rating_after, red_provisional, black_provisional) "
        "VALUES ($1, 'archived', $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, "
        "$20, $21, $22, $23, $24, $25)",
        {param(g.id), param(g.red_name), param(g.black_name), param(g.time_control.base_seconds),
         param(g.time_control.increment_seconds), param(g.time_control.move_cap_seconds), param(g.start_fen),
         param(g.started_at_ms), param(g.ended_at_ms), param(to_string(g.result)), param(to_string(g.reason)),
         param(g.explanation), param(g.moves), param(*plies), param(g.pgn), g.is_private ? param("") : pg::Param(),
         pg::null_if_empty(g.red_account), pg::null_if_empty(g.black_account), param(g.rated),
         rating_before(g.red_rating), rating_after(g.red_rating), rating_before(g.black_rating),
         rating_after(g.black_rating), provisional_after(g.red_rating), provisional_after(g.black_rating)});
    if (!done) return std::unexpected(in_context(std::move(done.error()), context));
    return write_ratings(g);
}

StoreResult<void> PgStore::archive_game(const ArchivedGame& g) {
    // Its own transaction: the archive row and the ratings stand or fall together.
    if (auto begun = run("BEGIN"); !begun) return std::unexpected(std::move(begun.error()));
    auto done = insert_archived(g);
    if (done) {
        auto committed = run("COMMIT");
        if (!committed) return std::unexpected(in_context(std::move(committed.error()), "archive game " + g.id));
        return {};
    }
    if (!lost()) (void)run("ROLLBACK");
    return done;
}

std::vector<StoreError> PgStore::archive_games(std::span<const ArchivedGame> games) {
    std::vector<StoreError> errors;
    if (games.empty()) return errors;
    if (auto begun = run("BEGIN"); !begun) {
        errors.push_back(std::move(begun.error()));
        return errors;
    }
    for (const ArchivedGame& g : games) {
        if (auto sp = run("SAVEPOINT archive_one"); !sp) {
            errors.push_back(std::move(sp.error()));
            return errors;
        }
        if (auto done = insert_archived(g); !done) {
            errors.push_back(std::move(done.error()));
            if (lost() || !run("ROLLBACK TO SAVEPOINT archive_one")) return errors;
        }
    }
    if (auto committed = run("COMMIT"); !committed) errors.push_back(std::move(committed.error()));
    return errors;
}

StoreResult<ArchivePage> PgStore::page_of(const std::string& count_sql, const std::vector<pg::Param>& count_params,
                                          const std::string& page_sql, const std::vector<pg::Param>& page_params,
                                          std::int64_t limit) {
    // One snapshot for the count and the page, so they agree.
    if (auto begun = run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"); !begun)
        return std::unexpected(in_context(std::move(begun.error()), "list archive"));
    auto page = [&]() -> StoreResult<ArchivePage> {
        ArchivePage out;
        auto count = run(count_sql, count_params);
        if (!count) return std::unexpected(std::move(count.error()));
        out.total = count->int64(0, 0);
        out.total_capped = out.total > kCountCap;
        out.total = std::min(out.total, kCountCap);
        auto rows = run(page_sql, page_params);
        if (!rows) return std::unexpected(std::move(rows.error()));
        for (int i = 0; i < rows->rows(); ++i) {
            auto summary = summary_row(*rows, i);
            if (!summary) return std::unexpected(std::move(summary.error()));
            out.games.push_back(std::move(*summary));
        }
        out.close(limit);
        return out;
    }();
    if (!lost()) (void)run(page ? "COMMIT" : "ROLLBACK");
    if (!page) return std::unexpected(in_context(std::move(page.error()), "list archive"));
    return page;
}

StoreResult<ArchivePage> PgStore::list_archived(std::int64_t offset, std::int64_t limit,
                                                std::optional<std::string_view> player, std::optional<ArchiveKey> after) {
    if (offset < 0 || limit < 1 || limit > kMaxPage)
        return std::unexpected(
            detail::invalid("list archive: offset must be >= 0 and limit in 1.." + std::to_string(kMaxPage)));
    // As SQLite's: private games (join_code not NULL) never listed; a name matches either side
    // without regard to ASCII case (the "C" collation's lower); the count stops past kCountCap.
    std::vector<pg::Param> count_params{param(kCountCap + 1)}, page_params{param(limit + 1), param(offset)};
    std::string count_who, page_who;
    if (player) {
        count_params.push_back(param(*player));
        page_params.push_back(param(*player));
        count_who = " AND (lower(red_name) = lower($2) OR lower(black_name) = lower($2))";
        page_who = " AND (lower(red_name) = lower($3) OR lower(black_name) = lower($3))";
    }
    if (after) {
        const std::string at = "$" + std::to_string(page_params.size() + 1), id = "$" + std::to_string(page_params.size() + 2);
        page_params.push_back(param(after->ended_at_ms));
        page_params.push_back(param(after->id));
        page_who += " AND (ended_at, id) < (" + at + ", " + id + ")";
    }
    const std::string count = "SELECT count(*) FROM (SELECT 1 FROM games WHERE status = 'archived' AND join_code IS NULL" +
                              count_who + " LIMIT $1) c";
    const std::string page = "SELECT " + std::string(kSummaryColumns) +
                             " FROM games WHERE status = 'archived' AND join_code IS NULL" + page_who +
                             " ORDER BY ended_at DESC, id DESC LIMIT $1 OFFSET $2";
    return page_of(count, count_params, page, page_params, limit);
}

StoreResult<ArchivePage> PgStore::list_archived_of_account(std::int64_t offset, std::int64_t limit,
                                                           std::string_view account, std::optional<ArchiveKey> after) {
    if (offset < 0 || limit < 1 || limit > kMaxPage)
        return std::unexpected(
            detail::invalid("list archive: offset must be >= 0 and limit in 1.." + std::to_string(kMaxPage)));
    const std::string who = " AND (red_account = $2 OR black_account = $2)";
    const std::string count = "SELECT count(*) FROM (SELECT 1 FROM games WHERE status = 'archived' AND join_code IS NULL" +
                              who + " LIMIT $1) c";
    const std::string page = "SELECT " + std::string(kSummaryColumns) +
                             " FROM games WHERE status = 'archived' AND join_code IS NULL" + who +
                             (after ? " AND (ended_at, id) < ($4, $5)" : "") +
                             " ORDER BY ended_at DESC, id DESC LIMIT $1 OFFSET $3";
    std::vector<pg::Param> page_params{param(limit + 1), param(account), param(offset)};
    if (after) {
        page_params.push_back(param(after->ended_at_ms));
        page_params.push_back(param(after->id));
    }
    return page_of(count, {param(kCountCap + 1), param(account)}, page, page_params, limit);
}

StoreResult<ArchivedGame> PgStore::fetch_archived(std::string_view id) {
    auto r = run(
        "SELECT id, red_name, black_name, base_seconds, increment_seconds, move_cap_seconds, start_fen, moves, "
        "result, reason, explanation, pgn, started_at, ended_at, join_code IS NOT NULL, red_account, black_account "
        "FROM games WHERE id = $1 AND status = 'archived'",
        {param(id)});
    if (!r) return std::unexpected(in_context(std::move(r.error()), "fetch game"));
    if (r->rows() == 0) return std::unexpected(StoreError{StoreErrorCode::NotFound, "no archived game " + std::string(id)});
    ArchivedGame g;
    g.id = r->text(0, 0);
    g.red_name = r->text(0, 1);
    g.black_name = r->text(0, 2);
    g.time_control = {r->int64(0, 3), r->int64(0, 4), r->int64(0, 5)};
    g.start_fen = r->text(0, 6);
    g.moves = r->text(0, 7);
    auto result = result_of(*r, 0, 8, g.id);
    if (!result) return std::unexpected(std::move(result.error()));
    auto reason = reason_of(*r, 0, 9, g.id);
    if (!reason) return std::unexpected(std::move(reason.error()));
    g.result = *result;
    g.reason = *reason;
    g.explanation = r->text(0, 10);
    g.pgn = r->text(0, 11);
    g.started_at_ms = r->int64(0, 12);
    g.ended_at_ms = r->int64(0, 13);
    g.is_private = r->boolean(0, 14);
    g.red_account = r->text(0, 15);
    g.black_account = r->text(0, 16);
    return g;
}

}  // namespace xq::server
