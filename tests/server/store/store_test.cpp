// The store on both backends (TEST_P, StoreBackendTest) and SQLite's own cases (files, directories,
// WAL): archive, listing and paging, reopening, bad files and directories, and the
// live-game journal as the server writes it (commit_journal) with group append, ply checks and
// finishing into the archive. Every test works in a fresh temporary directory.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "server/store/sqlite/sqlite_store.h"
#include "server/store/store_location.h"
#include "support/raw_sqlite.h"
#include "support/temp_dir.h"
#include "store_backends.h"

namespace fs = std::filesystem;
using namespace xq::server;
using xq::test::raw_int;
using xq::test::StoreBackendTest;

namespace {

constexpr std::array<const char*, 4> kMoves = {"h2e2", "h9g7", "e2h2", "g7h9"};

ArchivedGame sample_game(std::string id, std::string red, std::string black, std::int64_t ended_at) {
    ArchivedGame g;
    g.id = std::move(id);
    g.red_name = std::move(red);
    g.black_name = std::move(black);
    g.time_control = {300, 5, 30};
    g.start_fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    g.moves = "h2e2 h9g7 h0g2";
    g.result = xq::Result::RedWins;
    g.reason = xq::Reason::Resignation;
    g.explanation = "Black resigned.";
    g.pgn = "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马8进7 2. 马二进三 1-0\n";
    g.started_at_ms = ended_at - 60'000;
    g.ended_at_ms = ended_at;
    return g;
}

// Spectators kept 3 plies behind: the delay is journaled with the game, so a restart keeps it.
LiveGameRecord sample_live(std::string id, std::int64_t created_at) {
    LiveGameRecord g{std::move(id), "alice", "bob", "tok-red-" + std::to_string(created_at), "tok-black", {600, 10, 0},
                     "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", created_at};
    g.spectator_delay = 3;
    return g;
}

JournalMove move_of(const std::string& game, int ply) {
    return {game, ply, kMoves[static_cast<std::size_t>(ply) % kMoves.size()], 1000 + ply, 600'000 - ply,
            599'000 - ply, 1'700'000'000'000 + ply};
}

JournalRecord start_record(LiveGameRecord game) { return JournalStart{std::move(game), "", 1}; }

JournalRecord move_record(const std::string& game, int ply) {
    return JournalAppend{move_of(game, ply), static_cast<std::uint64_t>(ply) + 1};
}

// Commits `records` as one turn; the codes of the records refused (the commit itself must succeed).
std::vector<StoreErrorCode> refused(Store& store, const std::vector<JournalRecord>& records) {
    auto done = store.commit_journal(records);
    EXPECT_TRUE(done) << done.error().message;
    std::vector<StoreErrorCode> codes;
    if (done)
        for (const JournalFailure& f : *done) codes.push_back(f.error.code);
    return codes;
}

// The unfinished games, oldest first, with their moves.
StoreResult<std::vector<LiveGame>> live_games(Store& store) {
    auto recoverable = store.load_recoverable_games();
    if (!recoverable) return std::unexpected(std::move(recoverable.error()));
    std::vector<LiveGame> games;
    for (RecoverableGame& g : *recoverable) games.push_back(std::move(g.game));
    return games;
}

const std::vector<StoreErrorCode> kNone;

class StoreTest : public ::testing::Test {
protected:
    fs::path db_path() const { return tmp_ / "xiangqi.db"; }

    xq::test::TempDir tmp_{"xq-store-test"};
    const fs::path& dir_ = tmp_.path();
};

TEST_P(StoreBackendTest, ArchiveAndFetchRoundTrip) {
    auto store = open();
    ASSERT_TRUE(store);
    EXPECT_EQ(store->schema_version(), schema_version());
    const ArchivedGame g = sample_game("g1", "alice", "bob", 1'700'000'000'000);
    ASSERT_TRUE(store->archive_game(g));
    auto fetched = store->fetch_archived("g1");
    ASSERT_TRUE(fetched) << fetched.error().message;
    EXPECT_EQ(*fetched, g);

    auto missing = store->fetch_archived("nope");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, StoreErrorCode::NotFound);
}

TEST_P(StoreBackendTest, ArchiveSeveralInOneTransactionKeepsTheGoodOnes) {
    auto store = open();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->archive_game(sample_game("g0", "alice", "bob", 1'700'000'000'000)));
    const std::vector<ArchivedGame> games{sample_game("g1", "alice", "bob", 1'700'000'001'000),
                                          sample_game("g0", "carol", "dave", 1'700'000'002'000),  // taken
                                          sample_game("g2", "bob", "alice", 1'700'000'003'000)};
    const auto errors = store->archive_games(games);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].code, StoreErrorCode::Constraint);
    for (const char* id : {"g0", "g1", "g2"}) EXPECT_TRUE(store->fetch_archived(id)) << id;
    EXPECT_EQ(store->fetch_archived("g0")->red_name, "alice");
    EXPECT_TRUE(store->archive_games({}).empty());
}

