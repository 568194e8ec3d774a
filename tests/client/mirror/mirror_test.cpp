// The game mirror fed server messages written by hand: snapshots, events in order, replayed and
// out-of-step events, takebacks, and the errors it reports instead of following.

#include <gtest/gtest.h>

#include "client/mirror/game_mirror.h"
#include "common/fen.h"
#include "common/iccs.h"

namespace xq::client {
namespace {

constexpr proto::GameId kGame = 7;

proto::MoveMade made(proto::Version version, std::uint32_t ply, std::string move) {
    return {kGame, version, ply, std::move(move), {}, 0};
}

proto::Snapshot snapshot(proto::Version version, std::string start_fen,
                         std::vector<std::string> moves) {
    proto::Snapshot s;
    s.game_id = kGame;
    s.version = version;
    s.status = proto::GameStatus::Playing;
    s.start_fen = std::move(start_fen);
    s.moves = std::move(moves);
    return s;
}

std::vector<std::string> texts(const GameMirror& mirror) {
    std::vector<std::string> out;
    for (const Move m : mirror.moves()) out.push_back(to_iccs(m));
    return out;
}

MirrorUpdate applied(GameMirror& mirror, const proto::RoomEvent& event) {
    const auto update = mirror.apply(event);
    EXPECT_TRUE(update.has_value()) << update.error();
    return update.value_or(MirrorUpdate::Stale);
}

TEST(GameMirror, StartsWithNoGameAtTheStandardStart) {
    const GameMirror mirror;
    EXPECT_FALSE(mirror.has_game());
    EXPECT_EQ(mirror.version(), 0u);
    EXPECT_EQ(mirror.position(), Position::start());
    EXPECT_TRUE(mirror.moves().empty());
}

TEST(GameMirror, LoadsASnapshotFromItsFen) {
    const std::string fen = "4k4/9/9/9/9/9/9/9/4A4/R2AK4 w - - 0 1";
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(5, fen, {"e0f0"})));
    EXPECT_TRUE(mirror.has_game());
    EXPECT_EQ(mirror.version(), 5u);
    EXPECT_EQ(to_fen(mirror.start()), fen);
    EXPECT_EQ(texts(mirror), std::vector<std::string>{"e0f0"});
    EXPECT_EQ(mirror.position().side_to_move(), Color::Black);
    EXPECT_EQ(mirror.rules().ply_count(), 1);
}

TEST(GameMirror, AnEmptyStartFenIsTheStandardStart) {
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(3, "", {"h2e2", "h9g7"})));
    EXPECT_EQ(mirror.start(), Position::start());
    EXPECT_EQ(mirror.ply_count(), 2);

    ASSERT_TRUE(mirror.apply(proto::GameStarted{kGame, 4, "red", "black", {}, "", {}}));
    EXPECT_EQ(mirror.start(), Position::start());
    EXPECT_TRUE(mirror.moves().empty());
    EXPECT_EQ(mirror.version(), 4u);
}

TEST(GameMirror, FollowsMovesInOrder) {
    GameMirror mirror;
    EXPECT_EQ(applied(mirror, proto::GameStarted{kGame, 1, "red", "black", {}, "", {}}),
              MirrorUpdate::Changed);
    EXPECT_EQ(applied(mirror, made(2, 1, "h2e2")), MirrorUpdate::Changed);
    EXPECT_EQ(applied(mirror, made(3, 2, "h9g7")), MirrorUpdate::Changed);
    EXPECT_EQ(texts(mirror), (std::vector<std::string>{"h2e2", "h9g7"}));
    EXPECT_EQ(mirror.version(), 3u);
    EXPECT_EQ(mirror.position(), mirror.rules().position());
    // A version gap is no loss (unversioned notices spend versions too): the plies decide.
    EXPECT_EQ(applied(mirror, made(9, 3, "h0g2")), MirrorUpdate::Changed);
    EXPECT_EQ(mirror.version(), 9u);
}

TEST(GameMirror, IgnoresAReplayedVersion) {
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(4, "", {"h2e2"})));
    EXPECT_EQ(applied(mirror, made(4, 2, "h9g7")), MirrorUpdate::Stale);
    EXPECT_EQ(applied(mirror, proto::TakebackApplied{kGame, 3, 1, 0, {}}), MirrorUpdate::Stale);
    EXPECT_EQ(mirror.ply_count(), 1);
    EXPECT_EQ(mirror.version(), 4u);
}

TEST(GameMirror, AMoveAlreadyHeldIsKnown) {
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(4, "", {"h2e2"})));
    EXPECT_EQ(applied(mirror, made(5, 1, "h2e2")), MirrorUpdate::Known);
    EXPECT_EQ(mirror.ply_count(), 1);
    EXPECT_EQ(mirror.version(), 5u);
}

