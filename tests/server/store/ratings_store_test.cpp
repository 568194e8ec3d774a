// Ratings in the store (schema version 6): a version 5 file (as released) migrated with its games
// and accounts intact; a rated game's ratings and history written with its archive row, once;
// profiles' reads (ratings, history, results), the leaderboard, and the archive by account.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

#include "server/store/sqlite/sqlite_store.h"
#include "support/raw_sqlite.h"
#include "support/temp_dir.h"
#include "store_backends.h"

using namespace xq::server;
using xq::test::raw_int;

namespace {

// Version 5 as a new file got it (server/store/schema.cpp at the release of accounts).
constexpr const char* kReleasedV5 = R"sql(
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

INSERT INTO accounts VALUES ('ann', 'Ann', 'hash', 1000);
INSERT INTO games (id, status, red_name, black_name, base_seconds, increment_seconds, move_cap_seconds, start_fen,
                   created_at, started_at, ended_at, result, reason, explanation, moves, ply_count, pgn, red_account)
    VALUES ('00000000000a', 'archived', 'Ann', 'bob (guest)', 300, 3, 0, 'startpos', 1, 1, 2, 'red_wins',
            'resignation', 'Black resigned.', 'h2e2 h9g7', 2, '[Game "Chinese Chess"]', 'ann');
INSERT INTO games (id, status, red_name, black_name, red_token, black_token, base_seconds, increment_seconds,
                   move_cap_seconds, start_fen, created_at, red_account)
    VALUES ('00000000000b', 'live', 'Ann', 'bob (guest)', 'r', 'b', 300, 3, 0,
            'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1', 5, 'ann');
PRAGMA user_version = 5;
)sql";

constexpr const char* kStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

ArchivedGame rated_game(std::string id, std::int64_t ended, std::optional<RatingUpdate> red,
                        std::optional<RatingUpdate> black) {
    ArchivedGame g;
    g.id = std::move(id);
    g.red_name = "Ann";
    g.black_name = "Cy";
    g.red_account = "ann";
    g.black_account = "cy";
    g.time_control = {300, 3, 0};
    g.start_fen = kStart;
    g.moves = "h2e2 h9g7 h0g2 i9h9";
    g.result = xq::Result::RedWins;
    g.reason = xq::Reason::Resignation;
    g.explanation = "Black resigned.";
    g.pgn = "[Game \"Chinese Chess\"]\n";
    g.started_at_ms = ended - 10;
    g.ended_at_ms = ended;
    g.rated = true;
    g.red_rating = std::move(red);
    g.black_rating = std::move(black);
    return g;
}

TEST(StoreRatings, AVersion5FileIsMigratedWithItsGamesAndAccounts) {
    xq::test::TempDir dir("xq-ratings-store");
    const auto path = dir / "v5.db";
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        char* error = nullptr;
        const int rc = sqlite3_exec(db, kReleasedV5, nullptr, nullptr, &error);
        EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "");
        sqlite3_free(error);
        sqlite3_close(db);
    }
    auto store = SqliteStore::open(path);
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_EQ(store->schema_version(), 6);
    EXPECT_EQ(raw_int(path, "PRAGMA user_version"), 6);
    const auto ann = store->find_account("ann");
    ASSERT_TRUE(ann && *ann);
    EXPECT_FALSE((*ann)->computer);
    const auto page = store->list_archived_of_account(0, 10, "ann");
    ASSERT_TRUE(page) << page.error().message;
    ASSERT_EQ(page->games.size(), 1u);
    EXPECT_FALSE(page->games[0].rated);
    EXPECT_FALSE(page->games[0].red_before);
    const auto live = store->load_recoverable_games();
    ASSERT_TRUE(live);
    ASSERT_EQ(live->size(), 1u);
    EXPECT_FALSE((*live)[0].game.record.rated);
    EXPECT_EQ((*live)[0].game.record.spectator_delay, 0);  // v5 games had no delay
    EXPECT_EQ(store->ratings_of("ann")->size(), 0u);
    const auto results = store->results_of("ann");
    EXPECT_EQ(results->wins, 1);
    EXPECT_EQ(results->losses, 0);
}

