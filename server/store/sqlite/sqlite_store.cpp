// Opening the store, the default path, and the archive of finished games.

#include "server/store/sqlite/sqlite_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "common/iccs.h"
#include "server/store/sqlite/store_detail.h"

namespace xq::server {


namespace {

// SQLite reports the errno of its last attempt, often ENOENT after a refused create, so we say
// what is wrong with the directory ourselves. "" when nothing is.
std::string directory_problem(const std::filesystem::path& path) {
    const std::filesystem::path parent = path.has_parent_path() ? path.parent_path() : ".";
    std::error_code ec;
    const auto status = std::filesystem::status(parent, ec);
    if (!std::filesystem::exists(status)) return "directory " + parent.string() + " does not exist";
    if (!std::filesystem::is_directory(status)) return parent.string() + " is not a directory";
    if (access(parent.c_str(), W_OK) != 0) return "directory " + parent.string() + " is not writable";
    return "";
}

}  // namespace

namespace {

// The file holds password hashes and session-token hashes: only its owner may read it. SQLite
// gives its -wal and -shm files the database file's mode, so creating that one 0600 (and
// tightening a file an older version left readable) covers all three. Failures are left to
// SQLite's own open to report.
void make_private(const std::filesystem::path& path) {
    const std::string p = path.string();
    if (p.empty() || p == ":memory:" || p.starts_with("file:")) return;
    const int fd = ::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return;
    ::fchmod(fd, 0600);
    ::close(fd);
    for (const char* suffix : {"-wal", "-shm"}) ::chmod((p + suffix).c_str(), 0600);
}

}  // namespace

StoreResult<SqliteStore> SqliteStore::open(const std::filesystem::path& path, StoreOptions options) {
    make_private(path);
    auto db = sql::Database::open(path.string());
    if (!db) {
        StoreError error = std::move(db.error());
        if (const std::string problem = directory_problem(path); !problem.empty()) error.message += "; " + problem;
        return std::unexpected(std::move(error));
    }
    SqliteStore store(std::move(*db), path);
    auto ready = store.configure(options);
    if (ready) ready = store.migrate();
    if (ready) ready = store.forget_finished_join_codes();
    if (ready) ready = store.reload_live();
    if (!ready) return std::unexpected(in_context(std::move(ready.error()), path.string()));
    return store;
}

StoreResult<void> SqliteStore::configure(const StoreOptions& options) {
    db_.set_busy_timeout(options.busy_timeout_ms);
    // The first statement reads the file header: this is where a file that is not a database shows.
    auto mode = db_.query("PRAGMA journal_mode = WAL");
    if (!mode) return std::unexpected(std::move(mode.error()));
    if (auto row = mode->next(); !row) return std::unexpected(in_context(std::move(row.error()), "set WAL mode"));
    // In WAL mode NORMAL syncs only at checkpoints: a commit survives a process crash, not a power cut.
    auto sync = db_.exec(options.sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
    if (!sync) return std::unexpected(std::move(sync.error()));
    // Debian builds SQLite with secure_delete on: every freed page (each journal compaction frees
    // a chunk) would be zeroed and written through the WAL. FAST still clears the freed cells of
    // pages written anyway.
    if (auto secure = db_.exec("PRAGMA secure_delete = FAST"); !secure) return secure;
    return db_.exec("PRAGMA foreign_keys = ON");
}

// Files written before the join code was cleared at a game's end keep the codes of finished
// private games: cleared here, at every open (a no-op once done), keeping the private mark ('').
StoreResult<void> SqliteStore::forget_finished_join_codes() {
    auto done = db_.run("UPDATE games SET join_code = '' WHERE status = 'archived' AND join_code <> ''");
    if (!done) return std::unexpected(in_context(std::move(done.error()), "clear finished games' join codes"));
    return {};
}

StoreResult<void> SqliteStore::clear() {
    std::vector<std::string> tables;  // every table, sqlite_sequence included once there is one
    {
        auto q = db_.query("SELECT name FROM sqlite_schema WHERE type = 'table'");
        if (!q) return std::unexpected(in_context(std::move(q.error()), "clear the store"));
        while (true) {
            auto row = q->next();
            if (!row) return std::unexpected(in_context(std::move(row.error()), "clear the store"));
            if (!*row) break;
            tables.push_back(q->text(0));
        }
    }
    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Write);
    if (!tx) return std::unexpected(in_context(std::move(tx.error()), "clear the store"));
    // Newest first: a table that refers to an older one (sessions to accounts) empties before it.
    for (auto table = tables.rbegin(); table != tables.rend(); ++table)
        if (auto done = db_.run("DELETE FROM \"" + *table + "\""); !done)
            return std::unexpected(in_context(std::move(done.error()), "clear the store"));
    if (auto committed = tx->commit(); !committed)
        return std::unexpected(in_context(std::move(committed.error()), "clear the store"));
    return reload_live();
}

namespace {

StoreResult<Result> result_column(const sql::Query& q, int column, std::string_view id) {
    auto r = detail::parse_result(q.text(column));
    if (!r || *r == Result::Ongoing)
        return std::unexpected(StoreError{StoreErrorCode::Corrupt, "game " + std::string(id) + " has result '" +
                                                                       q.text(column) + "'"});
    return *r;
}

StoreResult<Reason> reason_column(const sql::Query& q, int column, std::string_view id) {
    auto r = detail::parse_reason(q.text(column));
    if (!r)
        return std::unexpected(StoreError{StoreErrorCode::Corrupt, "game " + std::string(id) +
                                                                       " has an unknown reason '" + q.text(column) + "'"});
    return *r;
}

}  // namespace

const std::string_view detail::kSummaryColumns =
    "id, red_name, black_name, base_seconds, increment_seconds, move_cap_seconds, result, reason, "
    "ply_count, started_at, ended_at, rated, red_account, black_account, red_rating_before, red_rating_after, "
    "black_rating_before, black_rating_after, red_provisional, black_provisional";

// Reads a row laid out as kSummaryColumns.
StoreResult<ArchiveSummary> detail::summary_row(const sql::Query& q) {
    ArchiveSummary s;
    s.id = q.text(0);
    s.red_name = q.text(1);
    s.black_name = q.text(2);
    s.time_control = {q.int64(3), q.int64(4), q.int64(5)};
    auto result = result_column(q, 6, s.id);
    if (!result) return std::unexpected(std::move(result.error()));
    auto reason = reason_column(q, 7, s.id);
    if (!reason) return std::unexpected(std::move(reason.error()));
    s.result = *result;
    s.reason = *reason;
    s.ply_count = static_cast<int>(q.int64(8));
    s.started_at_ms = q.int64(9);
    s.ended_at_ms = q.int64(10);
    s.rated = q.int64(11) != 0;
    s.red_account = q.text(12);
    s.black_account = q.text(13);
    const auto rating = [&](int column) {
        return q.is_null(column) ? std::nullopt : std::optional<int>(static_cast<int>(q.int64(column)));
    };
    s.red_before = rating(14);
    s.red_after = rating(15);
    s.black_before = rating(16);
    s.black_after = rating(17);
    s.red_provisional = q.int64(18) != 0;
    s.black_provisional = q.int64(19) != 0;
    return s;
}

StoreResult<void> SqliteStore::archive_game(const ArchivedGame& g) {
    const std::string context = "archive game " + g.id;
    for (auto valid : {detail::check_id(g.id), detail::check_time_control(g.time_control),
                       detail::check_finished(g.result)})
        if (!valid) return std::unexpected(in_context(std::move(valid.error()), context));
    auto plies = detail::count_iccs_moves(g.moves);
    if (!plies) return std::unexpected(in_context(std::move(plies.error()), context));
    auto done = db_.run(
        "INSERT INTO games (id, status, red_name, black_name, base_seconds, increment_seconds, "
        "move_cap_seconds, start_fen, created_at, started_at, ended_at, result, reason, explanation, moves, "
        "ply_count, pgn, join_code, red_account, black_account, rated, red_rating_before, red_rating_after, "
        "black_rating_before, black_rating_after, red_provisional, black_provisional) "
        "VALUES (?, 'archived', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        {g.id, g.red_name, g.black_name, g.time_control.base_seconds, g.time_control.increment_seconds,
         g.time_control.move_cap_seconds, g.start_fen, g.started_at_ms, g.started_at_ms, g.ended_at_ms,
         to_string(g.result), to_string(g.reason), g.explanation, g.moves, std::int64_t{*plies}, g.pgn,
         g.is_private ? sql::Value(std::string_view("")) : sql::Value(nullptr), detail::null_if_empty(g.red_account),
         detail::null_if_empty(g.black_account), std::int64_t{g.rated}, detail::rating_before(g.red_rating),
         detail::rating_after(g.red_rating), detail::rating_before(g.black_rating), detail::rating_after(g.black_rating),
         detail::provisional_after(g.red_rating), detail::provisional_after(g.black_rating)});
    if (!done) return std::unexpected(in_context(std::move(done.error()), context));
    return write_ratings(g);
}

