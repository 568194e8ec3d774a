// The lobby's lifecycle over real sockets: a waiting game its host cancels or abandons is gone for
// everyone who watched it, a game whose first move never comes is aborted by the server, the game
// list always fits in one frame, and a resume that missed more than a frame's worth of events gets
// a snapshot.

#include <gtest/gtest.h>

#include <thread>

#include "support/server_fixture.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::TestClient;
using test::as;
using test::error_of;

const TimeControl kBlitz{5, 3, std::nullopt};

class LobbyNetTest : public test::ServerFixture {
protected:
    void configure(server::ServerConfig& config) override {
        config.grace = 300ms;
        config.first_move = 400ms;
        config.sweep_period = 50ms;
        config.rate.per_second = 0;  // the tests below send hundreds of requests on purpose
        config.connections.max_per_address = 400;
        config.max_waiting_per_group = 0;  // 160 hosts on one address
    }
};

TEST_F(LobbyNetTest, AHostCancellingTellsTheWatchers) {
    auto host = client("host");
    auto watcher = client("watcher");
    const auto created = as<Seated>(host->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Snapshot>(watcher->call(WatchGame{created.game_id, ""}));
    as<Left>(host->call(Leave{created.game_id}));
    const auto aborted = watcher->wait_for<GameAborted>();
    ASSERT_TRUE(aborted);
    EXPECT_EQ(aborted->game_id, created.game_id);
    EXPECT_EQ(aborted->side, Side::Red);
    EXPECT_EQ(aborted->explanation, "The host cancelled the game.");
    EXPECT_TRUE(as<GameList>(watcher->call(ListGames{})).open.empty());
    // The watcher is in no room any more: it can host, and leaving the old game finds nothing.
    EXPECT_EQ(error_of(watcher->call(Leave{created.game_id})), ErrorCode::NoSuchGame);
    as<Seated>(watcher->call(CreateGame{kBlitz, ColorChoice::Black, false}));
}

TEST_F(LobbyNetTest, AWaitingGameWhoseHostLeftIsUnlistedThenRemoved) {
    auto host = client("host");
    auto watcher = client("watcher");
    auto other = client("other");
    const auto created = as<Seated>(host->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Snapshot>(watcher->call(WatchGame{created.game_id, ""}));
    host.reset();  // drops the connection
    // Unlisted as soon as the server notices; nobody should join a game with nobody in it.
    bool unlisted = false;
    for (int i = 0; i < 100 && !unlisted; ++i) {
        unlisted = as<GameList>(other->call(ListGames{})).open.empty();
        if (!unlisted) std::this_thread::sleep_for(10ms);
    }
    EXPECT_TRUE(unlisted);
    const auto aborted = watcher->wait_for<GameAborted>();  // after the 300 ms grace
    ASSERT_TRUE(aborted);
    EXPECT_EQ(aborted->game_id, created.game_id);
    EXPECT_FALSE(aborted->side);
    EXPECT_EQ(error_of(other->call(JoinGame{created.game_id, ""})), ErrorCode::NoSuchGame);
}

// Nobody is charged before both first moves; a first move that never comes ends the game on the
// server's own timer, without a result and without an archive entry.
TEST_F(LobbyNetTest, AFirstMoveThatNeverComesAbortsTheGame) {
    auto red = client("red");
    auto black = client("black");
    auto watcher = client("watcher");
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    const auto started = red->wait_for<GameStarted>();
    ASSERT_TRUE(started);
    EXPECT_FALSE(started->clock.running);
    ASSERT_TRUE(started->clock.first_move_ms);
    EXPECT_LE(*started->clock.first_move_ms, 400);
    as<MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0}));
    const auto snap = as<Snapshot>(watcher->call(WatchGame{created.game_id, ""}));
    EXPECT_EQ(snap.clock.red_ms, 5 * 60'000);  // Red's first move cost nothing
    EXPECT_FALSE(snap.clock.running);
    ASSERT_TRUE(snap.clock.first_move_ms);  // Black's turn now
    for (TestClient* c : {red.get(), black.get(), watcher.get()}) {
        const auto aborted = c->wait_for<GameAborted>();
        ASSERT_TRUE(aborted);
        EXPECT_EQ(aborted->game_id, created.game_id);
        EXPECT_FALSE(aborted->side);  // the server aborted it
        EXPECT_EQ(aborted->explanation, "Black did not make a first move in time: the game is aborted.");
    }
    EXPECT_EQ(error_of(black->call(MakeMove{created.game_id, "h9g7", 1, 1})), ErrorCode::GameOver);
    EXPECT_EQ(as<ArchiveList>(watcher->call(ListArchive{0, 0, ""})).total, 0u);
}

