// Premoves in the client model: queued out of turn with the usual click or drag, sent when the
// opponent's move makes them legal, dropped without a word when it does not, cancelled by a click
// elsewhere; and ratings as shown (the '?', the changes, the plot's axes).

#include <gtest/gtest.h>

#include "client/model/game_model.h"
#include "client/model/ratings_model.h"
#include "common/iccs.h"

namespace xq::client {
namespace {

Move mv(std::string_view text) { return *parse_iccs(text); }
Square sq(std::string_view text) { return *parse_square(text); }

// Black, with Red to move: every click queues rather than plays.
GameModel black_waiting() {
    GameModel m;
    EXPECT_TRUE(m.reset(Position::start(), {}, Role::Black));
    return m;
}

TEST(Premove, AClickedMoveIsQueuedNotSentAndPlayedAfterTheOpponentsMove) {
    GameModel m = black_waiting();
    EXPECT_FALSE(m.can_move());
    EXPECT_TRUE(m.can_premove());
    EXPECT_EQ(m.click(sq("h9")), std::nullopt);
    EXPECT_EQ(m.selected(), sq("h9"));
    EXPECT_FALSE(m.highlights().empty());  // the horse's points, as if it were Black's turn
    EXPECT_EQ(m.click(sq("g7")), std::nullopt);  // queued, not sent
    EXPECT_EQ(m.premove(), mv("h9g7"));
    EXPECT_EQ(m.selected(), std::nullopt);
    EXPECT_EQ(m.take_premove(), std::nullopt);  // still Red's turn: nothing to send
    EXPECT_EQ(m.premove(), mv("h9g7"));
    ASSERT_TRUE(m.apply_move(1, mv("h2e2")));  // Red moves
    EXPECT_EQ(m.premove(), mv("h9g7"));        // the queue outlives the opponent's move
    EXPECT_EQ(m.take_premove(), mv("h9g7"));   // legal now: sent at once
    EXPECT_EQ(m.premove(), std::nullopt);
}

TEST(Premove, DraggedLikeAnyMove) {
    GameModel m = black_waiting();
    EXPECT_TRUE(m.begin_drag(sq("b7")));
    EXPECT_EQ(m.drop(sq("e7")), std::nullopt);
    EXPECT_EQ(m.premove(), mv("b7e7"));
}

TEST(Premove, IllegalAfterTheOpponentsMoveIsDroppedSilently) {
    GameModel m = black_waiting();
    m.click(sq("h7"));  // Black's cannon takes the horse on h0 over Red's cannon on h2
    m.click(sq("h0"));
    ASSERT_EQ(m.premove(), mv("h7h0"));
    // The horse steps away: a cannon cannot jump its screen to an empty point.
    ASSERT_TRUE(m.apply_move(1, mv("h0g2")));
    m.take_cues();
    EXPECT_EQ(m.take_premove(), std::nullopt);
    EXPECT_EQ(m.premove(), std::nullopt);
    EXPECT_TRUE(m.notice().empty());  // silently
    EXPECT_TRUE(m.take_cues().empty());
    EXPECT_TRUE(m.can_move());  // the player moves as usual
}

TEST(Premove, AClickElsewhereOrCancelDropsIt) {
    GameModel m = black_waiting();
    m.click(sq("h9"));
    m.click(sq("g7"));
    ASSERT_TRUE(m.premove());
    m.click(sq("e5"));  // an empty point no piece was picked for
    EXPECT_EQ(m.premove(), std::nullopt);
    m.click(sq("h9"));
    m.click(sq("g7"));
    ASSERT_TRUE(m.premove());
    m.cancel_premove();  // the right mouse button
    EXPECT_EQ(m.premove(), std::nullopt);
    m.click(sq("h9"));
    m.click(sq("e5"));  // not one of the horse's points: nothing queued
    EXPECT_EQ(m.premove(), std::nullopt);
}

TEST(Premove, WhileOurMoveIsUnconfirmedAndNeverForSpectatorsOrAfterTheEnd) {
    GameModel red;
    ASSERT_TRUE(red.reset(Position::start(), {}, Role::Red));
    EXPECT_FALSE(red.can_premove());  // our turn: a normal move
    red.begin_pending(mv("h2e2"), 1);
    EXPECT_TRUE(red.can_premove());  // sent, not yet confirmed: the next one may be queued
    red.click(sq("h0"));
    red.click(sq("g2"));
    EXPECT_EQ(red.premove(), mv("h0g2"));
    ASSERT_TRUE(red.apply_move(1, mv("h2e2")));  // confirmed
    EXPECT_EQ(red.take_premove(), std::nullopt);  // Black's turn
    ASSERT_TRUE(red.apply_move(2, mv("h9g7")));
    EXPECT_EQ(red.take_premove(), mv("h0g2"));

    GameModel watcher;
    ASSERT_TRUE(watcher.reset(Position::start(), {}, Role::Spectator));
    EXPECT_FALSE(watcher.can_premove());

    GameModel over = black_waiting();
    over.click(sq("h9"));
    over.click(sq("g7"));
    over.finish({Result::RedWins, "resignation", "Black resigns."});
    EXPECT_FALSE(over.can_premove());
    EXPECT_EQ(over.premove(), std::nullopt);
}

TEST(RatingsShown, ProvisionalChangesAndLag) {
    EXPECT_EQ(rating_text(RatingView{1500, 350, true}), "1500?");
    EXPECT_EQ(rating_text(RatingView{1623, 80, false}), "1623");
    EXPECT_EQ(rating_text(std::nullopt), "");
    EXPECT_EQ(change_text(1500, 1512), "+12");
    EXPECT_EQ(change_text(1500, 1492), "-8");
    EXPECT_EQ(change_text(1500, 1500), "±0");
    EXPECT_EQ(lag_text(0), "");
    EXPECT_EQ(lag_text(85), "85 ms");
}

TEST(RatingsShown, SpeedOfATimeControlIsTheCommonRule) {
    EXPECT_EQ(speed_pool({1, 0, std::nullopt}), SpeedPool::Bullet);
    EXPECT_EQ(speed_pool({3, 2, std::nullopt}), SpeedPool::Blitz);   // 180 + 80 s
    EXPECT_EQ(speed_pool({10, 5, std::nullopt}), SpeedPool::Rapid);  // 600 + 200 s
    EXPECT_EQ(speed_pool({30, 20, std::nullopt}), SpeedPool::Classical);
}

TEST(RatingPlot, TicksCoverEveryPointOnRoundValues) {
    const std::vector<RatingPointView> blitz{{1000, 1500, 1}, {2000, 1562, 2}, {3000, 1431, 3}};
    const std::vector<RatingPointView> rapid{{1500, 1610, 4}};
    const PlotScale s = plot_scale({&blitz, &rapid});
    EXPECT_LE(s.low, 1431);
    EXPECT_GE(s.high, 1610);
    EXPECT_EQ(s.low % s.tick, 0);
    EXPECT_EQ(s.high % s.tick, 0);
    EXPECT_LE((s.high - s.low) / s.tick, 8);
    EXPECT_GE((s.high - s.low) / s.tick, 3);
    EXPECT_EQ(s.first_ms, 1000);
    EXPECT_EQ(s.last_ms, 3000);
    EXPECT_DOUBLE_EQ(s.x(1000), 0.0);
    EXPECT_DOUBLE_EQ(s.x(3000), 1.0);
    EXPECT_GT(s.y(1431), 0.0);  // room under the lowest point
    EXPECT_LT(s.y(1610), 1.0);
}

TEST(RatingPlot, OnePointOrNoneStillHasAnAxis) {
    const std::vector<RatingPointView> one{{5000, 1500, 1}};
    const PlotScale s = plot_scale({&one});
    EXPECT_LT(s.low, 1500);
    EXPECT_GT(s.high, 1500);
    EXPECT_DOUBLE_EQ(s.x(5000), 0.5);  // a single game sits in the middle
    const PlotScale none = plot_scale({});
    EXPECT_LT(none.low, none.high);
}

}  // namespace
}  // namespace xq::client