std::vector<StoreError> SqliteStore::archive_games(std::span<const ArchivedGame> games) {
    std::vector<StoreError> errors;
    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Write);
    for (const ArchivedGame& g : games)
        if (auto done = archive_game(g); !done) errors.push_back(std::move(done.error()));
    // Without a transaction each insert above committed on its own: nothing is lost either way.
    if (tx)
        if (auto committed = tx->commit(); !committed) errors.push_back(std::move(committed.error()));
    return errors;
}

StoreResult<ArchivePage> SqliteStore::list_archived(std::int64_t offset, std::int64_t limit,
                                              std::optional<std::string_view> player,
                                              std::optional<ArchiveKey> after) {
    if (offset < 0 || limit < 1 || limit > kMaxPage) {
        return std::unexpected(detail::invalid("list archive: offset must be >= 0 and limit in 1.." +
                                               std::to_string(kMaxPage)));
    }
    // One snapshot for the count and the page, so they agree.
    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Read);
    if (!tx) return std::unexpected(std::move(tx.error()));

    // Private games (join_code not NULL: '' once finished) are never listed. join_code is in no
    // index, so telling them apart reads each row (~15 us): the count stops at kCountCap + 1 rows
    // rather than read the whole archive on the game loop.
    using detail::kSummaryColumns;
    static const std::string kCountAll =
        "SELECT count(*) FROM (SELECT 1 FROM games WHERE status = 'archived' AND join_code IS NULL LIMIT ?1)";
    // A player's games come from the two name indexes, each already in list order, so neither the
    // count nor the page scans the whole archive (an OR would, until ANALYZE has run). Names match
    // without regard to ASCII case, as the indexes are built (NOCASE). A game someone played against
    // themself is counted once, on the red side.
    static const std::string kCountPlayer =
        "SELECT (SELECT count(*) FROM (SELECT 1 FROM games WHERE red_name = ?2 COLLATE NOCASE AND status = "
        "'archived' AND join_code IS NULL LIMIT ?1)) + "
        "(SELECT count(*) FROM (SELECT 1 FROM games WHERE black_name = ?2 COLLATE NOCASE AND status = 'archived' "
        "AND red_name <> ?2 COLLATE NOCASE AND join_code IS NULL LIMIT ?1))";
    // A page starts after a key (ended_at, id) that the index finds, not after rows skipped one
    // by one (an offset, which the dispatcher caps).
    const auto page_all = [](std::string_view key) {
        return "SELECT " + std::string(kSummaryColumns) + " FROM games WHERE status = 'archived' AND join_code IS NULL" +
               std::string(key) + " ORDER BY ended_at DESC, id DESC LIMIT ?1 OFFSET ?2";
    };
    const auto page_player = [](std::string_view key) {
        return "SELECT " + std::string(kSummaryColumns) +
               " FROM games WHERE red_name = ?3 COLLATE NOCASE AND status = 'archived' AND join_code IS NULL" +
               std::string(key) + " UNION ALL SELECT " + std::string(kSummaryColumns) +
               " FROM games WHERE black_name = ?3 COLLATE NOCASE AND status = 'archived' AND red_name <> ?3 "
               "COLLATE NOCASE AND join_code IS NULL" +
               std::string(key) + " ORDER BY ended_at DESC, id DESC LIMIT ?1 OFFSET ?2";
    };
    static const std::string kAfter = " AND (ended_at, id) < (?4, ?5)";
    static const std::string kPageAll = page_all(""), kPageAllAfter = page_all(kAfter);
    static const std::string kPagePlayer = page_player(""), kPagePlayerAfter = page_player(kAfter);

    ArchivePage page;
    const std::int64_t cap = kCountCap + 1;
    auto count = player ? db_.query(kCountPlayer, {cap, *player}) : db_.query(kCountAll, {cap});
    if (!count) return std::unexpected(in_context(std::move(count.error()), "list archive"));
    auto counted = count->next();
    if (!counted) return std::unexpected(in_context(std::move(counted.error()), "list archive"));
    page.total = *counted ? count->int64(0) : 0;
    page.total_capped = page.total > kCountCap;
    page.total = std::min(page.total, kCountCap);

    // One row more than the page: whether there is a next page.
    const std::string& sql = player ? (after ? kPagePlayerAfter : kPagePlayer) : (after ? kPageAllAfter : kPageAll);
    const std::int64_t key_time = after ? after->ended_at_ms : 0;
    const std::string_view key_id = after ? std::string_view(after->id) : std::string_view();
    auto rows = after ? db_.query(sql, {limit + 1, offset, player.value_or(""), key_time, key_id})
                : player ? db_.query(sql, {limit + 1, offset, *player})
                         : db_.query(sql, {limit + 1, offset});
    if (!rows) return std::unexpected(in_context(std::move(rows.error()), "list archive"));
    while (true) {
        auto row = rows->next();
        if (!row) return std::unexpected(in_context(std::move(row.error()), "list archive"));
        if (!*row) break;
        auto summary = detail::summary_row(*rows);
        if (!summary) return std::unexpected(std::move(summary.error()));
        page.games.push_back(std::move(*summary));
    }
    page.close(limit);
    return page;
}