// The lobby page draws each live game's board and clocks from the list alone: listing a game is
// not watching it.
TEST_F(LobbyNetTest, ALiveGamesSummaryCarriesItsPositionAndClocks) {
    auto red = client("red");
    auto black = client("black");
    auto viewer = client("viewer");
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());
    as<MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0}));
    ASSERT_TRUE(black->wait_for<MoveMade>());
    as<MoveMade>(black->call(MakeMove{created.game_id, "h9g7", 2, 1}));

    const auto list = as<GameList>(viewer->call(ListGames{}));
    ASSERT_EQ(list.live.size(), 1u);
    const GameSummary& g = list.live.front();
    EXPECT_EQ(g.fen, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    EXPECT_EQ(g.last_move, "h9g7");
    ASSERT_TRUE(g.clock);
    EXPECT_EQ(g.clock->running, Side::Red);
    EXPECT_GT(g.clock->red_ms, 0);
    EXPECT_LE(g.clock->red_ms, 5 * 60'000 + 3'000);
    EXPECT_GT(g.clock->black_ms, 0);
    EXPECT_LE(g.clock->black_ms, 5 * 60'000 + 3'000);
    EXPECT_EQ(g.spectators, 0u);
    EXPECT_EQ(as<GameList>(viewer->call(ListGames{})).live.front().spectators, 0u);
}

TEST_F(LobbyNetTest, TheGameListFitsInOneFrame) {
    std::vector<std::unique_ptr<TestClient>> hosts;
    for (int i = 0; i < 160; ++i) {
        // Names at the 32-byte cap make the largest summaries.
        hosts.push_back(client("host-" + std::to_string(i) + std::string(32, 'x')));
        as<Seated>(hosts.back()->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    }
    auto viewer = client("viewer");
    const auto list = as<GameList>(viewer->call(ListGames{}));
    EXPECT_EQ(list.open.size(), 150u);
    EXPECT_EQ(list.open.front().host.size(), 32u);
}

TEST_F(LobbyNetTest, AResumeThatMissedMoreThanAFrameGetsASnapshot) {
    auto red = client("red");
    auto black = client("black");
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    const auto joined = as<Seated>(black->call(JoinGame{created.game_id, ""}));
    const auto started = red->wait_for<GameStarted>();
    ASSERT_TRUE(started);
    as<MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0}));
    black.reset();
    // 300 lines of 280 bytes while Black is away: more than 64 KiB of missed events.
    const std::string line(280, 'a');
    for (int i = 0; i < 300; ++i) as<ChatLine>(red->call(SendChat{created.game_id, ChatChannel::Players, line}));
    auto back = client("black");
    const auto reply = back->call(Resume{created.game_id, joined.resume_token, started->version});
    const auto snapshot = as<Snapshot>(reply);
    EXPECT_EQ(snapshot.moves, std::vector<std::string>{"h2e2"});
    EXPECT_EQ(snapshot.your_side, Side::Black);
    // The token just used is replaced (ResumeToken follows the reply).
    const auto rotated = back->wait_for<ResumeToken>();
    ASSERT_TRUE(rotated);
    // A resume that missed little still gets just the events.
    auto again = client("black");
    const auto resumed = as<Resumed>(again->call(Resume{created.game_id, rotated->resume_token, snapshot.version}));
    EXPECT_TRUE(resumed.events.empty());
}

}  // namespace
}  // namespace xq