TEST_P(StoreBackendTest, ListIsNewestFirstAndPages) {
    auto store = open();
    ASSERT_TRUE(store);
    // Seven games; g5 and g6 end at the same moment, so the id breaks the tie (descending).
    const std::vector<std::pair<std::string, std::int64_t>> ends = {
        {"g0", 1000}, {"g1", 7000}, {"g2", 3000}, {"g3", 5000}, {"g4", 2000}, {"g5", 6000}, {"g6", 6000}};
    for (const auto& [id, end] : ends) ASSERT_TRUE(store->archive_game(sample_game(id, "alice", "bob", end)));

    std::vector<std::string> seen;
    for (std::int64_t offset = 0; offset < 9; offset += 3) {
        auto page = store->list_archived(offset, 3);
        ASSERT_TRUE(page) << page.error().message;
        EXPECT_EQ(page->total, 7);
        for (const auto& s : page->games) seen.push_back(s.id);
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"g1", "g6", "g5", "g3", "g2", "g4", "g0"}));

    auto past_end = store->list_archived(20, 3);
    ASSERT_TRUE(past_end);
    EXPECT_TRUE(past_end->games.empty());
    EXPECT_EQ(past_end->total, 7);

    for (auto [offset, limit] : {std::pair{-1, 3}, {0, 0}, {0, Store::kMaxPage + 1}}) {
        auto bad = store->list_archived(offset, limit);
        ASSERT_FALSE(bad);
        EXPECT_EQ(bad.error().code, StoreErrorCode::InvalidArgument);
    }
}

// Pages follow each other by key: the same games in the same order as by offset, each once; a
// key is found through the archive index (no scan, no sort).
TEST_P(StoreBackendTest, ListPagesByKey) {
    auto store = open();
    ASSERT_TRUE(store);
    const std::vector<std::pair<std::string, std::int64_t>> ends = {
        {"g0", 1000}, {"g1", 7000}, {"g2", 3000}, {"g3", 5000}, {"g4", 2000}, {"g5", 6000}, {"g6", 6000}};
    for (const auto& [id, end] : ends) ASSERT_TRUE(store->archive_game(sample_game(id, "alice", "bob", end)));
    for (const std::optional<std::string_view> player : {std::optional<std::string_view>(), std::optional<std::string_view>("BOB")}) {
        std::vector<std::string> seen;
        std::optional<ArchiveKey> after;
        int pages = 0;
        do {
            auto page = store->list_archived(0, 3, player, after);
            ASSERT_TRUE(page) << page.error().message;
            EXPECT_EQ(page->total, 7);
            for (const auto& s : page->games) seen.push_back(s.id);
            after = page->next;
            ++pages;
        } while (after && pages < 5);
        EXPECT_EQ(pages, 3);
        EXPECT_EQ(seen, (std::vector<std::string>{"g1", "g6", "g5", "g3", "g2", "g4", "g0"}));
    }
    if (!sqlite()) return;  // the plan below is SQLite's
    const std::string plan = xq::test::raw_lines(
        db_path(),
        "EXPLAIN QUERY PLAN SELECT id FROM games WHERE status = 'archived' AND join_code IS NULL AND "
        "(ended_at, id) < (6000, 'g6') ORDER BY ended_at DESC, id DESC LIMIT 3",
        3);
    EXPECT_NE(plan.find("INDEX games_archive_order"), std::string::npos) << plan;
    EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos) << plan;
}

