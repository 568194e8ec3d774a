// The server on PostgreSQL (--postgres) over real sockets, with a real postgres that goes away:
// killed with SIGKILL mid-game, moves are refused with INTERNAL (nothing acknowledged that is not
// durable, the opponent hears nothing); started again on the same socket and data, the store
// reconnects by itself and the same move plays; every acknowledged move is in the database.

#include <gtest/gtest.h>

#include <csignal>

#include "server/store/postgres/pg_store.h"
#include "support/server_fixture.h"
#include "support/temp_postgres.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::as;
using test::error_of;

const TimeControl kBlitz{5, 3, std::nullopt};

class PostgresOutageTest : public test::ServerFixture {
protected:
    void configure(server::ServerConfig& config) override { config.postgres = conninfo_; }

    // Constructed before SetUp starts the server on it; destroyed after TearDown stopped it.
    test::TempPostgres pg_;
    std::string conninfo_ = pg_.fresh_schema();
};

TEST_F(PostgresOutageTest, MovesAreRefusedWhileTheDatabaseIsDownAndPlayResumesWhenItIsBack) {
    auto red = client("red", 20s);
    auto black = client("black", 20s);
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());
    ASSERT_TRUE(black->wait_for<GameStarted>());
    EXPECT_EQ(as<MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0})).ply, 1u);
    ASSERT_TRUE(black->wait_for<MoveMade>());  // Red's move, as Black sees it
    EXPECT_EQ(as<MoveMade>(black->call(MakeMove{created.game_id, "h9g7", 2, 1})).ply, 2u);
    ASSERT_TRUE(red->wait_for<MoveMade>());  // Black's move, as Red sees it

    pg_.stop(SIGKILL);
    // While it is down: refused, twice (the second inside the reconnect backoff), not played.
    EXPECT_EQ(error_of(red->call(MakeMove{created.game_id, "h0g2", 3, 2})), ErrorCode::Internal);
    EXPECT_EQ(error_of(red->call(MakeMove{created.game_id, "h0g2", 3, 2})), ErrorCode::Internal);

    pg_.start();  // crash recovery, the same socket
    // The store reconnects on a later turn, after its backoff (at most 2 s): until then the move
    // is refused as before; then it plays, as ply 3.
    std::optional<MoveMade> made;
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!made && std::chrono::steady_clock::now() < deadline) {
        const auto reply = red->call(MakeMove{created.game_id, "h0g2", 3, 2});
        if (const auto* m = std::get_if<MoveMade>(&reply.body)) made = *m;
        else ASSERT_EQ(error_of(reply), ErrorCode::Internal);
    }
    ASSERT_TRUE(made) << "the store did not come back within 20 s";
    EXPECT_EQ(made->ply, 3u);
    // Black heard of the refused attempts nothing: the next move it sees is ply 3.
    const auto seen = black->wait_for<MoveMade>();
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->ply, 3u);
    EXPECT_EQ(seen->move, "h0g2");
    EXPECT_EQ(as<MoveMade>(black->call(MakeMove{created.game_id, "i9h9", 4, 3})).ply, 4u);

    // Every acknowledged move is in the database, and nothing else.
    auto store = server::PgStore::open(conninfo_);
    ASSERT_TRUE(store) << store.error().message;
    auto games = (*store)->load_recoverable_games();
    ASSERT_TRUE(games) << games.error().message;
    ASSERT_EQ(games->size(), 1u);
    std::vector<std::string> moves;
    for (const auto& m : (*games)[0].game.moves) moves.push_back(m.iccs);
    EXPECT_EQ(moves, (std::vector<std::string>{"h2e2", "h9g7", "h0g2", "i9h9"}));
}

}  // namespace
}  // namespace xq
