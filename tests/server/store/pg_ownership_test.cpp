// PostgreSQL: game ownership and fenced journal writes (game_ownership.h), with two and three
// stores on one database standing for nodes. A node's games are taken over by another; the old
// owner's next writes of a taken game are refused (Fenced) and store nothing, while its other
// games still commit; the new owner writes and replays exactly what was acknowledged; two
// survivors claiming at once never both get a game. Also the pipelined turn's fallback: a record
// the server rejects outright is refused alone.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <latch>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "server/store/postgres/pg_store.h"
#include "support/temp_postgres.h"

namespace xq::server {
namespace {

LiveGameRecord live(std::string id, std::int64_t created_at) {
    return LiveGameRecord{std::move(id), "alice", "bob", "t-red", "t-black", {300, 5, 0},
                          "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", created_at};
}
JournalRecord start(std::string id, std::int64_t created_at) { return JournalStart{live(std::move(id), created_at), "", 1}; }
JournalRecord move(const std::string& game, int ply) {
    static constexpr const char* kIccs[] = {"h2e2", "h9g7", "e2h2", "g7h9"};
    return JournalAppend{{game, ply, kIccs[(ply - 1) % 4], ply, 1000, 1000, 1'700'000'000'000 + ply},
                         static_cast<std::uint64_t>(ply + 1)};
}
ArchivedGame finished(const std::string& game, std::string moves) {
    ArchivedGame g;
    g.id = game;
    g.red_name = "alice";
    g.black_name = "bob";
    g.time_control = {300, 5, 0};
    g.start_fen = live(game, 0).start_fen;
    g.moves = std::move(moves);
    g.result = Result::Draw;
    g.reason = Reason::Agreement;
    g.pgn = "[Result \"1/2-1/2\"]";
    g.started_at_ms = 1;
    g.ended_at_ms = 2;
    return g;
}

using Games = std::map<std::string, std::vector<std::string>>;  // game -> its moves

Games moves_of(const std::vector<RecoverableGame>& games) {
    Games out;
    for (const RecoverableGame& g : games) {
        auto& moves = out[g.game.record.id];
        for (const JournalMove& m : g.game.moves) moves.push_back(m.iccs);
    }
    return out;
}

// owner_of and live_owners, which must answer.
std::optional<std::string> owner(PgStore& store, const std::string& game) {
    auto owner = store.owner_of(game);
    EXPECT_TRUE(owner) << owner.error().message;
    return owner ? *owner : std::optional<std::string>("(error)");
}
std::vector<std::string> owners(PgStore& store) {
    auto owners = store.live_owners();
    EXPECT_TRUE(owners) << owners.error().message;
    return owners ? *owners : std::vector<std::string>{"(error)"};
}

std::vector<StoreErrorCode> codes(const StoreResult<std::vector<JournalFailure>>& done) {
    std::vector<StoreErrorCode> out;
    for (const JournalFailure& f : *done) out.push_back(f.error.code);
    return out;
}

class PgOwnershipTest : public ::testing::Test {
protected:
    std::unique_ptr<PgStore> open(std::string node) {
        auto store = PgStore::open(conninfo_, PgStoreOptions{std::move(node)});
        EXPECT_TRUE(store) << store.error().message;
        return store ? std::move(*store) : nullptr;
    }
    // Every live game and its moves, as a store without a node id sees them.
    Games stored() {
        auto reader = open("");
        if (!reader) return {};
        auto games = reader->load_recoverable_games();
        EXPECT_TRUE(games) << games.error().message;
        return games ? moves_of(*games) : Games{};
    }
    void commit_ok(PgStore& store, const std::vector<JournalRecord>& turn) {
        auto done = store.commit_journal(turn);
        ASSERT_TRUE(done) << done.error().message;
        ASSERT_TRUE(done->empty()) << done->front().error.message;
    }