StoreResult<ArchivedGame> SqliteStore::fetch_archived(std::string_view id) {
    auto q = db_.query(
        "SELECT id, red_name, black_name, base_seconds, increment_seconds, move_cap_seconds, start_fen, moves, "
        "result, reason, explanation, pgn, started_at, ended_at, join_code IS NOT NULL, red_account, black_account "
        "FROM games "
        "WHERE id = ? AND status = 'archived'",
        {id});
    if (!q) return std::unexpected(in_context(std::move(q.error()), "fetch game"));
    auto row = q->next();
    if (!row) return std::unexpected(in_context(std::move(row.error()), "fetch game " + std::string(id)));
    if (!*row) return std::unexpected(StoreError{StoreErrorCode::NotFound, "no archived game " + std::string(id)});

    ArchivedGame g;
    g.id = q->text(0);
    g.red_name = q->text(1);
    g.black_name = q->text(2);
    g.time_control = {q->int64(3), q->int64(4), q->int64(5)};
    g.start_fen = q->text(6);
    g.moves = q->text(7);
    auto result = result_column(*q, 8, g.id);
    if (!result) return std::unexpected(std::move(result.error()));
    auto reason = reason_column(*q, 9, g.id);
    if (!reason) return std::unexpected(std::move(reason.error()));
    g.result = *result;
    g.reason = *reason;
    g.explanation = q->text(10);
    g.pgn = q->text(11);
    g.started_at_ms = q->int64(12);
    g.ended_at_ms = q->int64(13);
    g.is_private = q->int64(14) != 0;
    g.red_account = q->text(15);
    g.black_account = q->text(16);
    return g;
}

}  // namespace xq::server
