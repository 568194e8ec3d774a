// When the store refuses a turn's journal records (here: another process holds SQLite's write
// lock past the busy timeout), nothing of that turn is acknowledged: the move's asker and a retry
// of the same move id in the same turn both get INTERNAL, the opponent hears nothing, and the
// game goes on from its stored state once the store works again.

#include <gtest/gtest.h>

#include <sqlite3.h>

#include "proto/frame.h"
#include "support/server_fixture.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::as;
using test::error_of;

const TimeControl kBlitz{5, 3, std::nullopt};

// Holds the database's write lock from a connection of its own while it lives.
class WriteLock {
public:
    explicit WriteLock(const std::filesystem::path& db) {
        EXPECT_EQ(sqlite3_open(db.c_str(), &db_), SQLITE_OK);
        EXPECT_EQ(sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    }
    ~WriteLock() {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(db_);
    }
    WriteLock(const WriteLock&) = delete;
    WriteLock& operator=(const WriteLock&) = delete;

private:
    sqlite3* db_ = nullptr;
};

class StoreFailureTest : public test::ServerFixture {};

TEST_F(StoreFailureTest, AMoveAndItsRetryInTheSameTurnAreBothRefusedWhenTheStoreFails) {
    auto red = client("red", 15s);
    auto black = client("black", 15s);
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());
    ASSERT_TRUE(black->wait_for<GameStarted>());
    {
        WriteLock lock(dir_ / "test.db");
        // One write, two frames: the move and its retry reach the server in the same turn.
        const MakeMove move{created.game_id, "h2e2", 7, 0};
        red->send_raw(encode_frame(ClientMessage{101, move}) + encode_frame(ClientMessage{102, move}));
        const auto first = red->reply(101);
        const auto retry = red->reply(102);
        EXPECT_EQ(error_of(first), ErrorCode::Internal);
        EXPECT_EQ(error_of(retry), ErrorCode::Internal);
    }
    // Nothing was played: Black is to wait for Red's first move, and the same move id plays it now.
    const auto made = as<MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 7, 0}));
    EXPECT_EQ(made.ply, 1u);
    const auto seen = black->wait_for<MoveMade>();
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->ply, 1u);
    EXPECT_EQ(seen->move, "h2e2");
}

}  // namespace
}  // namespace xq