TEST(GameMirror, TakesBack) {
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(4, "", {"h2e2", "h9g7", "h0g2"})));
    EXPECT_EQ(applied(mirror, proto::TakebackApplied{kGame, 5, 2, 1, {}}), MirrorUpdate::Changed);
    EXPECT_EQ(texts(mirror), std::vector<std::string>{"h2e2"});
    EXPECT_EQ(mirror.rules().ply_count(), 1);
    EXPECT_EQ(mirror.position().side_to_move(), Color::Black);
    EXPECT_EQ(applied(mirror, made(6, 2, "b9c7")), MirrorUpdate::Changed);

    const auto too_many = mirror.apply(proto::TakebackApplied{kGame, 7, 3, 0, {}});
    ASSERT_FALSE(too_many);
    EXPECT_EQ(too_many.error(), "cannot take back 3 of 2 moves");
    EXPECT_EQ(mirror.ply_count(), 2);
    EXPECT_EQ(mirror.version(), 6u);
}

TEST(GameMirror, FollowsTheEventsOfAResume) {
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(2, "", {"h2e2"})));
    proto::Resumed resumed;
    resumed.events = {made(2, 1, "h2e2"), made(3, 2, "h9g7"),
                      proto::OfferMade{kGame, 4, {proto::OfferKind::Draw, proto::Side::Black}},
                      proto::GameEnded{kGame, 5, {}, {}}};
    std::vector<MirrorUpdate> updates;
    for (const auto& event : resumed.events) updates.push_back(applied(mirror, event));
    EXPECT_EQ(updates, (std::vector{MirrorUpdate::Stale, MirrorUpdate::Changed,
                                    MirrorUpdate::Changed, MirrorUpdate::Changed}));
    EXPECT_EQ(texts(mirror), (std::vector<std::string>{"h2e2", "h9g7"}));
    EXPECT_EQ(mirror.version(), 5u);
}

TEST(GameMirror, ReportsAMoveThatDoesNotFollowAndStaysAsItWas) {
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(2, "", {"h2e2"})));
    const struct {
        proto::MoveMade event;
        std::string error;
    } cases[] = {
        {made(3, 3, "h0g2"), "missed moves: got move 3 after move 1"},
        {made(3, 1, "b2e2"), "the server's move 1 (b2e2) contradicts ours (h2e2)"},
        {made(3, 2, "a0a5"), "the server's move 2 (a0a5) is not legal here"},
        {made(3, 2, "zz"), "the server's move zz is not a move"},
    };
    for (const auto& c : cases) {
        const auto update = mirror.apply(c.event);
        ASSERT_FALSE(update) << c.event.move;
        EXPECT_EQ(update.error(), c.error);
    }
    EXPECT_EQ(texts(mirror), std::vector<std::string>{"h2e2"});
    EXPECT_EQ(mirror.version(), 2u);
}

TEST(GameMirror, ABadRecordLeavesTheMirrorAsItWas) {
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(2, "", {"h2e2"})));
    EXPECT_FALSE(mirror.load(snapshot(8, "not a fen", {})));
    EXPECT_FALSE(mirror.load(snapshot(8, "", {"h2e2", "h2e2"})));
    EXPECT_FALSE(mirror.apply(proto::GameStarted{kGame, 9, "red", "black", {}, "9/9 w", {}}));
    EXPECT_EQ(texts(mirror), std::vector<std::string>{"h2e2"});
    EXPECT_EQ(mirror.version(), 2u);
}

TEST(GameMirror, AnArchivedGameKeepsTheVersion) {
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(6, "", {})));
    proto::ArchivedGame archived;
    archived.moves = {"h2e2", "h9g7"};
    ASSERT_TRUE(mirror.load(archived));
    EXPECT_EQ(mirror.ply_count(), 2);
    EXPECT_EQ(mirror.version(), 6u);
}

TEST(GameMirror, TheRecordGoesOnWhereTheRulesWouldHaveStopped) {
    // Red's rook checks from e3 and e2 in turn while Black's general steps aside and back: the
    // fifth check completes a perpetual check, which ends the game by the local rules; the server
    // (say one with other rules) goes on.
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(1, "3k5/9/9/9/9/9/9/9/9/4KR3 w - - 0 1", {})));
    const std::vector<std::string> cycle = {"f0f9", "d9d8", "f9f8", "d8d9", "f8f9",
                                            "d9d8", "f9f8", "d8d9", "f8f9", "d9d8"};
    for (std::size_t i = 0; i < cycle.size(); ++i)
        ASSERT_TRUE(mirror.apply(made(2 + i, static_cast<std::uint32_t>(i + 1), cycle[i])));
    EXPECT_TRUE(mirror.rules().is_over());
    EXPECT_LT(mirror.rules().ply_count(), mirror.ply_count());
    EXPECT_EQ(mirror.ply_count(), static_cast<int>(cycle.size()));
}

TEST(GameMirror, ClearForgetsTheGame) {
    GameMirror mirror;
    ASSERT_TRUE(mirror.load(snapshot(6, "", {"h2e2"})));
    mirror.clear();
    EXPECT_FALSE(mirror.has_game());
    EXPECT_EQ(mirror.version(), 0u);
    EXPECT_TRUE(mirror.moves().empty());
}

}  // namespace
}  // namespace xq::client