// A private game is never listed; a file from before keeps a finished private game's join code,
// which the next open clears (keeping the mark that it was private), and opening again changes
// nothing.
TEST_F(StoreTest, PrivateGamesAreNotListedAndTheirCodesAreCleared) {
    {
        auto store = SqliteStore::open(db_path());
        ASSERT_TRUE(store);
        ArchivedGame secret = sample_game("secret", "alice", "bob", 2000);
        secret.is_private = true;
        ASSERT_TRUE(store->archive_game(secret));
        ASSERT_TRUE(store->archive_game(sample_game("open", "alice", "bob", 1000)));
        auto page = store->list_archived(0, 10);
        ASSERT_TRUE(page);
        EXPECT_EQ(page->total, 1);
        ASSERT_EQ(page->games.size(), 1u);
        EXPECT_EQ(page->games[0].id, "open");
        EXPECT_EQ(store->list_archived(0, 10, "alice")->total, 1);
        EXPECT_TRUE(store->fetch_archived("secret")->is_private);
        EXPECT_FALSE(store->fetch_archived("open")->is_private);
    }
    EXPECT_EQ(raw_int(db_path(), "UPDATE games SET join_code = 'K3Y9AB' WHERE id = 'secret'"), -1);
    for (int open = 0; open < 2; ++open) {
        ASSERT_TRUE(SqliteStore::open(db_path()));
        EXPECT_EQ(raw_int(db_path(), "SELECT count(*) FROM games WHERE join_code = 'K3Y9AB'"), 0);
        EXPECT_EQ(raw_int(db_path(), "SELECT count(*) FROM games WHERE id = 'secret' AND join_code = ''"), 1);
        EXPECT_EQ(raw_int(db_path(), "SELECT count(*) FROM games WHERE id = 'open' AND join_code IS NULL"), 1);
    }
}

TEST_P(StoreBackendTest, ListFiltersByEitherSide) {
    auto store = open();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->archive_game(sample_game("a", "alice", "bob", 100)));
    ASSERT_TRUE(store->archive_game(sample_game("b", "carol", "alice", 200)));
    ASSERT_TRUE(store->archive_game(sample_game("c", "bob", "dave", 300)));
    ASSERT_TRUE(store->archive_game(sample_game("d", "alice", "alice", 50)));  // counted once

    auto alice = store->list_archived(0, 10, "alice");
    ASSERT_TRUE(alice) << alice.error().message;
    EXPECT_EQ(alice->total, 3);
    ASSERT_EQ(alice->games.size(), 3u);
    EXPECT_EQ(alice->games[0].id, "b");
    EXPECT_EQ(alice->games[1].id, "a");
    EXPECT_EQ(alice->games[2].id, "d");

    auto bob_page = store->list_archived(1, 1, "bob");
    ASSERT_TRUE(bob_page);
    EXPECT_EQ(bob_page->total, 2);
    ASSERT_EQ(bob_page->games.size(), 1u);
    const ArchiveSummary& s = bob_page->games[0];
    EXPECT_EQ(s.id, "a");
    EXPECT_EQ(s.red_name, "alice");
    EXPECT_EQ(s.black_name, "bob");
    EXPECT_EQ(s.time_control, (TimeControlRecord{300, 5, 30}));
    EXPECT_EQ(s.result, xq::Result::RedWins);
    EXPECT_EQ(s.reason, xq::Reason::Resignation);
    EXPECT_EQ(s.ply_count, 3);
    EXPECT_EQ(s.ended_at_ms, 100);

    auto nobody = store->list_archived(0, 10, "ali");  // whole names only
    ASSERT_TRUE(nobody);
    EXPECT_EQ(nobody->total, 0);
}