    std::string conninfo_ = test::TempPostgres::shared().fresh_schema();
};

TEST_F(PgOwnershipTest, ATakenOverGameIsFencedForItsOldOwnerAndReplaysWhatWasAcknowledged) {
    auto a = open("A");
    auto b = open("B");
    ASSERT_TRUE(a && b);
    commit_ok(*a, {start("g1", 1), start("g2", 2), move("g1", 1), move("g2", 1)});
    EXPECT_EQ(owner(*a, "g1"), std::optional<std::string>("A"));
    EXPECT_EQ(owners(*a), std::vector<std::string>{"A"});

    // B finds A's lease gone and claims one game: the oldest, with what A acknowledged.
    auto taken = b->take_over("A", 1);
    ASSERT_TRUE(taken) << taken.error().message;
    EXPECT_EQ(moves_of(*taken), (Games{{"g1", {"h2e2"}}}));
    EXPECT_EQ(owner(*b, "g1"), std::optional<std::string>("B"));
    EXPECT_EQ(owners(*b), (std::vector<std::string>{"A", "B"}));

    // A comes back from a pause: its write of g1 is refused alone, g2's commits.
    auto done = a->commit_journal(std::vector<JournalRecord>{move("g1", 2), move("g2", 2)});
    ASSERT_TRUE(done) << done.error().message;
    ASSERT_EQ(done->size(), 1u);
    EXPECT_EQ((*done)[0].index, 0u);
    EXPECT_EQ((*done)[0].error.code, StoreErrorCode::Fenced) << (*done)[0].error.message;
    EXPECT_EQ(code_name(StoreErrorCode::Fenced), "fenced");
    EXPECT_EQ(stored(), (Games{{"g1", {"h2e2"}}, {"g2", {"h2e2", "h9g7"}}}));
    // Nor can it end, abort or take back the game it lost, or rotate its tokens.
    EXPECT_EQ(codes(a->commit_journal(std::vector<JournalRecord>{JournalFinish{finished("g1", "h2e2")}})),
              std::vector{StoreErrorCode::Fenced});
    EXPECT_EQ(codes(a->commit_journal(std::vector<JournalRecord>{JournalAbort{"g1"}, JournalTakeback{"g1", 0, 9},
                                                                  JournalSeatToken{"g1", true, "stolen"}})),
              (std::vector{StoreErrorCode::Fenced, StoreErrorCode::Fenced, StoreErrorCode::Fenced}));
    EXPECT_EQ(stored(), (Games{{"g1", {"h2e2"}}, {"g2", {"h2e2", "h9g7"}}}));

    // The new owner writes on; each node restarted with its id gets its own games back.
    commit_ok(*b, {move("g1", 2), move("g1", 3)});
    EXPECT_EQ(stored(), (Games{{"g1", {"h2e2", "h9g7", "e2h2"}}, {"g2", {"h2e2", "h9g7"}}}));
    auto b_again = open("B");
    auto a_again = open("A");
    ASSERT_TRUE(a_again && b_again);
    EXPECT_EQ(moves_of(*b_again->load_recoverable_games()), (Games{{"g1", {"h2e2", "h9g7", "e2h2"}}}));
    EXPECT_EQ(moves_of(*a_again->load_recoverable_games()), (Games{{"g2", {"h2e2", "h9g7"}}}));
    commit_ok(*b_again, {move("g1", 4), JournalFinish{finished("g1", "h2e2 h9g7 e2h2 g7h9")}});
    commit_ok(*a_again, {move("g2", 3)});
    EXPECT_EQ(stored(), (Games{{"g2", {"h2e2", "h9g7", "e2h2"}}}));
    EXPECT_EQ(b->owner_of("g1").error().code, StoreErrorCode::NotFound);
    EXPECT_EQ(owners(*b), std::vector<std::string>{"A"});
    // Nothing left of a dead node: an empty claim.
    auto nothing = b->take_over("C", 10);
    ASSERT_TRUE(nothing);
    EXPECT_TRUE(nothing->empty());
}

TEST_F(PgOwnershipTest, TwoSurvivorsClaimingAtOnceNeverGetTheSameGame) {
    constexpr int kGames = 40;
    {
        auto a = open("A");
        ASSERT_TRUE(a);
        std::vector<JournalRecord> turn;
        for (int i = 0; i < kGames; ++i) {
            turn.push_back(start("g" + std::to_string(i), i));
            turn.push_back(move("g" + std::to_string(i), 1));
        }
        commit_ok(*a, turn);
    }
    auto b = open("B");
    auto c = open("C");
    ASSERT_TRUE(b && c);
    // Small batches, each survivor on its own connection and thread, started together.
    std::latch go(2);
    auto claim = [&go](PgStore& store, std::vector<std::string>& got, std::string& error) {
        go.arrive_and_wait();
        for (;;) {
            auto taken = store.take_over("A", 3);
            if (!taken) {
                error = taken.error().message;
                return;
            }
            if (taken->empty()) return;
            for (const RecoverableGame& g : *taken) got.push_back(g.game.record.id);
        }
    };
    std::vector<std::string> by_b, by_c;
    std::string b_error, c_error;
    std::thread other([&] { claim(*c, by_c, c_error); });
    claim(*b, by_b, b_error);
    other.join();
    EXPECT_EQ(b_error, "");
    EXPECT_EQ(c_error, "");
    std::vector<std::string> all = by_b;
    all.insert(all.end(), by_c.begin(), by_c.end());
    std::ranges::sort(all);
    EXPECT_EQ(all.size(), static_cast<std::size_t>(kGames));
    EXPECT_EQ(std::ranges::adjacent_find(all), all.end()) << "a game was claimed twice";
    for (const std::string& id : by_b) EXPECT_EQ(owner(*b, id), std::optional<std::string>("B"));
    for (const std::string& id : by_c) EXPECT_EQ(owner(*c, id), std::optional<std::string>("C"));
    // Each writes its own games only.
    if (!by_b.empty() && !by_c.empty()) {
        auto done = b->commit_journal(std::vector<JournalRecord>{move(by_b[0], 2), move(by_c[0], 2)});
        ASSERT_TRUE(done) << done.error().message;
        EXPECT_EQ(codes(done), std::vector{StoreErrorCode::Fenced});
    }
}

TEST_F(PgOwnershipTest, AStoreWithoutANodeIdOwnsNothingAndIsNotFenced) {
    auto single = open("");
    ASSERT_TRUE(single);
    commit_ok(*single, {start("g", 1), move("g", 1)});
    EXPECT_EQ(owner(*single, "g"), std::optional<std::string>());
    EXPECT_EQ(owners(*single), std::vector<std::string>{});
    EXPECT_EQ(single->take_over("A", 5).error().code, StoreErrorCode::InvalidArgument);
    // Another store without a node id (the same process restarted) writes on.
    auto again = open("");
    ASSERT_TRUE(again);
    commit_ok(*again, {move("g", 2)});
    EXPECT_EQ(stored(), (Games{{"g", {"h2e2", "h9g7"}}}));
}

// A record the server rejects (a CHECK) aborts the one-round-trip attempt; the turn is done again
// record by record, and only that record is refused.
TEST_F(PgOwnershipTest, ARecordTheServerRejectsIsRefusedAloneInAPipelinedTurn) {
    auto a = open("A");
    ASSERT_TRUE(a);
    commit_ok(*a, {start("g", 1)});
    JournalRecord bad = start("h", 2);
    std::get<JournalStart>(bad).game.spectator_delay = 99;
    auto done = a->commit_journal(std::vector<JournalRecord>{move("g", 1), bad, start("i", 3), move("i", 1)});
    ASSERT_TRUE(done) << done.error().message;
    ASSERT_EQ(done->size(), 1u);
    EXPECT_EQ((*done)[0].index, 1u);
    EXPECT_EQ((*done)[0].error.code, StoreErrorCode::Constraint) << (*done)[0].error.message;
    EXPECT_EQ(stored(), (Games{{"g", {"h2e2"}}, {"i", {"h2e2"}}}));
    commit_ok(*a, {move("i", 2)});  // the game started in the fallback turn is owned and fenced as any
    EXPECT_EQ(owner(*a, "i"), std::optional<std::string>("A"));
}

// A database of schema version 1 (before ownership) is brought to version 2 on open: its live
// games have no owner, so a single node still restores them and a node with an id does not.
TEST_F(PgOwnershipTest, AVersion1DatabaseIsMigratedAndItsGamesHaveNoOwner) {
    {
        auto single = open("");
        ASSERT_TRUE(single);
        commit_ok(*single, {start("old", 1), move("old", 1)});
    }
    auto raw = pg::Connection::open(conninfo_, std::chrono::seconds(5));
    ASSERT_TRUE(raw) << raw.error().message;
    auto back = raw->exec(
        "ALTER TABLE games DROP COLUMN owner; DROP SEQUENCE xq_fence; DROP SEQUENCE xq_turn_epoch; "
        "UPDATE xq_meta SET value = 1 WHERE key = 'schema_version'");
    ASSERT_TRUE(back) << back.error().message;

    auto a = open("A");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->schema_version(), 2);
    auto version = raw->exec("SELECT value FROM xq_meta WHERE key = 'schema_version'");
    ASSERT_TRUE(version);
    EXPECT_EQ(version->int64(0, 0), 2);
    EXPECT_EQ(owner(*a, "old"), std::optional<std::string>());
    EXPECT_EQ(moves_of(*a->load_recoverable_games()), Games{});
    EXPECT_EQ(stored(), (Games{{"old", {"h2e2"}}}));
}

}  // namespace
}  // namespace xq::server
