// Room::restore keeps what the journal holds of a game's settings: a restored game's spectators
// stay as far behind as before the restart.

#include <gtest/gtest.h>

#include "server/rooms/room_restore.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

TEST(RoomRestore, SpectatorsStayBehindAfterARestart) {
    RestoredGame g;
    g.seats[0] = {"red", "hash-r", 0, false, TimePoint{} + 60s};
    g.seats[1] = {"black", "hash-b", 0, false, TimePoint{} + 60s};
    const char* moves[] = {"h2e2", "h9g7", "h0g2", "i9h9"};
    std::uint64_t version = 1;  // GameStarted
    for (const char* m : moves) g.moves.push_back({m, version, {Millis(170'000), Millis(170'000)}, ++version});
    g.version = version;  // 5: the fourth move's
    g.spectator_delay = 2;
    std::uint64_t n = 0;
    auto room = Room::restore("r", {3min, 2s, {}}, [&n] { return ++n; }, g, TimePoint{});
    ASSERT_TRUE(room) << room.error();
    EXPECT_EQ((*room)->spectator_delay(), 2);
    EXPECT_EQ((*room)->spectator_plies(), 2);
    EXPECT_EQ((*room)->spectator_version(), 3u);  // through ply 2's MoveMade (version 3)

    g.spectator_delay = 0;
    auto open = Room::restore("r", {3min, 2s, {}}, [&n] { return ++n; }, g, TimePoint{});
    ASSERT_TRUE(open) << open.error();
    EXPECT_EQ((*open)->spectator_plies(), 4);
    EXPECT_EQ((*open)->spectator_version(), 5u);
}

}  // namespace
}  // namespace xq::server