// A player's name in any case of its ASCII letters finds the games; CJK names match as they are.
TEST_P(StoreBackendTest, PlayerFilterIgnoresCase) {
    auto store = open();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->archive_game(sample_game("a", "Alice", "bob", 100)));
    ASSERT_TRUE(store->archive_game(sample_game("b", "BOB", "alice", 200)));
    ASSERT_TRUE(store->archive_game(sample_game("c", "aLiCe", "ALICE", 300)));  // counted once
    ASSERT_TRUE(store->archive_game(sample_game("d", "王天一", "Bob", 400)));
    for (const char* name : {"alice", "ALICE", "Alice"}) {
        auto page = store->list_archived(0, 10, name);
        ASSERT_TRUE(page) << page.error().message;
        EXPECT_EQ(page->total, 3) << name;
        ASSERT_EQ(page->games.size(), 3u) << name;
        EXPECT_EQ(page->games[0].id, "c");
        EXPECT_EQ(page->games[1].id, "b");
        EXPECT_EQ(page->games[2].id, "a");
    }
    EXPECT_EQ(store->list_archived(0, 10, "bob")->total, 3);
    EXPECT_EQ(store->list_archived(0, 10, "王天一")->total, 1);
}

// The filter is served by the name indexes, which fold case as the query does: no scan of the
// archive, no sort.
TEST_F(StoreTest, PlayerFilterUsesTheNameIndexes) {
    ASSERT_TRUE(SqliteStore::open(db_path()));
    for (const char* side : {"red", "black"}) {
        const std::string plan = xq::test::raw_lines(
            db_path(),
            std::string("EXPLAIN QUERY PLAN SELECT id FROM games WHERE ") + side +
                "_name = 'ALICE' COLLATE NOCASE AND status = 'archived' ORDER BY ended_at DESC, id DESC",
            3);
        EXPECT_NE(plan.find(std::string("INDEX games_by_") + side), std::string::npos) << plan;
        EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos) << plan;
    }
}

TEST_P(StoreBackendTest, ReopenFindsEverything) {
    {
        auto store = open();
        ASSERT_TRUE(store);
        ASSERT_TRUE(store->archive_game(sample_game("old", "alice", "bob", 500)));
        ASSERT_EQ(refused(*store, {start_record(sample_live("live", 1)), move_record("live", 1),
                                   move_record("live", 2)}),
                  kNone);
    }
    if (sqlite()) {
        EXPECT_EQ(raw_int(db_path(), "PRAGMA user_version"), schema_version());
    }
    auto store = open();
    ASSERT_TRUE(store);
    auto fetched = store->fetch_archived("old");
    ASSERT_TRUE(fetched);
    EXPECT_EQ(*fetched, sample_game("old", "alice", "bob", 500));
    auto page = store->list_archived(0, 10);
    ASSERT_TRUE(page);
    EXPECT_EQ(page->total, 1);
    auto live = live_games(*store);
    ASSERT_TRUE(live);
    ASSERT_EQ(live->size(), 1u);
    EXPECT_EQ((*live)[0].record, sample_live("live", 1));
    EXPECT_EQ((*live)[0].moves, (std::vector<JournalMove>{move_of("live", 1), move_of("live", 2)}));
}

TEST_P(StoreBackendTest, DuplicateIdIsAConstraintError) {
    auto store = open();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->archive_game(sample_game("g1", "alice", "bob", 100)));
    auto again = store->archive_game(sample_game("g1", "carol", "dave", 200));
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code, StoreErrorCode::Constraint) << again.error().message;
    // Ids are shared by live and archived games.
    EXPECT_EQ(refused(*store, {start_record(sample_live("g1", 5))}),
              (std::vector{StoreErrorCode::Constraint}));

    auto page = store->list_archived(0, 10);
    ASSERT_TRUE(page);
    EXPECT_EQ(page->total, 1);
    EXPECT_EQ(store->fetch_archived("g1")->red_name, "alice");
}

TEST_P(StoreBackendTest, RefusesMalformedRecords) {
    auto store = open();
    ASSERT_TRUE(store);
    ArchivedGame ongoing = sample_game("x", "a", "b", 1);
    ongoing.result = xq::Result::Ongoing;
    ArchivedGame bad_moves = sample_game("y", "a", "b", 1);
    bad_moves.moves = "h2e2  h9g7";
    ArchivedGame no_id = sample_game("", "a", "b", 1);
    ArchivedGame negative = sample_game("z", "a", "b", 1);
    negative.time_control.increment_seconds = -1;
    for (const ArchivedGame& g : {ongoing, bad_moves, no_id, negative}) {
        auto r = store->archive_game(g);
        ASSERT_FALSE(r) << g.id;
        EXPECT_EQ(r.error().code, StoreErrorCode::InvalidArgument);
    }
    ArchivedGame no_moves = sample_game("empty", "a", "b", 1);
    no_moves.moves = "";
    EXPECT_TRUE(store->archive_game(no_moves));
    EXPECT_EQ(store->list_archived(0, 10)->total, 1);
}

