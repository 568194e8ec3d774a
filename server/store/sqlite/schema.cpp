// The store's schema and its migrations. PRAGMA user_version holds the schema version: 0 is a
// new (empty) file, created at the newest version in one step (kSchemaCurrent), and
// kMigrations[v - 1] takes an older file from version v to v + 1. Either runs inside one write
// transaction, so a file is always at a whole version.

#include <array>
#include <string_view>
#include <vector>

#include "server/accounts/secret.h"
#include "server/store/sqlite/sqlite_store.h"

namespace xq::server {


namespace {

// Version 5 as a new file gets it (with kAccountTables and kSchemaV6 below). `games` holds live and archived games, told apart by status;
// `journal` is the move journal of live games, an append-only log (see version 3 below). STRICT
// makes SQLite check column types; the CHECKs keep an archived row complete. One step, not the
// migrations from version 1: their ALTERs, copy and drops each make SQLite reparse the whole
// schema: 3.5 times the time (most of a fuzz_dispatch input's). The columns keep the migrated
// order (version and join_code last); server_store_tests checks that this schema and a file
// migrated from version 1 agree.
constexpr std::string_view kSchemaCurrent = R"sql(
CREATE TABLE games (
    id                TEXT PRIMARY KEY NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('live', 'archived')),
    red_name          TEXT NOT NULL,
    black_name        TEXT NOT NULL,
    red_token         TEXT,
    black_token       TEXT,
    base_seconds      INTEGER NOT NULL CHECK (base_seconds >= 0),
    increment_seconds INTEGER NOT NULL CHECK (increment_seconds >= 0),
    move_cap_seconds  INTEGER NOT NULL CHECK (move_cap_seconds >= 0),
    start_fen         TEXT NOT NULL,
    created_at        INTEGER NOT NULL,
    started_at        INTEGER,
    ended_at          INTEGER,
    result            TEXT CHECK (result IN ('red_wins', 'black_wins', 'draw')),
    reason            TEXT,
    explanation       TEXT,
    moves             TEXT,
    ply_count         INTEGER,
    pgn               TEXT,
    version           INTEGER NOT NULL DEFAULT 0,
    join_code         TEXT,
    red_account       TEXT,
    black_account     TEXT,
    CHECK ((status = 'live') = (result IS NULL)),
    CHECK (status = 'live' OR (started_at IS NOT NULL AND ended_at IS NOT NULL AND reason IS NOT NULL
                               AND explanation IS NOT NULL AND moves IS NOT NULL
                               AND ply_count IS NOT NULL AND pgn IS NOT NULL))
) STRICT;

CREATE INDEX games_archive_order ON games (status, ended_at DESC, id DESC);
CREATE INDEX games_by_red ON games (red_name COLLATE NOCASE, status, ended_at DESC, id DESC);
CREATE INDEX games_by_black ON games (black_name COLLATE NOCASE, status, ended_at DESC, id DESC);

CREATE TABLE journal (
    seq      INTEGER PRIMARY KEY,
    game_id  TEXT NOT NULL,
    n        INTEGER NOT NULL CHECK (n >= 1),
    ply      INTEGER NOT NULL CHECK (ply >= 0),
    iccs     TEXT,
    move_id  INTEGER NOT NULL,
    red_ms   INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    at       INTEGER NOT NULL,
    version  INTEGER NOT NULL
) STRICT;

)sql";

// The migrations of files made by earlier releases. Version 1 was `games` without its last two
// columns, and the per-ply move journal `moves` (game_id, ply, iccs, move_id, red_ms, black_ms,
// at; keyed by game and ply) with a trigger refusing any row but the next ply of a live game
// (its text as released is in tests/server/store/schema_test.cpp).

// Version 2: what crash recovery needs beyond the moves: the version of each journaled event
// (the room's numbering continues after a restart) and a private game's join code.
constexpr std::string_view kSchemaV2 = R"sql(
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN join_code TEXT;
ALTER TABLE moves ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 3: the move journal becomes an append-only log. `moves` was keyed by (game, ply), so the
// moves of one loop turn landed on as many B-tree pages as games and every commit wrote dozens of
// WAL pages; `journal` is keyed by arrival order, so a turn fills one or two pages. A row is a move
// or a takeback (iccs NULL, ply = the plies left); `n` orders a game's rows, since compaction
// (SqliteStore::compact_journal) copies the rows of live games to the end. The store checks in memory
// what the old trigger checked (appends only to live games, plies without gaps). Only live games
// keep their rows: the archive has each finished game's moves in `games`.
constexpr std::string_view kSchemaV3 = R"sql(
CREATE TABLE journal (
    seq      INTEGER PRIMARY KEY,
    game_id  TEXT NOT NULL,
    n        INTEGER NOT NULL CHECK (n >= 1),
    ply      INTEGER NOT NULL CHECK (ply >= 0),
    iccs     TEXT,
    move_id  INTEGER NOT NULL,
    red_ms   INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    at       INTEGER NOT NULL,
    version  INTEGER NOT NULL
) STRICT;

