// The journal as an append-only log (SQLite, schema version 3; a takeback's refusals on both backends): compaction keeps every live game's moves
// and takebacks while bounding the log, a game's rows replay in order after being copied, damaged
// rows cost only their own game, and a version 2 file (the per-ply `moves` table) migrates.

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "server/accounts/secret.h"
#include "server/store/sqlite/sqlite_store.h"
#include "support/raw_sqlite.h"
#include "support/temp_dir.h"
#include "store_backends.h"

namespace fs = std::filesystem;
using namespace xq::server;
using xq::test::raw_exec;
using xq::test::raw_int;

namespace {

constexpr const char* kStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
// Moves that can be repeated forever: horses out and back.
const std::vector<std::string> kShuffle = {"h0g2", "h9g7", "g2h0", "g7h9"};

LiveGameRecord record(const std::string& id, std::int64_t created) {
    return {id, "ann", "bob", "red-" + id, "black-" + id, {300, 2, 0}, kStart, created};
}

JournalRecord move(const std::string& id, int ply, std::uint64_t version) {
    return JournalAppend{{id, ply, kShuffle[static_cast<std::size_t>(ply - 1) % 4], 500 + ply, 1000 * ply, 2000 * ply, ply},
                         version};
}

JournalRecord finish(const std::string& id, int plies) {
    ArchivedGame g;
    g.id = id;
    g.red_name = "ann";
    g.black_name = "bob";
    g.time_control = {300, 2, 0};
    g.start_fen = kStart;
    for (int p = 1; p <= plies; ++p) g.moves += (p > 1 ? " " : "") + kShuffle[static_cast<std::size_t>(p - 1) % 4];
    g.result = xq::Result::Draw;
    g.reason = xq::Reason::Agreement;
    g.explanation = "Drawn by agreement.";
    g.pgn = "[Result \"1/2-1/2\"]\n";
    g.started_at_ms = 1;
    g.ended_at_ms = 2;
    return JournalFinish{g};
}

class JournalLogTest : public ::testing::Test {
protected:
    fs::path db() const { return tmp_ / "j.db"; }