TEST_F(StoreTest, GarbageFileIsReportedAsCorrupt) {
    {
        std::ofstream out(db_path(), std::ios::binary);
        for (int i = 0; i < 512; ++i) out << "this is not a database ";
    }
    const auto size = fs::file_size(db_path());
    auto store = SqliteStore::open(db_path());
    ASSERT_FALSE(store);
    EXPECT_EQ(store.error().code, StoreErrorCode::Corrupt);
    EXPECT_NE(store.error().message.find("not a database"), std::string::npos) << store.error().message;
    EXPECT_NE(store.error().message.find(db_path().string()), std::string::npos) << store.error().message;
    EXPECT_EQ(fs::file_size(db_path()), size);
}

TEST_F(StoreTest, DamagedPagesGiveCorruptNotACrash) {
    {
        auto store = SqliteStore::open(db_path());
        ASSERT_TRUE(store);
        for (int i = 0; i < 200; ++i) {
            ArchivedGame g = sample_game("g" + std::to_string(i), "alice", "bob", i);
            g.pgn = std::string(500, 'x');
            ASSERT_TRUE(store->archive_game(g));
        }
    }  // closing the last connection checkpoints the WAL into the file
    {
        // Page 1 (header and schema) stays; every later page becomes noise.
        std::fstream f(db_path(), std::ios::in | std::ios::out | std::ios::binary);
        std::string noise(fs::file_size(db_path()) - 4096, '\0');
        for (std::size_t i = 0; i < noise.size(); ++i) noise[i] = static_cast<char>(i * 7919 % 251);
        f.seekp(4096);
        f.write(noise.data(), static_cast<std::streamsize>(noise.size()));
    }
    auto store = SqliteStore::open(db_path());
    if (!store) {
        EXPECT_EQ(store.error().code, StoreErrorCode::Corrupt) << store.error().message;
        return;
    }
    auto page = store->list_archived(0, 10);
    auto fetched = store->fetch_archived("g7");
    ASSERT_FALSE(page && fetched) << "damage went unnoticed";
    if (!page) {
        EXPECT_EQ(page.error().code, StoreErrorCode::Corrupt) << page.error().message;
    }
    if (!fetched) {
        EXPECT_EQ(fetched.error().code, StoreErrorCode::Corrupt) << fetched.error().message;
    }
}

TEST_F(StoreTest, ForeignOrNewerDatabaseIsRefused) {
    const fs::path foreign = dir_ / "foreign.db";
    const fs::path newer = dir_ / "newer.db";
    EXPECT_EQ(raw_int(foreign, "CREATE TABLE t (x)"), -1);  // runs; no row comes back
    EXPECT_EQ(raw_int(newer, "PRAGMA user_version = 99"), -1);

    auto f = SqliteStore::open(foreign);
    ASSERT_FALSE(f);
    EXPECT_EQ(f.error().code, StoreErrorCode::OpenFailed) << f.error().message;
    auto n = SqliteStore::open(newer);
    ASSERT_FALSE(n);
    EXPECT_EQ(n.error().code, StoreErrorCode::VersionMismatch) << n.error().message;
}

TEST_F(StoreTest, UnusableDirectoryIsOpenFailed) {
    auto missing = SqliteStore::open(dir_ / "no" / "such" / "dir" / "x.db");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, StoreErrorCode::OpenFailed) << missing.error().message;
    EXPECT_NE(missing.error().message.find("no/such/dir"), std::string::npos);

    std::ofstream(dir_ / "plain-file") << "x";
    auto under_file = SqliteStore::open(dir_ / "plain-file" / "x.db");
    ASSERT_FALSE(under_file);
    EXPECT_EQ(under_file.error().code, StoreErrorCode::OpenFailed);
}