INSERT INTO journal (game_id, n, ply, iccs, move_id, red_ms, black_ms, at, version)
    SELECT m.game_id, m.ply, m.ply, m.iccs, m.move_id, m.red_ms, m.black_ms, m.at, m.version
    FROM moves m JOIN games g ON g.id = m.game_id WHERE g.status = 'live' ORDER BY m.game_id, m.ply;

DROP TRIGGER moves_append_only;
DROP TABLE moves;
)sql";

// Version 4: the archive's player filter ignores case (ASCII letters, SQLite's NOCASE), so the
// name indexes fold case too; a query with `= ?1 COLLATE NOCASE` is served by them.
constexpr std::string_view kSchemaV4 = R"sql(
DROP INDEX IF EXISTS games_by_red;
DROP INDEX IF EXISTS games_by_black;
CREATE INDEX games_by_red ON games (red_name COLLATE NOCASE, status, ended_at DESC, id DESC);
CREATE INDEX games_by_black ON games (black_name COLLATE NOCASE, status, ended_at DESC, id DESC);
)sql";

// Version 5: accounts. `accounts` is keyed by the canonical name (server/accounts/names.h) and
// keeps the name as registered and its Argon2id hash; `sessions` holds each login's token only as
// its BLAKE2b hash, with an expiry; each game records the account of each side (NULL: a guest).
// Seat tokens and join codes of live games are kept hashed from now on: the clear values of
// older files are hashed in place by hash_live_secrets() right after this step.
constexpr std::string_view kSchemaV5 = R"sql(
ALTER TABLE games ADD COLUMN red_account TEXT;
ALTER TABLE games ADD COLUMN black_account TEXT;
)sql";

// The accounts' tables, as version 5 added them: in a new file and in a migrated one alike.
constexpr std::string_view kAccountTables = R"sql(
CREATE TABLE accounts (
    key           TEXT PRIMARY KEY NOT NULL,
    name          TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at    INTEGER NOT NULL
) STRICT;

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    account    TEXT NOT NULL REFERENCES accounts (key),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX sessions_by_account ON sessions (account);
)sql";

// Version 6: ratings (issue 19). `ratings` holds each account's Glicko-2 rating per speed
// (server/ratings/glicko2.h; REAL, unrounded), `rating_history` a point per rated game for the
// profile's plot; a game records whether it was rated and, when it changed ratings, each side's
// rating before and after (rounded, as shown) and whether the new one is provisional. Accounts
// may be the server's computer opponents (no password, never logged in). A live game keeps its
// spectator delay, so spectators stay behind after a restart too. The account indexes
// serve ListArchive by account and a profile's results. New files get this step too (after
// kSchemaCurrent), so a new file and a migrated one are the same.
constexpr std::string_view kSchemaV6 = R"sql(
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN red_rating_before INTEGER;
ALTER TABLE games ADD COLUMN red_rating_after INTEGER;
ALTER TABLE games ADD COLUMN black_rating_before INTEGER;
ALTER TABLE games ADD COLUMN black_rating_after INTEGER;
ALTER TABLE games ADD COLUMN red_provisional INTEGER;
ALTER TABLE games ADD COLUMN black_provisional INTEGER;
ALTER TABLE accounts ADD COLUMN computer INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN spectator_delay INTEGER NOT NULL DEFAULT 0 CHECK (spectator_delay BETWEEN 0 AND 20);

CREATE INDEX games_by_red_account ON games (red_account, status, ended_at DESC, id DESC);
CREATE INDEX games_by_black_account ON games (black_account, status, ended_at DESC, id DESC);

CREATE TABLE ratings (
    account    TEXT NOT NULL REFERENCES accounts (key),
    speed      TEXT NOT NULL CHECK (speed IN ('bullet', 'blitz', 'rapid', 'classical')),
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL CHECK (deviation > 0),
    volatility REAL NOT NULL CHECK (volatility > 0),
    games      INTEGER NOT NULL CHECK (games >= 0),
    PRIMARY KEY (account, speed)
) STRICT;
CREATE INDEX ratings_by_speed ON ratings (speed, rating DESC);

CREATE TABLE rating_history (
    account   TEXT NOT NULL,
    speed     TEXT NOT NULL,
    at        INTEGER NOT NULL,
    rating    REAL NOT NULL,
    deviation REAL NOT NULL,
    game_id   TEXT NOT NULL,
    PRIMARY KEY (account, speed, at, game_id)
) STRICT;
)sql";

