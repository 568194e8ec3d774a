// The spectator delay over sockets (issue 19): spectators see the game `spectator_delay` plies
// behind, the players' chat with it, in snapshots, in events and in the lobby's list alike, while
// the players are not delayed; when the game ends the spectators get the rest.

#include <gtest/gtest.h>

#include "support/server_fixture.h"
#include "support/test_client.h"

namespace xq {
namespace {

using namespace proto;
using test::as;
using test::error_of;
using test::TestClient;

class SpectatorDelayTest : public test::ServerFixture {};

const TimeControl kControl{3, 2, std::nullopt};
const char* const kMoves[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0"};

// What a newcomer sees now: the snapshot's moves, and the lobby's ply count of the game.
std::pair<std::size_t, std::uint32_t> seen_by_newcomer(TestClient& newcomer, GameId id) {
    const auto snap = as<Snapshot>(newcomer.call(WatchGame{id, ""}));
    EXPECT_EQ(snap.spectator_delay, 2u);
    EXPECT_FALSE(snap.your_side.has_value());
    const auto list = as<GameList>(newcomer.call(ListGames{}));
    std::uint32_t listed = 999;
    for (const auto& g : list.live)
        if (g.game_id == id) {
            listed = g.plies;
            EXPECT_EQ(g.spectator_delay, 2u);
        }
    return {snap.moves.size(), listed};
}

TEST_F(SpectatorDelayTest, SpectatorsSeeTheGameTwoPliesBehindUntilTheEnd) {
    auto red = client("red");
    auto black = client("black");
    EXPECT_EQ(error_of(red->call(CreateGame{kControl, ColorChoice::Red, false, 0, false, 21})),
              ErrorCode::BadRequest);
    const auto created = as<Seated>(red->call(CreateGame{kControl, ColorChoice::Red, false, 0, false, 2}));
    const GameId id = created.game_id;
    as<Seated>(black->call(JoinGame{id, ""}));
    EXPECT_EQ(black->wait_for<GameStarted>()->spectator_delay, 2u);
    auto watcher = client("watcher");
    EXPECT_EQ(as<Snapshot>(watcher->call(WatchGame{id, ""})).moves.size(), 0u);

    // Plies 1 and 2, then a players' chat line: the players see them at once.
    const auto first = as<MoveMade>(red->call(MakeMove{id, kMoves[0], 1, 0}));
    EXPECT_EQ(first.ply, 1u);
    EXPECT_EQ(black->wait_for<MoveMade>()->ply, 1u);
    as<MoveMade>(black->call(MakeMove{id, kMoves[1], 2, 1}));
    as<ChatLine>(red->call(SendChat{id, ChatChannel::Players, "good luck"}));
    auto newcomer = client("newcomer");
    EXPECT_EQ(seen_by_newcomer(*newcomer, id), std::make_pair(std::size_t{0}, 0u));

    // Ply 3 reveals ply 1 to spectators; ply 4 reveals ply 2 and the chat said after it.
    as<MoveMade>(red->call(MakeMove{id, kMoves[2], 3, 2}));
    auto moved = watcher->wait_for<MoveMade>();
    ASSERT_TRUE(moved);
    EXPECT_EQ(moved->ply, 1u);
    EXPECT_EQ(moved->move, kMoves[0]);
    auto late = client("late");
    EXPECT_EQ(seen_by_newcomer(*late, id), std::make_pair(std::size_t{1}, 1u));
    const auto snap = as<Snapshot>(late->call(WatchGame{id, ""}));
    EXPECT_FALSE(snap.clock.running.has_value());  // the clocks as they stood, not running ahead
    EXPECT_TRUE(snap.chat.empty());                // the chat came after ply 2

    as<MoveMade>(black->call(MakeMove{id, kMoves[3], 4, 3}));
    moved = watcher->wait_for<MoveMade>();
    ASSERT_TRUE(moved);
    EXPECT_EQ(moved->ply, 2u);
    const auto line = watcher->wait_for<ChatLine>();
    ASSERT_TRUE(line);
    EXPECT_EQ(line->text, "good luck");
    EXPECT_EQ(line->version, moved->version + 1);  // the versions run on without a gap

    // The end gives spectators the rest.
    as<GameEnded>(black->call(Resign{id}));
    moved = watcher->wait_for<MoveMade>();
    ASSERT_TRUE(moved);
    EXPECT_EQ(moved->ply, 3u);
    moved = watcher->wait_for<MoveMade>();
    ASSERT_TRUE(moved);
    EXPECT_EQ(moved->ply, 4u);
    EXPECT_TRUE(watcher->wait_for<GameEnded>());
    EXPECT_EQ(as<Snapshot>(newcomer->call(WatchGame{id, ""})).moves.size(), 4u);
}

}  // namespace
}  // namespace xq