TEST_F(StoreTest, ReadOnlyDirectoryIsOpenFailed) {
    const fs::path ro = dir_ / "ro";
    fs::create_directory(ro);
    const auto read_only = fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                           fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec;
    fs::permissions(ro, read_only);
    // Root ignores directory permissions, so as root the check runs in a child that becomes nobody.
    if (geteuid() == 0) {
        fs::permissions(dir_, read_only | fs::perms::owner_write);
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0) _exit(3);
            auto store = SqliteStore::open(ro / "x.db");
            _exit(!store && store.error().code == StoreErrorCode::OpenFailed ? 0 : 1);
        }
        int status = 0;
        waitpid(child, &status, 0);
        ASSERT_TRUE(WIFEXITED(status));
        EXPECT_EQ(WEXITSTATUS(status), 0) << "as nobody, opening in a read-only directory did not fail cleanly";
        return;
    }
    auto store = SqliteStore::open(ro / "x.db");
    ASSERT_FALSE(store);
    EXPECT_EQ(store.error().code, StoreErrorCode::OpenFailed) << store.error().message;
}

TEST(StorePath, FollowsXdgThenHome) {
    EXPECT_EQ(*db_path_from("/data", "/home/u"), fs::path("/data/xiangqi/xiangqi.db"));
    EXPECT_EQ(*db_path_from(std::nullopt, "/home/u"), fs::path("/home/u/.local/share/xiangqi/xiangqi.db"));
    EXPECT_EQ(*db_path_from("", "/home/u"), fs::path("/home/u/.local/share/xiangqi/xiangqi.db"));
    EXPECT_EQ(*db_path_from("relative", "/home/u"), fs::path("/home/u/.local/share/xiangqi/xiangqi.db"));
    auto none = db_path_from(std::nullopt, std::nullopt);
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, StoreErrorCode::NotFound);
}

TEST_P(StoreBackendTest, ClearLeavesTheStoreAsANewFileGivesIt) {
    auto store = open();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->archive_game(sample_game("g1", "alice", "bob", 1'700'000'000'000)));
    ASSERT_EQ(refused(*store, {start_record(sample_live("a", 10)), move_record("a", 1), move_record("a", 2)}),
              kNone);

    ASSERT_TRUE(store->clear());
    EXPECT_EQ(store->list_archived(0, 10)->total, 0);
    EXPECT_TRUE(live_games(*store)->empty());
    EXPECT_EQ(store->schema_version(), schema_version());
    // The same ids are free again, and the journal takes moves from ply 1 as for a new game.
    ASSERT_EQ(refused(*store, {start_record(sample_live("a", 10))}), kNone);
    ASSERT_EQ(refused(*store, {move_record("a", 1)}), kNone);
    ASSERT_TRUE(store->archive_game(sample_game("g1", "alice", "bob", 1'700'000'000'000)));
    EXPECT_EQ(live_games(*store)->at(0).moves.size(), 1u);
}

TEST_P(StoreBackendTest, JournalGroupAppendReloadsInOrder) {
    auto store = open();
    ASSERT_TRUE(store);
    ASSERT_EQ(refused(*store, {start_record(sample_live("b", 20))}), kNone);
    ASSERT_EQ(refused(*store, {start_record(sample_live("a", 10))}), kNone);
    // One batch, the two games interleaved as one event-loop turn would accept them.
    std::vector<JournalRecord> batch;
    for (int ply = 1; ply <= 150; ++ply) {
        batch.push_back(move_record("a", ply));
        batch.push_back(move_record("b", ply));
    }
    ASSERT_EQ(refused(*store, batch), kNone);
    ASSERT_EQ(refused(*store, {move_record("b", 151)}), kNone);
    ASSERT_EQ(refused(*store, {}), kNone);

    auto live = live_games(*store);
    ASSERT_TRUE(live) << live.error().message;
    ASSERT_EQ(live->size(), 2u);
    EXPECT_EQ((*live)[0].record.id, "a");  // oldest first
    EXPECT_EQ((*live)[1].record, sample_live("b", 20));
    ASSERT_EQ((*live)[0].moves.size(), 150u);
    ASSERT_EQ((*live)[1].moves.size(), 151u);
    for (int ply = 1; ply <= 151; ++ply) {
        if (ply <= 150) {
            EXPECT_EQ((*live)[0].moves[static_cast<std::size_t>(ply - 1)], move_of("a", ply));
        }
        EXPECT_EQ((*live)[1].moves[static_cast<std::size_t>(ply - 1)], move_of("b", ply));
    }
}