class StoreRatingsTest : public xq::test::StoreBackendTest {};

TEST_P(StoreRatingsTest, ARatedGameWritesRatingsAndHistoryWithItsArchiveRowOnce) {
    auto store = open();
    ASSERT_TRUE(store);
    for (const char* key : {"ann", "cy"}) ASSERT_TRUE(store->create_account({key, key, "h", 1}));
    const RatingUpdate ann1{"blitz", {1500, 350, 0.06}, {1662.31, 290.32, 0.06}};
    const RatingUpdate cy1{"blitz", {1500, 350, 0.06}, {1337.69, 290.32, 0.06}};
    // As the server does it: started live, then finished through the journal.
    LiveGameRecord live{"00000000000c", "Ann", "Cy", "t1", "t2", {300, 3, 0}, kStart, 1, "ann", "cy", true};
    ASSERT_TRUE(store->commit_journal(std::vector<JournalRecord>{JournalStart{live, "", 1}}));
    const auto done = store->commit_journal(std::vector<JournalRecord>{JournalFinish{rated_game("00000000000c", 100, ann1, cy1)}});
    ASSERT_TRUE(done && done->empty());
    // The same finish again (a replayed turn) is refused, and changes no rating.
    const auto again = store->commit_journal(std::vector<JournalRecord>{JournalFinish{rated_game("00000000000c", 100, ann1, cy1)}});
    ASSERT_TRUE(again);
    EXPECT_EQ(again->size(), 1u);
    const auto rating = store->find_rating("ann", "blitz");
    ASSERT_TRUE(rating && *rating);
    EXPECT_DOUBLE_EQ((*rating)->glicko.rating, 1662.31);
    EXPECT_EQ((*rating)->games, 1);
    EXPECT_EQ(store->rating_history("ann", "blitz", 500)->size(), 1u);
    EXPECT_FALSE(*store->find_rating("ann", "rapid"));

    // A second game: history oldest first, counts, and the list by account with the changes.
    const RatingUpdate ann2{"blitz", ann1.after, {1576.69, 260.49, 0.06}};
    ASSERT_TRUE(store->archive_game(rated_game("00000000000d", 200, ann2, std::nullopt)));
    const auto history = store->rating_history("ann", "blitz", 500);
    ASSERT_EQ(history->size(), 2u);
    EXPECT_EQ((*history)[0].game_id, "00000000000c");
    EXPECT_EQ((*history)[1].game_id, "00000000000d");
    EXPECT_EQ(store->find_rating("ann", "blitz")->value().games, 2);
    const auto page = store->list_archived_of_account(0, 10, "ann");
    ASSERT_TRUE(page);
    ASSERT_EQ(page->games.size(), 2u);
    EXPECT_EQ(page->games[0].id, "00000000000d");
    EXPECT_EQ(page->games[1].red_before, 1500);
    EXPECT_EQ(page->games[1].red_after, 1662);
    EXPECT_EQ(page->games[1].black_after, 1338);
    EXPECT_TRUE(page->games[1].red_provisional);
    EXPECT_EQ(store->results_of("cy")->losses, 2);

    // The leaderboard: enough games and not provisional.
    ASSERT_TRUE(store->create_account({"dan", "Dan", "h", 1}));
    ArchivedGame dan = rated_game("00000000000e", 300, RatingUpdate{"blitz", {1500, 350, 0.06}, {1800, 60, 0.06}}, std::nullopt);
    dan.red_account = "dan";
    ASSERT_TRUE(store->archive_game(dan));
    const auto board = store->leaderboard("blitz", 1, 110, 100);
    ASSERT_TRUE(board);
    ASSERT_EQ(board->size(), 1u);
    EXPECT_EQ((*board)[0].name, "Dan");
    EXPECT_EQ(store->leaderboard("blitz", 2, 110, 100)->size(), 0u);
}

}  // namespace

XQ_INSTANTIATE_ON_BOTH_BACKENDS(StoreRatingsTest);