constexpr std::array<std::string_view, SqliteStore::kSchemaVersion - 1> kMigrations = {kSchemaV2, kSchemaV3, kSchemaV4,
                                                                                kSchemaV5, kSchemaV6};

// The version 5 step's second half: the clear seat tokens and join codes of live games, hashed.
StoreResult<void> hash_live_secrets(sql::Database& db) {
    struct Row {
        std::string id, red, black, code;
    };
    std::vector<Row> rows;
    {
        auto q = db.query("SELECT id, red_token, black_token, join_code FROM games WHERE status = 'live'");
        if (!q) return std::unexpected(std::move(q.error()));
        for (;;) {
            auto row = q->next();
            if (!row) return std::unexpected(std::move(row.error()));
            if (!*row) break;
            rows.push_back({q->text(0), q->text(1), q->text(2), q->text(3)});
        }
    }
    for (const Row& r : rows) {
        const std::string red = secret_hash(r.red), black = secret_hash(r.black), code = secret_hash(r.code);
        // sql::Value views its text: the hashes above outlive the statement.
        const auto value = [](const std::string& clear, const std::string& hash) {
            return clear.empty() ? sql::Value(nullptr) : sql::Value(std::string_view(hash));
        };
        auto done = db.run("UPDATE games SET red_token = ?, black_token = ?, join_code = ? WHERE id = ?",
                           {value(r.red, red), value(r.black, black), value(r.code, code), r.id});
        if (!done) return done;
    }
    return {};
}

StoreResult<int> read_user_version(sql::Database& db) {
    auto q = db.query("PRAGMA user_version");
    if (!q) return std::unexpected(std::move(q.error()));
    auto row = q->next();
    if (!row) return std::unexpected(std::move(row.error()));
    return *row ? static_cast<int>(q->int64(0)) : 0;
}

StoreResult<std::int64_t> count_schema_objects(sql::Database& db) {
    auto q = db.query("SELECT count(*) FROM sqlite_schema");
    if (!q) return std::unexpected(std::move(q.error()));
    auto row = q->next();
    if (!row) return std::unexpected(std::move(row.error()));
    return *row ? q->int64(0) : 0;
}

}  // namespace

StoreResult<void> SqliteStore::migrate() {
    auto version = read_user_version(db_);
    if (!version) return std::unexpected(in_context(std::move(version.error()), "read schema version"));
    if (*version > kSchemaVersion) {
        return std::unexpected(StoreError{StoreErrorCode::VersionMismatch,
                                          "schema version " + std::to_string(*version) +
                                              " is newer than this program's " + std::to_string(kSchemaVersion)});
    }
    // Reading the schema also catches a damaged schema page that the header check let through.
    auto objects = count_schema_objects(db_);
    if (!objects) return std::unexpected(in_context(std::move(objects.error()), "read schema"));
    if (*version == kSchemaVersion) {
        schema_version_ = *version;
        return {};
    }

    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Write);
    if (!tx) return std::unexpected(std::move(tx.error()));
    // Read again under the write lock: another process may have migrated meanwhile.
    version = read_user_version(db_);
    if (!version) return std::unexpected(in_context(std::move(version.error()), "read schema version"));
    objects = count_schema_objects(db_);
    if (!objects) return std::unexpected(in_context(std::move(objects.error()), "read schema"));
    if (*version == 0 && *objects != 0) {
        return std::unexpected(StoreError{StoreErrorCode::OpenFailed,
                                          "a SQLite database with tables but no schema version: not a xiangqi store"});
    }
    if (*version == 0) {
        auto created = db_.exec(std::string(kSchemaCurrent) + std::string(kAccountTables) + std::string(kSchemaV6));
        if (!created) return std::unexpected(in_context(std::move(created.error()), "create schema"));
    }
    for (int v = *version; v != 0 && v < kSchemaVersion; ++v) {
        auto step = db_.exec(std::string(kMigrations[static_cast<std::size_t>(v - 1)]));
        if (!step) {
            return std::unexpected(in_context(std::move(step.error()), "migrate schema to version " + std::to_string(v + 1)));
        }
        if (v + 1 == 5) {
            if (auto added = db_.exec(std::string(kAccountTables)); !added)
                return std::unexpected(in_context(std::move(added.error()), "migrate schema to version 5"));
            if (auto hashed = hash_live_secrets(db_); !hashed)
                return std::unexpected(in_context(std::move(hashed.error()), "hash the secrets of live games"));
        }
    }
    // PRAGMA takes no bound parameters; the value is our own constant.
    auto stamped = db_.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
    if (!stamped) return std::unexpected(in_context(std::move(stamped.error()), "set schema version"));
    auto committed = tx->commit();
    if (!committed) return std::unexpected(std::move(committed.error()));
    schema_version_ = kSchemaVersion;
    return {};
}

}  // namespace xq::server
