// The PostgreSQL schema, versioned in xq_meta like SQLite's user_version (sqlite/schema.cpp): the
// same tables and checks, in PostgreSQL's types. Text that sorts or matches (ids, names) uses the
// "C" collation, so the archive's order is SQLite's byte order whatever the database's locale.

#include "server/store/postgres/pg_store.h"

namespace xq::server {
namespace {

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE games (
    id                text COLLATE "C" PRIMARY KEY CHECK (id <> ''),
    status            text NOT NULL CHECK (status IN ('live', 'archived')),
    red_name          text COLLATE "C" NOT NULL,
    black_name        text COLLATE "C" NOT NULL,
    red_token         text,
    black_token       text,
    base_seconds      bigint NOT NULL CHECK (base_seconds >= 0),
    increment_seconds bigint NOT NULL CHECK (increment_seconds >= 0),
    move_cap_seconds  bigint NOT NULL CHECK (move_cap_seconds >= 0),
    start_fen         text NOT NULL,
    created_at        bigint NOT NULL,
    started_at        bigint,
    ended_at          bigint,
    result            text CHECK (result IN ('red_wins', 'black_wins', 'draw')),
    reason            text,
    explanation       text,
    moves             text,
    ply_count         integer,
    pgn               text,
    join_code         text,
    version           bigint NOT NULL DEFAULT 0,
    red_account       text COLLATE "C",
    black_account     text COLLATE "C",
    rated             boolean NOT NULL DEFAULT false,
    red_rating_before integer, red_rating_after integer, black_rating_before integer, black_rating_after integer,
    red_provisional   boolean, black_provisional boolean,
    spectator_delay   integer NOT NULL DEFAULT 0 CHECK (spectator_delay BETWEEN 0 AND 20),
    -- A live game's journal so far: its ply and its rows (the next row is journal_rows + 1).
    plies             integer NOT NULL DEFAULT 0,
    journal_rows      integer NOT NULL DEFAULT 0,
    -- The turn (xq_turns) that started the game: what undoing a turn in doubt deletes.
    turn              bigint,
    -- Fencing token for the cluster (toolchain-cluster.md 1.10): the node that takes a game over
    -- raises it, and every journal write of a game will be conditional on the writer's fence, so a
    -- paused node that comes back cannot write over its successor. A single node leaves it 0.
    fence             bigint NOT NULL DEFAULT 0,
    CHECK ((status = 'live') = (result IS NULL)),
    CHECK (status = 'live' OR (started_at IS NOT NULL AND ended_at IS NOT NULL AND reason IS NOT NULL
                               AND moves IS NOT NULL AND ply_count IS NOT NULL AND pgn IS NOT NULL))
);
CREATE INDEX games_archive_order ON games (status, ended_at DESC, id DESC);
CREATE INDEX games_by_red ON games (lower(red_name), status, ended_at DESC, id DESC);
CREATE INDEX games_by_black ON games (lower(black_name), status, ended_at DESC, id DESC);
CREATE INDEX games_by_red_account ON games (red_account, status, ended_at DESC, id DESC);
CREATE INDEX games_by_black_account ON games (black_account, status, ended_at DESC, id DESC);

CREATE TABLE journal (
    game_id  text COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n        integer NOT NULL CHECK (n >= 1),
    ply      integer NOT NULL CHECK (ply >= 0),
    iccs     text,  -- NULL: a takeback to `ply`
    move_id  bigint NOT NULL,
    red_ms   bigint NOT NULL,
    black_ms bigint NOT NULL,
    at       bigint NOT NULL,
    version  bigint NOT NULL,
    turn     bigint NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE INDEX journal_by_turn ON journal (turn);

-- The last turn each store committed: how a COMMIT that got no answer is settled.
CREATE TABLE xq_turns (
    node text PRIMARY KEY,
    turn bigint NOT NULL
);

CREATE TABLE accounts (
    key           text COLLATE "C" PRIMARY KEY,
    name          text NOT NULL,
    password_hash text NOT NULL,
    created_at    bigint NOT NULL,
    computer      boolean NOT NULL DEFAULT false
);
CREATE TABLE sessions (
    token_hash text PRIMARY KEY,
    account    text COLLATE "C" NOT NULL REFERENCES accounts (key),
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account);
CREATE TABLE ratings (
    account    text COLLATE "C" NOT NULL REFERENCES accounts (key),
    speed      text NOT NULL CHECK (speed IN ('bullet', 'blitz', 'rapid', 'classical')),
    rating     double precision NOT NULL,
    deviation  double precision NOT NULL CHECK (deviation > 0),
    volatility double precision NOT NULL CHECK (volatility > 0),
    games      bigint NOT NULL CHECK (games >= 0),
    PRIMARY KEY (account, speed)
);
CREATE INDEX ratings_by_speed ON ratings (speed, rating DESC);
CREATE TABLE rating_history (
    account   text COLLATE "C" NOT NULL REFERENCES accounts (key),
    speed     text NOT NULL,
    at        bigint NOT NULL,
    rating    double precision NOT NULL,
    deviation double precision NOT NULL,
    game_id   text COLLATE "C" NOT NULL,
    PRIMARY KEY (account, speed, at, game_id)
);
)sql";

// Version 2: game ownership (game_ownership.h). A live game's owner node, the sequence its fences
// come from, and the one turns' numbers start from: each store opened takes a new epoch, so two
// stores' turns never share a number (undoing one's turn in doubt touches only its own rows).
constexpr const char* kSchemaV2 = R"sql(
ALTER TABLE games ADD COLUMN owner text COLLATE "C";
CREATE INDEX games_live_by_owner ON games (owner) WHERE status = 'live';
CREATE SEQUENCE xq_fence;
CREATE SEQUENCE xq_turn_epoch;
)sql";

}  // namespace

StoreResult<void> PgStore::migrate() {
    // Two nodes starting at once: the advisory lock makes the second wait for the first's tables.
    if (auto locked = run("SELECT pg_advisory_lock(7377)"); !locked) return std::unexpected(std::move(locked.error()));
    auto migrated = [&]() -> StoreResult<void> {
        if (auto meta = run("CREATE TABLE IF NOT EXISTS xq_meta (key text PRIMARY KEY, value bigint NOT NULL)"); !meta)
            return std::unexpected(std::move(meta.error()));
        auto version = run("SELECT value FROM xq_meta WHERE key = 'schema_version'");
        if (!version) return std::unexpected(std::move(version.error()));
        const std::int64_t found = version->rows() ? version->int64(0, 0) : 0;
        if (found > kSchemaVersion)
            return std::unexpected(StoreError{StoreErrorCode::VersionMismatch,
                                              "postgres: schema version " + std::to_string(found) + " is newer than " +
                                                  std::to_string(kSchemaVersion)});
        if (found == kSchemaVersion) return {};
        // Every step from `found` in one transaction: a failure leaves no half schema.
        StoreResult<pg::Result> created = run("BEGIN");
        if (created && found < 1) created = run(kSchemaV1);
        if (created && found < 2) created = run(kSchemaV2);
        if (created)
            created = run("INSERT INTO xq_meta VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = $1",
                          {pg::param(kSchemaVersion)});
        if (created) created = run("COMMIT");
        if (!created) {
            (void)run("ROLLBACK");
            return std::unexpected(std::move(created.error()));
        }
        return {};
    }();
    (void)run("SELECT pg_advisory_unlock(7377)");
    return migrated;
}

}  // namespace xq::server