TEST_P(StoreBackendTest, DuplicatePlyIsRejectedAndChangesNothing) {
    auto store = open();
    ASSERT_TRUE(store);
    ASSERT_EQ(refused(*store, {start_record(sample_live("g", 1)), start_record(sample_live("h", 2))}), kNone);
    ASSERT_EQ(refused(*store, {move_record("g", 1), move_record("g", 2), move_record("g", 3)}), kNone);

    // Each refused move is undone alone; the good move of the turn stands.
    JournalRecord bad = move_record("g", 4);
    std::get<JournalAppend>(bad).move.iccs = "z9z9";
    const std::vector<JournalRecord> turn = {
        move_record("g", 3),       // ply 3 again
        move_record("g", 5),       // a gap
        move_record("h", 1),       // good
        move_record("h", 1),       // twice in one turn
        move_record("nobody", 1),  // no such game
        bad,                       // not a move
    };
    using enum StoreErrorCode;
    EXPECT_EQ(refused(*store, turn),
              (std::vector{Constraint, Constraint, Constraint, Constraint, InvalidArgument}));
    auto live = live_games(*store);
    ASSERT_TRUE(live);
    ASSERT_EQ(live->size(), 2u);
    EXPECT_EQ((*live)[0].moves, (std::vector<JournalMove>{move_of("g", 1), move_of("g", 2), move_of("g", 3)}));
    EXPECT_EQ((*live)[1].moves, (std::vector<JournalMove>{move_of("h", 1)}));
    EXPECT_EQ(refused(*store, {move_record("g", 4)}), kNone);  // the store still works
}

TEST_P(StoreBackendTest, FinishMovesTheGameToTheArchive) {
    auto store = open();
    ASSERT_TRUE(store);
    ASSERT_EQ(refused(*store, {start_record(sample_live("g", 1000)), start_record(sample_live("other", 2000)),
                               move_record("g", 1), move_record("g", 2), move_record("g", 3)}),
              kNone);

    ArchivedGame ending = sample_game("g", "alice", "bob", 9000);
    ending.time_control = {600, 10, 0};
    ending.moves = "h9g7 e2h2 g7h9";
    ending.result = xq::Result::Draw;
    ending.reason = xq::Reason::Agreement;
    ending.explanation = "Drawn by agreement.";
    ending.pgn = "[pgn]";
    ending.started_at_ms = 1000;
    ASSERT_EQ(refused(*store, {JournalFinish{ending}}), kNone);

    auto fetched = store->fetch_archived("g");
    ASSERT_TRUE(fetched);
    EXPECT_EQ(*fetched, ending);
    auto page = store->list_archived(0, 10, "alice");
    ASSERT_TRUE(page);
    ASSERT_EQ(page->total, 1);
    EXPECT_EQ(page->games[0].ply_count, 3);

    auto live = live_games(*store);
    ASSERT_TRUE(live);
    ASSERT_EQ(live->size(), 1u);
    EXPECT_EQ((*live)[0].record.id, "other");
    if (sqlite()) {
        EXPECT_EQ(raw_int(db_path(), "SELECT count(*) FROM games WHERE red_token IS NOT NULL"), 1);
    }

    // The game takes no more moves, and is archived once (its id is taken).
    EXPECT_EQ(refused(*store, {move_record("g", 4)}), (std::vector{StoreErrorCode::Constraint}));
    EXPECT_EQ(refused(*store, {JournalFinish{ending}}), (std::vector{StoreErrorCode::Constraint}));
    auto still_live = store->fetch_archived("other");
    ASSERT_FALSE(still_live);
    EXPECT_EQ(still_live.error().code, StoreErrorCode::NotFound);
}

TEST(StoreErrorNames, AreSnakeCase) {
    EXPECT_EQ(code_name(StoreErrorCode::OpenFailed), "open_failed");
    EXPECT_EQ(code_name(StoreErrorCode::NotFound), "not_found");
    EXPECT_EQ(code_name(StoreErrorCode::Constraint), "constraint");
}

}  // namespace

XQ_INSTANTIATE_ON_BOTH_BACKENDS(StoreBackendTest);