    xq::test::TempDir tmp_{"xq-journal-log"};
    const fs::path& dir_ = tmp_.path();
};

// What one live game should replay to after `plies` moves with a takeback to `back_to` at
// `back_at` (versions: one per event, starting at 2 after the start's 1).
struct Expected {
    std::vector<std::string> moves;
    std::vector<std::uint64_t> versions;
    std::uint64_t version = 1;
};

TEST_F(JournalLogTest, CompactionBoundsTheLogAndKeepsLiveGamesWhole) {
    auto store = SqliteStore::open(db());
    ASSERT_TRUE(store) << store.error().message;

    // "long" lives through everything: a move every turn and a takeback half-way. Around it, 400
    // short games start, play 20 moves over 20 turns and finish (or are aborted), ten at a time.
    ASSERT_TRUE(store->commit_journal(std::vector<JournalRecord>{JournalStart{record("long", 0), "", 1}}));
    Expected expect;
    int long_ply = 0;
    std::uint64_t long_version = 1;
    int compactions = 0;
    std::int64_t longest = 0;
    std::int64_t written = 0;
    for (int turn = 0; turn < 800; ++turn) {
        std::vector<JournalRecord> records;
        if (turn == 400) {
            long_ply -= 3;  // takes back three plies
            records.push_back(JournalTakeback{"long", long_ply, ++long_version});
            expect.moves.resize(static_cast<std::size_t>(long_ply));
            expect.versions.resize(static_cast<std::size_t>(long_ply));
            expect.version = long_version;
        }
        ++long_ply;
        records.push_back(move("long", long_ply, ++long_version));
        expect.moves.push_back(kShuffle[static_cast<std::size_t>(long_ply - 1) % 4]);
        expect.versions.push_back(long_version);
        if (turn < 780 && turn % 2 == 0) {  // ten short games a start
            for (int k = 0; k < 10; ++k)
                records.push_back(JournalStart{record("s" + std::to_string(turn) + "-" + std::to_string(k), turn + 1), "", 1});
        }
        for (int started = std::max(0, turn - 19); started <= turn; ++started) {
            if (started >= 780 || started % 2 != 0) continue;
            const int ply = turn - started + 1;
            for (int k = 0; k < 10; ++k) {
                const std::string id = "s" + std::to_string(started) + "-" + std::to_string(k);
                records.push_back(move(id, ply, static_cast<std::uint64_t>(ply + 1)));
                if (ply == 20) records.push_back(k == 9 ? JournalRecord{JournalAbort{id}} : finish(id, 20));
            }
        }
        for (const JournalRecord& r : records)
            written += std::holds_alternative<JournalAppend>(r) || std::holds_alternative<JournalTakeback>(r) ? 1 : 0;
        auto done = store->commit_journal(records);
        ASSERT_TRUE(done) << done.error().message;
        ASSERT_TRUE(done->empty()) << (*done)[0].error.message;
        auto step = store->compact_journal();
        ASSERT_TRUE(step) << step.error().message;
        compactions += *step ? 1 : 0;
        longest = std::max(longest, store->journal_rows());
        ASSERT_LE(store->journal_rows(), 2 * store->live_journal_rows() + 2 * SqliteStore::kCompactChunk + 400);
    }
    EXPECT_GT(compactions, 5);
    EXPECT_EQ(raw_int(db(), "SELECT count(*) FROM journal"), store->journal_rows());
    // 78,801 rows were written; the log never held more than the live rows allow.
    EXPECT_EQ(written, 78'801);
    EXPECT_LT(longest, 6000);

    auto check = [&](Store& s) {
        auto games = s.load_recoverable_games();
        ASSERT_TRUE(games) << games.error().message;
        ASSERT_EQ(games->size(), 1u);  // every short game finished or aborted
        const RecoverableGame& g = games->front();
        EXPECT_EQ(g.game.record.id, "long");
        std::vector<std::string> moves;
        for (const JournalMove& m : g.game.moves) moves.push_back(m.iccs);
        EXPECT_EQ(moves, expect.moves);
        EXPECT_EQ(g.move_versions, expect.versions);
        EXPECT_EQ(g.version, expect.version);
        for (std::size_t i = 0; i < g.game.moves.size(); ++i) ASSERT_EQ(g.game.moves[i].ply, static_cast<int>(i) + 1);
    };
    check(*store);
    // The archive kept every finished game whole.
    // (A page's total is counted only up to Store::kCountCap: the pages are walked by key.)
    std::int64_t archived_games = 0;
    std::optional<ArchiveKey> after;
    for (;;) {
        auto page = store->list_archived(0, Store::kMaxPage, std::nullopt, after);
        ASSERT_TRUE(page) << page.error().message;
        archived_games += static_cast<std::int64_t>(page->games.size());
        if (!page->next) break;
        after = page->next;
    }
    EXPECT_EQ(archived_games, 390 * 9);  // 390 turns started 10 games each; one in ten was aborted
    auto archived = store->fetch_archived("s0-0");
    ASSERT_TRUE(archived);
    EXPECT_EQ(archived->moves.size(), 20u * 5 - 1);

    // A new process finds the same, and goes on appending where the log left off.
    store = SqliteStore::open(db());
    ASSERT_TRUE(store) << store.error().message;
    check(*store);
    ++long_ply;
    auto more = store->commit_journal(std::vector<JournalRecord>{move("long", long_ply, ++long_version)});
    ASSERT_TRUE(more);
    EXPECT_TRUE(more->empty());
    auto refused = store->commit_journal(std::vector<JournalRecord>{move("long", long_ply, ++long_version)});
    ASSERT_TRUE(refused);
    ASSERT_EQ(refused->size(), 1u);
    EXPECT_EQ((*refused)[0].error.code, StoreErrorCode::Constraint);
}

class JournalOnBothTest : public xq::test::StoreBackendTest {};

TEST_P(JournalOnBothTest, ATakebackPastTheStartOrOfAFinishedGameIsRefused) {
    auto store = open();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->commit_journal(std::vector<JournalRecord>{JournalStart{record("g", 1), "", 1}, move("g", 1, 2)}));
    auto done = store->commit_journal(std::vector<JournalRecord>{JournalTakeback{"g", 2, 3}, JournalTakeback{"g", -1, 3},
                                                                 JournalTakeback{"nobody", 0, 3}, move("g", 2, 3)});
    ASSERT_TRUE(done) << done.error().message;
    ASSERT_EQ(done->size(), 3u);
    EXPECT_EQ((*done)[0].error.code, StoreErrorCode::Constraint);
    EXPECT_EQ((*done)[1].error.code, StoreErrorCode::Constraint);
    EXPECT_EQ((*done)[2].error.code, StoreErrorCode::NotFound);
    auto games = store->load_recoverable_games();
    ASSERT_TRUE(games);
    ASSERT_EQ(games->size(), 1u);
    EXPECT_EQ(games->front().game.moves.size(), 2u);  // the move after the refusals stood
}

TEST_F(JournalLogTest, DamagedRowsCostOnlyTheirOwnGame) {
    {
        auto store = SqliteStore::open(db());
        ASSERT_TRUE(store);
        ASSERT_TRUE(store->commit_journal(std::vector<JournalRecord>{JournalStart{record("a", 1), "", 1},
                                                                     JournalStart{record("b", 2), "", 1}, move("a", 1, 2),
                                                                     move("b", 1, 2), move("a", 2, 3), move("a", 3, 4)}));
    }
    raw_exec(db(), "DELETE FROM journal WHERE game_id = 'a' AND n = 2");  // a hole in a's journal
    auto store = SqliteStore::open(db());
    ASSERT_TRUE(store) << store.error().message;
    std::vector<StoreError> damaged;
    auto games = store->load_recoverable_games(&damaged);
    ASSERT_TRUE(games) << games.error().message;
    ASSERT_EQ(games->size(), 1u);
    EXPECT_EQ(games->front().game.record.id, "b");
    ASSERT_EQ(damaged.size(), 1u);
    EXPECT_EQ(damaged[0].code, StoreErrorCode::Corrupt);
    EXPECT_NE(damaged[0].message.find("game a"), std::string::npos) << damaged[0].message;
    // The damaged game takes no more moves; the other goes on; the damaged rows stay for a person to look at.
    auto done = store->commit_journal(std::vector<JournalRecord>{move("a", 4, 5), move("b", 2, 3)});
    ASSERT_TRUE(done);
    ASSERT_EQ(done->size(), 1u);
    EXPECT_EQ((*done)[0].index, 0u);
    EXPECT_EQ(raw_int(db(), "SELECT count(*) FROM journal WHERE game_id = 'a'"), 2);
}

TEST_F(JournalLogTest, AVersion2FileMigratesWithItsLiveGames) {
    // The version 2 layout as released: games plus a per-ply moves table with its trigger.
    raw_exec(db(), R"sql(
CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL, status TEXT NOT NULL CHECK (status IN ('live', 'archived')),
    red_name TEXT NOT NULL, black_name TEXT NOT NULL, red_token TEXT, black_token TEXT,
    base_seconds INTEGER NOT NULL, increment_seconds INTEGER NOT NULL, move_cap_seconds INTEGER NOT NULL,
    start_fen TEXT NOT NULL, created_at INTEGER NOT NULL, started_at INTEGER, ended_at INTEGER,
    result TEXT, reason TEXT, explanation TEXT, moves TEXT, ply_count INTEGER, pgn TEXT,
    version INTEGER NOT NULL DEFAULT 0, join_code TEXT) STRICT;
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE, ply INTEGER NOT NULL CHECK (ply >= 1),
    iccs TEXT NOT NULL, move_id INTEGER NOT NULL, red_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL,
    at INTEGER NOT NULL, version INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game_id, ply)) STRICT, WITHOUT ROWID;
