// Rematch over sockets (issue 19): offered after a finished game, accepted at once into a new
// game with colours swapped and the same settings, followed by the old game's spectators;
// declined like other offers; refused (no_rematch) once played, after an abort, or when the
// opponent has left.

#include <gtest/gtest.h>

#include "support/server_fixture.h"
#include "support/test_client.h"

namespace xq {
namespace {

using namespace proto;
using test::as;
using test::error_of;
using test::TestClient;

class RematchTest : public test::ServerFixture {};

const TimeControl kControl{3, 2, std::nullopt};

// Red creates, Black joins, both move once, Red resigns: a finished game (its Seated returned).
Seated finished_game(TestClient& red, TestClient& black, bool is_private = false) {
    const auto created = as<Seated>(red.call(CreateGame{kControl, ColorChoice::Red, is_private}));
    as<Seated>(black.call(JoinGame{created.game_id, created.join_code}));
    as<MoveMade>(red.call(MakeMove{created.game_id, "h2e2", 1, 0}));
    as<MoveMade>(black.call(MakeMove{created.game_id, "h9g7", 1, 1}));
    as<GameEnded>(red.call(Resign{created.game_id}));
    return created;
}

TEST_F(RematchTest, AcceptedStartsTheNewGameWithColoursSwapped) {
    auto red = client("ann");
    auto black = client("bob");
    const Seated first = finished_game(*red, *black, true);
    const GameId old = first.game_id;

    const auto offered = as<OfferMade>(red->call(MakeOffer{old, OfferKind::Rematch}));
    EXPECT_EQ(offered.offer.kind, OfferKind::Rematch);
    EXPECT_EQ(offered.offer.side, Side::Red);
    EXPECT_EQ(black->wait_for<OfferMade>()->offer.kind, OfferKind::Rematch);
    EXPECT_EQ(error_of(red->call(MakeOffer{old, OfferKind::Rematch})), ErrorCode::OfferAlreadyPending);

    const auto bob_seat = as<Seated>(black->call(AnswerOffer{old, OfferKind::Rematch, true}));
    EXPECT_NE(bob_seat.game_id, old);
    EXPECT_EQ(bob_seat.side, Side::Red);
    EXPECT_FALSE(bob_seat.resume_token.empty());
    EXPECT_FALSE(bob_seat.join_code.empty());  // private like the first game
    const auto ann_seat = red->wait_for<Seated>();
    ASSERT_TRUE(ann_seat);
    EXPECT_EQ(ann_seat->game_id, bob_seat.game_id);
    EXPECT_EQ(ann_seat->side, Side::Black);
    const auto started = red->wait_for<GameStarted>();
    ASSERT_TRUE(started);
    EXPECT_EQ(started->game_id, bob_seat.game_id);
    EXPECT_EQ(started->red, "bob");
    EXPECT_EQ(started->black, "ann");
    EXPECT_EQ(started->time_control, kControl);
    const auto moved_on = red->wait_for<RematchStarted>();
    ASSERT_TRUE(moved_on);
    EXPECT_EQ(moved_on->game_id, old);
    EXPECT_EQ(moved_on->new_game_id, bob_seat.game_id);

    // The new game is played: Bob is Red now.
    as<MoveMade>(black->call(MakeMove{bob_seat.game_id, "h2e2", 1, 0}));
    // The old game's snapshot points to the rematch; a second rematch of it is refused.
    auto watcher = client("watcher");
    const auto snap = as<Snapshot>(watcher->call(WatchGame{old, first.join_code}));
    EXPECT_EQ(snap.rematch_game_id, bob_seat.game_id);
    EXPECT_EQ(error_of(red->call(MakeOffer{old, OfferKind::Rematch})), ErrorCode::NoRematch);
}

TEST_F(RematchTest, SpectatorsFollowAndDeclineWorksLikeOtherOffers) {
    auto red = client("ann");
    auto black = client("bob");
    const GameId old = finished_game(*red, *black).game_id;
    auto watcher = client("watcher");
    as<Snapshot>(watcher->call(WatchGame{old, ""}));
    EXPECT_EQ(error_of(watcher->call(MakeOffer{old, OfferKind::Rematch})), ErrorCode::NotAPlayer);

    as<OfferMade>(black->call(MakeOffer{old, OfferKind::Rematch}));
    EXPECT_EQ(error_of(black->call(AnswerOffer{old, OfferKind::Rematch, true})), ErrorCode::BadRequest);  // one's own offer
    const auto declined = as<OfferAnswered>(red->call(AnswerOffer{old, OfferKind::Rematch, false}));
    EXPECT_EQ(declined.kind, OfferKind::Rematch);
    EXPECT_FALSE(declined.accepted);
    EXPECT_EQ(error_of(red->call(AnswerOffer{old, OfferKind::Rematch, true})), ErrorCode::NoPendingOffer);

    // Offering while the opponent's offer stands accepts it.
    as<OfferMade>(black->call(MakeOffer{old, OfferKind::Rematch}));
    const auto seat = as<Seated>(red->call(MakeOffer{old, OfferKind::Rematch}));
    EXPECT_EQ(seat.side, Side::Black);
    const auto followed = watcher->wait_for<RematchStarted>();
    ASSERT_TRUE(followed);
    EXPECT_EQ(followed->new_game_id, seat.game_id);
    EXPECT_GT(followed->version, 0u);
    EXPECT_EQ(as<Snapshot>(watcher->call(WatchGame{seat.game_id, ""})).status, GameStatus::Playing);
}

TEST_F(RematchTest, RefusedAfterAnAbortBeforeTheEndOrWhenTheOpponentLeft) {
    auto red = client("ann");
    auto black = client("bob");
    const auto created = as<Seated>(red->call(CreateGame{kControl, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    EXPECT_EQ(error_of(red->call(MakeOffer{created.game_id, OfferKind::Rematch})), ErrorCode::GameNotStarted);
    as<GameAborted>(red->call(Abort{created.game_id}));
    EXPECT_EQ(error_of(red->call(MakeOffer{created.game_id, OfferKind::Rematch})), ErrorCode::NoRematch);

    const GameId finished = finished_game(*red, *black).game_id;
    black.reset();  // Bob disconnects
    ASSERT_TRUE(red->wait_for<PlayerConnection>([](const PlayerConnection& p) { return !p.player.connected; }));
    EXPECT_EQ(error_of(red->call(MakeOffer{finished, OfferKind::Rematch})), ErrorCode::NoRematch);
}

}  // namespace
}  // namespace xq