CREATE TRIGGER moves_append_only BEFORE INSERT ON moves BEGIN SELECT 1; END;
INSERT INTO games (id, status, red_name, black_name, red_token, black_token, base_seconds, increment_seconds,
    move_cap_seconds, start_fen, created_at, version, join_code)
    VALUES ('live1', 'live', 'ann', 'bob', 'rt', 'bt', 300, 2, 0, ')sql" + std::string(kStart) + R"sql(', 7, 9, 'CODE');
INSERT INTO games (id, status, red_name, black_name, base_seconds, increment_seconds, move_cap_seconds, start_fen,
    created_at, started_at, ended_at, result, reason, explanation, moves, ply_count, pgn)
    VALUES ('old', 'archived', 'ann', 'bob', 300, 2, 0, 'x', 1, 1, 2, 'draw', 'agreement', 'Drawn.', 'h0g2', 1, 'pgn');
INSERT INTO moves VALUES ('live1', 2, 'h9g7', 12, 100, 200, 5, 3), ('live1', 1, 'h0g2', 11, 100, 200, 4, 2),
                         ('old', 1, 'h0g2', 1, 1, 1, 1, 2);
PRAGMA user_version = 2;
)sql");
    auto store = SqliteStore::open(db());
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_EQ(store->schema_version(), SqliteStore::kSchemaVersion);
    EXPECT_EQ(raw_int(db(), "SELECT count(*) FROM sqlite_schema WHERE name = 'moves'"), 0);
    auto games = store->load_recoverable_games();
    ASSERT_TRUE(games) << games.error().message;
    ASSERT_EQ(games->size(), 1u);
    const RecoverableGame& g = games->front();
    // Version 5 keeps secrets hashed: the clear join code and seat tokens were hashed in place.
    EXPECT_EQ(g.join_code, secret_hash("CODE"));
    EXPECT_EQ(g.game.record.red_token, secret_hash("rt"));
    EXPECT_EQ(g.game.record.black_token, secret_hash("bt"));
    EXPECT_EQ(g.version, 9u);
    ASSERT_EQ(g.game.moves.size(), 2u);
    EXPECT_EQ(g.game.moves[0].iccs, "h0g2");
    EXPECT_EQ(g.game.moves[1].move_id, 12);
    EXPECT_EQ(g.move_versions, (std::vector<std::uint64_t>{2, 3}));
    EXPECT_EQ(store->journal_rows(), 2);  // the finished game's moves stayed behind in its archive row
    auto next = store->commit_journal(std::vector<JournalRecord>{move("live1", 3, 10)});
    ASSERT_TRUE(next);
    EXPECT_TRUE(next->empty());
    auto old = store->fetch_archived("old");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->moves, "h0g2");
}

}  // namespace

XQ_INSTANTIATE_ON_BOTH_BACKENDS(JournalOnBothTest);
