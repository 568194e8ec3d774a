// Room: a full game, every error code a room gives, offers, takebacks, abort, exactly-once moves,
// repetition bans, connections, chat audiences and the event log (clocks: server_clock_test.cpp).

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "common/fen.h"
#include "common/iccs.h"
#include "server/rooms/room.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

const TimePoint t0 = TimePoint{} + 1000h;
constexpr ParticipantId kRed = 1, kBlack = 2, kOutsider = 99, kWatcher = 7;

RandomSource counter() {
    return [n = std::uint64_t{0}]() mutable { return ++n; };
}

Position fen(std::string_view text) { return *parse_fen(text); }

template <class T>
const T& body(const Event& e) {
    EXPECT_TRUE(std::holds_alternative<T>(e.body))
        << "event " << e.version << " holds index " << e.body.index();
    return std::get<T>(e.body);
}

// A room with both seats taken at t0 (so Red's first move is awaited from t0).
struct Table {
    explicit Table(TimeControl tc = {5min, 2s, {}}, Position start = Position::start())
        : room("r1", tc, counter(), start) {
        EXPECT_TRUE(room.join(Color::Red, "alice", kRed, t0));
        EXPECT_TRUE(room.join(Color::Black, "bob", kBlack, t0));
    }
    ParticipantId to_move() const {
        return room.game().position().side_to_move() == Color::Red ? kRed : kBlack;
    }
    // Plays moves alternately, one second each, with fresh move ids.
    void play(const std::string& moves) {
        std::istringstream in(moves);
        for (std::string word; in >> word;) {
            now += 1s;
            const auto done = room.move(to_move(), next_id++, room.game().ply_count(), word, now);
            ASSERT_TRUE(done) << word << ": " << done.error().detail;
        }
    }
    ErrorCode error_of_move(ParticipantId who, std::string_view iccs, int ply = -1) {
        const auto done = room.move(who, next_id++, ply < 0 ? room.game().ply_count() : ply, iccs, now);
        EXPECT_FALSE(done) << iccs;
        return done ? ErrorCode::NoSuchGame : done.error().code;
    }
    Room room;
    TimePoint now = t0;
    MoveId next_id = 100;
};

TEST(Room, WaitsForBothSeatsThenAwaitsRedsFirstMove) {
    Room room("r1", {5min, 0s, {}}, counter());
    const auto red = room.join(Color::Red, "alice", kRed, t0);
    ASSERT_TRUE(red);
    EXPECT_EQ(red->token.size(), 32u);
    EXPECT_EQ(room.status(), Status::Waiting);
    EXPECT_FALSE(room.deadline());
    EXPECT_EQ(room.move(kRed, 1, 0, "h2e2", t0).error().code, ErrorCode::GameNotStarted);
    EXPECT_EQ(room.join(Color::Black, "alice again", kRed, t0).error().code, ErrorCode::AlreadySeated);
    EXPECT_EQ(room.join(Color::Red, "carol", 3, t0).error().code, ErrorCode::GameFull);

    const auto black = room.join(Color::Black, "bob", kBlack, t0 + 5s);
    ASSERT_TRUE(black);
    EXPECT_NE(black->token, red->token);
    ASSERT_EQ(black->events.size(), 2u);
    body<PlayerJoined>(black->events[0]);
    const auto& started = body<GameStarted>(black->events[1]);
    EXPECT_EQ(started.red, "alice");
    EXPECT_EQ(started.black, "bob");
    EXPECT_EQ(room.status(), Status::Playing);
    EXPECT_EQ(started.clocks.running, std::nullopt);  // no clock runs before the first moves
    EXPECT_EQ(room.deadline(), t0 + 5s + Room::kFirstMoveTime);
    EXPECT_EQ(room.join(Color::Red, "carol", 3, t0).error().code, ErrorCode::AlreadyStarted);
}

// The room keeps only a hash of each seat's token, and each resume replaces the token. The one just
// used keeps working until the new one is used (the new one may have been lost with the connection
// or a killed server); from then on every older token, captured by anyone on the way or not, is dead.
TEST(Room, SeatTokensAreKeptHashedAndRotatedOnResume) {
    Room room("r1", {5min, 0s, {}}, counter());
    const auto red = room.join(Color::Red, "alice", kRed, t0);
    ASSERT_TRUE(red);
    EXPECT_NE(room.seat(Color::Red).token, red->token);
    EXPECT_EQ(room.resume(room.seat(Color::Red).token, 7).error().code, ErrorCode::BadToken);  // the hash is no token
    const auto back = room.resume(red->token, 7);
    ASSERT_TRUE(back);
    EXPECT_NE(back->token, red->token);
    const auto again = room.resume(red->token, 7);  // `back` never arrived: the token held still works
    ASSERT_TRUE(again);
    EXPECT_EQ(room.resume(back->token, 8).error().code, ErrorCode::BadToken);  // replaced unused
    const auto newest = room.resume(again->token, 8);
    ASSERT_TRUE(newest);
    EXPECT_EQ(room.resume(red->token, 9).error().code, ErrorCode::BadToken);  // replayed old token
    const std::string reissued = room.reissue_token(Color::Red);
    EXPECT_EQ(room.resume(newest->token, 9).error().code, ErrorCode::BadToken);
    EXPECT_EQ(room.resume(again->token, 9).error().code, ErrorCode::BadToken);  // a reissue keeps no previous
    EXPECT_TRUE(room.resume(reissued, 9));
}

TEST(Room, FullGameToCheckmateEndsOnceAndCallsTheHook) {
    Table t;
    int ended = 0;
    t.room.set_end_hook([&](const Room& r, TimePoint) {
        ++ended;
        EXPECT_EQ(r.status(), Status::Finished);
        return RatingShifts{};
    });
    t.play("b2b4 a6a5 b4c4 f9e8");
    t.now += 1s;
    const auto done = t.room.move(kRed, 1, 4, "c4c9", t.now);
    ASSERT_TRUE(done);
    ASSERT_EQ(done->events.size(), 2u);
    EXPECT_EQ(body<MoveMade>(done->events[0]).ply, 5);
    const auto& end = body<GameEnded>(done->events[1]);
    EXPECT_EQ(end.result, Result::RedWins);
    EXPECT_EQ(end.reason, Reason::Checkmate);
    EXPECT_EQ(end.ply_count, 5);
    EXPECT_NE(end.explanation.find("checkmated"), std::string::npos);
    EXPECT_EQ(ended, 1);
    EXPECT_EQ(t.room.status(), Status::Finished);
    EXPECT_FALSE(t.room.deadline());
    EXPECT_EQ(t.error_of_move(kBlack, "a5a4"), ErrorCode::GameOver);
    EXPECT_EQ(t.room.resign(kBlack, t.now).error().code, ErrorCode::GameOver);
    EXPECT_EQ(ended, 1);

    const Snapshot snap = t.room.snapshot(t.now + 1h);
    EXPECT_EQ(snap.moves, (std::vector<std::string>{"b2b4", "a6a5", "b4c4", "f9e8", "c4c9"}));
    EXPECT_EQ(snap.start_fen, kStartFen);
    EXPECT_EQ(snap.status, Status::Finished);
    EXPECT_EQ(snap.result, Result::RedWins);
    EXPECT_EQ(snap.reason, Reason::Checkmate);
    // The clocks started with the second move; then a second per move and 2 s back for each but
    // the mate: the clocks stopped there.
    EXPECT_EQ(snap.clocks, (ClockReading{5min, 5min + 1s, {}}));
    EXPECT_EQ(snap.version, done->events.back().version);
}

TEST(Room, RefusesBadMovesWithSpecificErrorsAndChangesNothing) {
    Table t;
    const auto version = t.room.version();
    EXPECT_EQ(t.error_of_move(kOutsider, "h2e2"), ErrorCode::NotAPlayer);
    EXPECT_EQ(t.error_of_move(kBlack, "h7e7"), ErrorCode::NotYourTurn);
    EXPECT_EQ(t.error_of_move(kRed, "h2e2", 3), ErrorCode::StalePosition);
    EXPECT_EQ(t.error_of_move(kRed, "zz9"), ErrorCode::InvalidMoveSyntax);
    EXPECT_EQ(t.error_of_move(kRed, "a0a5"), ErrorCode::IllegalMove);
    EXPECT_EQ(t.room.version(), version);
    EXPECT_EQ(t.room.game().ply_count(), 0);
}

// The protocol's order: NOT_A_PLAYER, GAME_NOT_STARTED, GAME_OVER, STALE_POSITION, NOT_YOUR_TURN,
// INVALID_MOVE_SYNTAX, ILLEGAL_MOVE, BANNED_BY_REPETITION.
TEST(Room, MoveRefusalsComeInTheProtocolsOrder) {
    Room waiting("r2", {5min, 0s, {}}, counter());
    ASSERT_TRUE(waiting.join(Color::Red, "alice", kRed, t0));
    EXPECT_EQ(waiting.move(kOutsider, 1, 7, "zz", t0).error().code, ErrorCode::NotAPlayer);
    EXPECT_EQ(waiting.move(kRed, 1, 7, "zz", t0).error().code, ErrorCode::GameNotStarted);
    Table t;
    // Out of turn and stale at once: stale first, then out of turn, then syntax, then legality.
    EXPECT_EQ(t.error_of_move(kBlack, "zz", 5), ErrorCode::StalePosition);
    EXPECT_EQ(t.error_of_move(kBlack, "zz", 0), ErrorCode::NotYourTurn);
    EXPECT_EQ(t.error_of_move(kRed, "zz", 0), ErrorCode::InvalidMoveSyntax);
    // A fallen flag is GAME_OVER before a stale ply.
    t.now = t0 + 6min;
    EXPECT_EQ(t.error_of_move(kRed, "h2e2", 5), ErrorCode::GameOver);
    ASSERT_TRUE(t.room.resign(kRed, t0 + 1s));
    EXPECT_EQ(t.error_of_move(kBlack, "zz", 5), ErrorCode::GameOver);
}

TEST(Room, AbsentPlayerGraceThenClaim) {
    Table t;
    EXPECT_EQ(t.room.claim(kRed, true, t0).error().code, ErrorCode::ClaimNotAllowed);  // Black is here
    const auto gone = t.room.set_connected(kBlack, false, t0, 10s);
    ASSERT_TRUE(gone);
    EXPECT_EQ(body<PlayerConnection>(gone->front()).grace, 10s);
    EXPECT_EQ(t.room.snapshot(t0 + 4s).seats[1].grace_left, 6s);
    EXPECT_FALSE(t.room.snapshot(t0 + 4s).seats[0].grace_left);
    EXPECT_EQ(t.room.claim(kRed, true, t0 + 9s).error().code, ErrorCode::ClaimNotAllowed);
    EXPECT_EQ(t.room.claim(kOutsider, true, t0 + 11s).error().code, ErrorCode::NotAPlayer);
    EXPECT_EQ(t.room.claim(kBlack, true, t0 + 11s).error().code, ErrorCode::ClaimNotAllowed);  // Red is here
    // Back in time: no claim; away again, a fresh grace period.
    ASSERT_TRUE(t.room.resume(t.room.reissue_token(Color::Black), kBlack));
    EXPECT_EQ(t.room.claim(kRed, true, t0 + 11s).error().code, ErrorCode::ClaimNotAllowed);
    ASSERT_TRUE(t.room.set_connected(kBlack, false, t0 + 12s, 10s));
    EXPECT_EQ(t.room.claim(kRed, false, t0 + 21s).error().code, ErrorCode::ClaimNotAllowed);
    const auto ended = t.room.claim(kRed, true, t0 + 22s);
    ASSERT_TRUE(ended);
    const auto& end = body<GameEnded>(ended->back());
    EXPECT_EQ(end.result, Result::RedWins);
    EXPECT_EQ(end.reason, Reason::Abandonment);
    EXPECT_EQ(t.room.status(), Status::Finished);
}

TEST(Room, ClaimADrawAndAcceptedOffersAreAnnounced) {
    Table t;
    ASSERT_TRUE(t.room.set_connected(kRed, false, t0, 0s));
    const auto drawn = t.room.claim(kBlack, false, t0);
    ASSERT_TRUE(drawn);
    EXPECT_EQ(body<GameEnded>(drawn->back()).result, Result::Draw);

    Table u;
    u.play("h2e2 h9g7");
    ASSERT_TRUE(u.room.request_takeback(kRed));
    const auto taken = u.room.accept_takeback(kBlack, u.now);
    ASSERT_TRUE(taken);
    ASSERT_EQ(taken->size(), 2u);
    EXPECT_TRUE(body<OfferAccepted>((*taken)[0]).takeback);
    EXPECT_EQ(body<OfferAccepted>((*taken)[0]).by, Color::Black);
    EXPECT_EQ(body<TakebackApplied>((*taken)[1]).plies, 2);
    EXPECT_EQ((*taken)[1].version, (*taken)[0].version + 1);
    ASSERT_TRUE(u.room.offer_draw(kRed, u.now));
    const auto agreed = u.room.accept_draw(kBlack, u.now);
    ASSERT_TRUE(agreed);
    EXPECT_FALSE(body<OfferAccepted>(agreed->front()).takeback);
    EXPECT_EQ(body<GameEnded>(agreed->back()).reason, Reason::Agreement);
}

TEST(Room, MoveCapTimeLeftIsInTheClock) {
    Table t({5min, 0s, 30s});
    EXPECT_FALSE(t.room.snapshot(t0 + 10s).clocks.move_left);  // no clock runs yet
    t.play("h2e2 h9g7");  // at t0 + 1s and 2s: Red's clock runs from t0 + 2s
    EXPECT_EQ(t.room.snapshot(t0 + 12s).clocks.move_left, 20s);
    t.play("h0g2");  // at t0 + 3s
    EXPECT_EQ(t.room.snapshot(t0 + 7s).clocks.move_left, 26s);
    Table uncapped;
    EXPECT_FALSE(uncapped.room.snapshot(t0).clocks.move_left);
}

TEST(Room, SpectatorChatIsSignedWithTheirName) {
    Table t;
    ASSERT_TRUE(t.room.add_spectator(kWatcher));
    const auto line = t.room.chat(kWatcher, ChatChannel::Spectators, "hi", "carol");
    EXPECT_EQ(body<ChatLine>(line->front()).from, "carol");
}

TEST(Room, MoveIdsAreExactlyOnce) {
    Table t;
    const auto first = t.room.move(kRed, 42, 0, "h2e2", t0 + 3s);
    ASSERT_TRUE(first);
    EXPECT_FALSE(first->duplicate);
    const auto again = t.room.move(kRed, 42, 0, "h2e2", t0 + 4s);
    ASSERT_TRUE(again);
    EXPECT_TRUE(again->duplicate);
    EXPECT_TRUE(again->events.empty());
    EXPECT_EQ(again->ack.version, first->ack.version);
    EXPECT_EQ(body<MoveMade>(again->ack).move_id, 42u);
    EXPECT_EQ(body<MoveMade>(again->ack).mover, Color::Red);
    EXPECT_EQ(t.room.game().ply_count(), 1);
    // The same id from the other seat is a different move.
    EXPECT_TRUE(t.room.move(kBlack, 42, 1, "h9g7", t0 + 5s));
    EXPECT_EQ(t.room.game().ply_count(), 2);
}

TEST(Room, MoveIdsNeedNotGoUp) {
    // Ids above the highest seen skip the search; lower ones are still checked one by one.
    Table t;
    ASSERT_TRUE(t.room.move(kRed, 50, 0, "h2e2", t0 + 3s));
    ASSERT_TRUE(t.room.move(kBlack, 7, 1, "h9g7", t0 + 4s));
    const auto lower = t.room.move(kRed, 9, 2, "h0g2", t0 + 5s);
    ASSERT_TRUE(lower);
    EXPECT_FALSE(lower->duplicate);
    ASSERT_TRUE(t.room.move(kBlack, 8, 3, "i9h9", t0 + 6s));
    for (MoveId id : {50u, 9u}) {
        const auto again = t.room.move(kRed, id, 4, "b0c2", t0 + 7s);
        ASSERT_TRUE(again);
        EXPECT_TRUE(again->duplicate) << id;
        EXPECT_EQ(body<MoveMade>(again->ack).move_id, id);
    }
    EXPECT_EQ(t.room.game().ply_count(), 4);
}

TEST(Room, AnAcknowledgementOutlivesTheEventLog) {
    Table t;
    const auto first = t.room.move(kRed, 42, 0, "h2e2", t0 + 3s);
    ASSERT_TRUE(first);
    // Enough chat to push the move out of the kept history (events_since can no longer reach it).
    for (std::size_t i = 0; i < Room::kHistory + 10; ++i) ASSERT_TRUE(t.room.chat(kBlack, ChatChannel::Players, "hm"));
    EXPECT_FALSE(t.room.events_since(first->ack.version - 1, Role::Player));
    const auto again = t.room.move(kRed, 42, 0, "h2e2", t0 + 4s);
    ASSERT_TRUE(again);
    EXPECT_TRUE(again->duplicate);
    EXPECT_EQ(again->ack.version, first->ack.version);
    EXPECT_EQ(body<MoveMade>(again->ack).move_id, 42u);
    EXPECT_EQ(body<MoveMade>(again->ack).move, body<MoveMade>(first->ack).move);
    EXPECT_EQ(t.room.game().ply_count(), 1);
}

TEST(Room, StaleExpectedPlyIsRefused) {
    Table t;
    t.play("h2e2 h9g7");
    EXPECT_EQ(t.error_of_move(kRed, "b0c2", 1), ErrorCode::StalePosition);
    EXPECT_EQ(t.room.game().ply_count(), 2);
}

TEST(Room, RefusesAMoveBannedByRepetitionThatABareGamePlays) {
    const Position start = fen("9/9/3k5/R8/3P5/9/9/9/9/4K4 w - - 0 1");
    Table t({5min, 0s, {}}, start);
    t.play("a6a7 d7d8 a7a8 d8d7 a8a7 d7d8 a7a8 d8d7");
    const auto refused = t.room.move(kRed, 1, 8, "a8a7", t.now);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, ErrorCode::BannedByRepetition);
    EXPECT_NE(refused.error().detail.find("may not play a8a7"), std::string::npos) << refused.error().detail;
    EXPECT_EQ(t.room.game().ply_count(), 8);
    EXPECT_EQ(t.room.status(), Status::Playing);

    Game bare(start);
    for (const char* m : {"a6a7", "d7d8", "a7a8", "d8d7", "a8a7", "d7d8", "a7a8", "d8d7", "a8a7"})
        ASSERT_TRUE(bare.play(*parse_iccs(m)));
    EXPECT_EQ(bare.outcome().reason, Reason::PerpetualCheck);
}

TEST(Room, EndsTheGameWhenTheSideToMoveHasOnlyBannedMoves) {
    // Red's one legal move, d2e2, would be its third perpetual check (game_test.cpp): refusing it
    // would leave Red waiting for its flag, so Black's move that leaves Red there ends the game.
    Table t({5min, 0s, {}}, fen("9/9/4k4/9/9/9/9/1cN1RK3/9/3n5 b - - 1 1"));
    t.play("e7d7 e2d2 d7e7 d2e2 e7d7 e2d2");
    t.now += 1s;
    const auto done = t.room.move(kBlack, 1, 6, "d7e7", t.now);
    ASSERT_TRUE(done);
    ASSERT_EQ(done->events.size(), 2u);
    const auto& end = body<GameEnded>(done->events[1]);
    EXPECT_EQ(end.result, Result::BlackWins);
    EXPECT_EQ(end.reason, Reason::PerpetualCheck);
    EXPECT_EQ(end.ply_count, 7);
    EXPECT_NE(end.explanation.find("only legal move, d2e2"), std::string::npos) << end.explanation;
    EXPECT_EQ(t.room.status(), Status::Finished);
    EXPECT_EQ(t.error_of_move(kRed, "d2e2"), ErrorCode::GameOver);
}

TEST(Room, DrawOfferDeclineAcceptAndOwnOffer) {
    Table t;
    EXPECT_EQ(t.room.accept_draw(kBlack, t0).error().code, ErrorCode::NoPendingOffer);
    EXPECT_EQ(t.room.decline_draw(kBlack).error().code, ErrorCode::NoPendingOffer);
    const auto offered = t.room.offer_draw(kRed, t0);
    ASSERT_EQ(offered->size(), 1u);
    EXPECT_EQ(body<DrawOffered>(offered->front()).by, Color::Red);
    EXPECT_TRUE(t.room.offer_draw(kRed, t0)->empty());  // already offered
    EXPECT_EQ(t.room.accept_draw(kRed, t0).error().code, ErrorCode::CannotAnswerOwnOffer);
    EXPECT_EQ(t.room.decline_draw(kRed).error().code, ErrorCode::CannotAnswerOwnOffer);
    EXPECT_EQ(t.room.draw_offer(), Color::Red);
    EXPECT_EQ(t.room.snapshot(t0).draw_offer, Color::Red);
    const auto declined = t.room.decline_draw(kBlack);
    EXPECT_EQ(body<DrawDeclined>(declined->front()).by, Color::Black);
    EXPECT_FALSE(t.room.draw_offer());

    // The offerer's own move keeps the offer; the opponent's move declines it.
    ASSERT_TRUE(t.room.offer_draw(kRed, t0));
    t.play("h2e2");
    EXPECT_EQ(t.room.draw_offer(), Color::Red);
    t.now += 1s;
    const auto reply = t.room.move(kBlack, 1, 1, "h9g7", t.now);
    ASSERT_EQ(reply->events.size(), 2u);
    EXPECT_TRUE(body<DrawDeclined>(reply->events[1]).by_move);
    EXPECT_FALSE(t.room.draw_offer());

    ASSERT_TRUE(t.room.offer_draw(kBlack, t.now));
    const auto agreed = t.room.accept_draw(kRed, t.now);
    ASSERT_TRUE(agreed);
    EXPECT_EQ(body<GameEnded>(agreed->back()).reason, Reason::Agreement);
    EXPECT_EQ(t.room.game().result(), Result::Draw);
}

TEST(Room, CrossedDrawOffersAgree) {
    Table t;
    ASSERT_TRUE(t.room.offer_draw(kBlack, t0));
    const auto agreed = t.room.offer_draw(kRed, t0);
    ASSERT_TRUE(agreed);
    EXPECT_EQ(body<GameEnded>(agreed->back()).reason, Reason::Agreement);
}

TEST(Room, TakebackOfOwnMoveRestoresTheClocks) {
    Table t({5min, 10s, {}});
    EXPECT_EQ(t.room.request_takeback(kRed).error().code, ErrorCode::NothingToTakeBack);
    EXPECT_EQ(t.room.request_takeback(kBlack).error().code, ErrorCode::NothingToTakeBack);
    ASSERT_TRUE(t.room.move(kRed, 1, 0, "h2e2", t0 + 20s));
    EXPECT_EQ(t.room.accept_takeback(kBlack, t0).error().code, ErrorCode::NoPendingOffer);
    const auto asked = t.room.request_takeback(kRed);
    EXPECT_EQ(body<TakebackRequested>(asked->front()).by, Color::Red);
    EXPECT_EQ(t.room.accept_takeback(kRed, t0).error().code, ErrorCode::CannotAnswerOwnOffer);
    EXPECT_EQ(t.room.decline_takeback(kRed).error().code, ErrorCode::CannotAnswerOwnOffer);
    const auto applied = t.room.accept_takeback(kBlack, t0 + 30s);
    ASSERT_TRUE(applied);
    const auto& tb = body<TakebackApplied>(applied->back());
    EXPECT_EQ(tb.plies, 1);
    EXPECT_EQ(tb.ply_count, 0);
    // Back to the start position's times; Red's first move is awaited again from the acceptance.
    EXPECT_EQ(tb.clocks, (ClockReading{5min, 5min, {}, {}, Room::kFirstMoveTime}));
    EXPECT_EQ(t.room.deadline(), t0 + 30s + Room::kFirstMoveTime);
    EXPECT_EQ(t.room.game().ply_count(), 0);
}

TEST(Room, TakebackAfterTheReplyTakesBothMoves) {
    Table t({5min, 0s, {}});
    ASSERT_TRUE(t.room.move(kRed, 1, 0, "h2e2", t0 + 10s));
    ASSERT_TRUE(t.room.move(kBlack, 1, 1, "h9g7", t0 + 30s));
    ASSERT_TRUE(t.room.move(kRed, 2, 2, "h0g2", t0 + 40s));
    ASSERT_TRUE(t.room.move(kBlack, 2, 3, "i9h9", t0 + 70s));
    ASSERT_TRUE(t.room.request_takeback(kRed));  // Red to move: Red's h0g2 and Black's reply
    EXPECT_TRUE(t.room.decline_takeback(kBlack));
    EXPECT_FALSE(t.room.takeback_request());
    ASSERT_TRUE(t.room.request_takeback(kRed));
    const auto applied = t.room.accept_takeback(kBlack, t0 + 80s);
    const auto& tb = body<TakebackApplied>(applied->back());
    EXPECT_EQ(tb.plies, 2);
    EXPECT_EQ(tb.ply_count, 2);
    // The times when the position after both first moves arose: neither first move was charged.
    EXPECT_EQ(tb.clocks, (ClockReading{5min, 5min, Color::Red}));
    EXPECT_EQ(t.room.snapshot(t0 + 80s).moves, (std::vector<std::string>{"h2e2", "h9g7"}));
    // The taken-back move id still answers with its original acknowledgement.
    EXPECT_TRUE(t.room.move(kRed, 2, 2, "h0g2", t0 + 81s)->duplicate);
}

TEST(Room, AMoveCancelsATakebackRequest) {
    Table t;
    t.play("h2e2 h9g7");
    ASSERT_TRUE(t.room.request_takeback(kBlack));  // Red to move, so only Black's h9g7
    t.now += 1s;
    const auto done = t.room.move(kRed, 9, 2, "h0g2", t.now);
    EXPECT_TRUE(body<TakebackDeclined>(done->events.back()).by_move);
    EXPECT_FALSE(t.room.takeback_request());
}

TEST(Room, ResignEndsTheGame) {
    Table t;
    EXPECT_EQ(t.room.resign(kOutsider, t0).error().code, ErrorCode::NotAPlayer);
    const auto done = t.room.resign(kBlack, t0 + 5s);
    const auto& end = body<GameEnded>(done->front());
    EXPECT_EQ(end.result, Result::RedWins);
    EXPECT_EQ(end.reason, Reason::Resignation);
    EXPECT_EQ(t.room.offer_draw(kRed, t0).error().code, ErrorCode::GameOver);
}

TEST(Room, AbortOnlyBeforeBothSidesMoved) {
    Table t;
    bool hooked = false;
    t.room.set_end_hook([&](const Room&, TimePoint) {
        hooked = true;
        return RatingShifts{};
    });
    t.play("h2e2");
    const auto aborted = t.room.abort(kBlack, t.now);
    ASSERT_TRUE(aborted);
    EXPECT_EQ(body<GameAborted>(aborted->front()).by, Color::Black);
    EXPECT_EQ(t.room.status(), Status::Aborted);
    EXPECT_FALSE(t.room.deadline());
    EXPECT_FALSE(hooked);
    EXPECT_EQ(t.error_of_move(kBlack, "h9g7"), ErrorCode::GameOver);

    Table late;
    late.play("h2e2 h9g7");
    EXPECT_EQ(late.room.abort(kRed, late.now).error().code, ErrorCode::AbortTooLate);
    ASSERT_TRUE(late.room.request_takeback(kRed));
    ASSERT_TRUE(late.room.accept_takeback(kBlack, late.now));
    EXPECT_EQ(late.room.abort(kRed, late.now).error().code, ErrorCode::AbortTooLate);
}

TEST(Room, ChatChannelsAudiencesAndLimit) {
    Table t;
    ASSERT_TRUE(t.room.add_spectator(kWatcher));
    const auto said = t.room.chat(kRed, ChatChannel::Players, "good luck");
    const auto& line = body<ChatLine>(said->front());
    EXPECT_EQ(line.channel, ChatChannel::Players);
    EXPECT_EQ(line.from, "alice");
    EXPECT_EQ(said->front().audience, Audience::Everyone);
    const auto gallery = t.room.chat(kWatcher, ChatChannel::Spectators, "red is winning");
    EXPECT_EQ(body<ChatLine>(gallery->front()).channel, ChatChannel::Spectators);
    EXPECT_EQ(gallery->front().audience, Audience::Spectators);
    EXPECT_FALSE(gallery->front().visible_to(Role::Player));
    EXPECT_TRUE(gallery->front().visible_to(Role::Spectator));

    EXPECT_TRUE(t.room.chat(kRed, ChatChannel::Players, std::string(kMaxChatBytes, 'x')));
    const auto version = t.room.version();
    EXPECT_EQ(t.room.chat(kRed, ChatChannel::Players, std::string(kMaxChatBytes + 1, 'x')).error().code, ErrorCode::ChatTooLong);
    EXPECT_EQ(t.room.chat(kOutsider, ChatChannel::Players, "hi").error().code, ErrorCode::NotAPlayer);
    // Each role has its own channel: a spectator cannot speak as a player, nor a player to the gallery.
    EXPECT_EQ(t.room.chat(kWatcher, ChatChannel::Players, "resign!").error().code, ErrorCode::NotAPlayer);
    EXPECT_EQ(t.room.chat(kRed, ChatChannel::Spectators, "psst").error().code, ErrorCode::WrongChatChannel);
    EXPECT_EQ(t.room.version(), version);
}

TEST(Room, ChatLinesRecordTheSpeakersSeatNotItsName) {
    // Black took Red's name: the name cannot tell them apart, the recorded seat can.
    Room room("r1", {5min, 0s, {}}, counter());
    ASSERT_TRUE(room.join(Color::Red, "alice", kRed, t0));
    ASSERT_TRUE(room.join(Color::Black, "alice", kBlack, t0));
    const auto black = room.chat(kBlack, ChatChannel::Players, "I am Red, honest");
    ASSERT_TRUE(black);
    EXPECT_EQ(body<ChatLine>(black->front()).side, Color::Black);
    EXPECT_EQ(body<ChatLine>(room.chat(kRed, ChatChannel::Players, "no")->front()).side, Color::Red);
    ASSERT_TRUE(room.add_spectator(kWatcher));
    EXPECT_FALSE(body<ChatLine>(room.chat(kWatcher, ChatChannel::Spectators, "ha")->front()).side);
}

// What a snapshot's chat is made of: the last kChatKept lines of each channel, in the order said,
// with the spectators' channel kept from the players.
TEST(Room, RecentChatKeepsTheLastLinesOfEachChannel) {
    Table t;
    ASSERT_TRUE(t.room.add_spectator(kWatcher));
    const auto texts = [&](Role role) {
        std::vector<std::string> out;
        for (const Event& e : t.room.recent_chat(role)) out.push_back(body<ChatLine>(e).text);
        return out;
    };
    ASSERT_TRUE(t.room.chat(kRed, ChatChannel::Players, "p0"));
    const std::size_t extra = 4;
    for (std::size_t i = 0; i < Room::kChatKept + extra; ++i)
        ASSERT_TRUE(t.room.chat(kWatcher, ChatChannel::Spectators, "s" + std::to_string(i)));
    ASSERT_TRUE(t.room.chat(kBlack, ChatChannel::Players, "p1"));
    EXPECT_EQ(texts(Role::Player), (std::vector<std::string>{"p0", "p1"}));
    const auto gallery = texts(Role::Spectator);
    ASSERT_EQ(gallery.size(), Room::kChatKept + 2);
    EXPECT_EQ(gallery.front(), "p0");  // the players' old line outlived the spectators' flood
    EXPECT_EQ(gallery[1], "s" + std::to_string(extra));
    EXPECT_EQ(gallery.back(), "p1");
    // Refused lines are not kept.
    EXPECT_FALSE(t.room.chat(kRed, ChatChannel::Spectators, "psst"));
    EXPECT_EQ(texts(Role::Spectator).size(), Room::kChatKept + 2);

    for (std::size_t i = 0; i < Room::kChatKept; ++i)
        ASSERT_TRUE(t.room.chat(kRed, ChatChannel::Players, "x"));
    EXPECT_EQ(texts(Role::Player).size(), Room::kChatKept);
    EXPECT_EQ(texts(Role::Spectator).size(), 2 * Room::kChatKept);
}

TEST(Room, SpectatorsAreCounted) {
    Table t;
    EXPECT_EQ(body<SpectatorCount>(t.room.add_spectator(kWatcher)->front()).count, 1u);
    EXPECT_TRUE(t.room.add_spectator(kWatcher)->empty());
    EXPECT_EQ(body<SpectatorCount>(t.room.add_spectator(8)->front()).count, 2u);
    EXPECT_EQ(t.room.add_spectator(kRed).error().code, ErrorCode::AlreadySeated);
    EXPECT_EQ(t.room.snapshot(t0).spectators, 2u);
    EXPECT_EQ(body<SpectatorCount>(t.room.remove_spectator(kWatcher)->front()).count, 1u);
    EXPECT_TRUE(t.room.remove_spectator(kWatcher)->empty());
}

TEST(Room, DisconnectAndResumeWithTheToken) {
    Room room("r1", {5min, 0s, {}}, counter());
    const auto red = room.join(Color::Red, "alice", kRed, t0);
    ASSERT_TRUE(room.join(Color::Black, "bob", kBlack, t0));
    const auto gone = room.set_connected(kRed, false);
    EXPECT_EQ(body<PlayerConnection>(gone->front()).connected, false);
    EXPECT_FALSE(room.snapshot(t0).seats[0].connected);
    EXPECT_EQ(room.set_connected(kOutsider, false).error().code, ErrorCode::NotAPlayer);

    EXPECT_EQ(room.resume("00000000000000000000000000000000", 50).error().code, ErrorCode::BadToken);
    const auto back = room.resume(red->token, 50);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->color, Color::Red);
    EXPECT_TRUE(body<PlayerConnection>(back->events.front()).connected);
    EXPECT_TRUE(room.snapshot(t0).seats[0].connected);
    EXPECT_TRUE(room.move(50, 1, 0, "h2e2", t0 + 1s));
    EXPECT_EQ(room.move(kRed, 2, 1, "h9g7", t0 + 1s).error().code, ErrorCode::NotAPlayer);
}

TEST(Room, EventVersionsAndEventsSince) {
    Table t;
    ASSERT_TRUE(t.room.add_spectator(kWatcher));
    const auto v = t.room.version();
    EXPECT_EQ(v, 1u);  // the start; joins and spectator counts are unversioned notices
    t.play("h2e2");
    const auto spectator_line = t.room.chat(kWatcher, ChatChannel::Spectators, "nice");
    ASSERT_TRUE(spectator_line);
    EXPECT_EQ(spectator_line->front().version, 0u);  // not part of the game's history
    const auto gone = t.room.set_connected(kBlack, false, t.now, 5s);
    EXPECT_EQ(gone->front().version, 0u);
    ASSERT_TRUE(t.room.resume(t.room.reissue_token(Color::Black), kBlack));
    t.play("h9g7");
    const auto for_players = t.room.events_since(v, Role::Player);
    ASSERT_TRUE(for_players);
    ASSERT_EQ(for_players->size(), 2u);
    EXPECT_EQ((*for_players)[0].version, v + 1);
    EXPECT_EQ((*for_players)[1].version, v + 2);  // contiguous: the notices took no version
    EXPECT_EQ(t.room.events_since(v, Role::Spectator)->size(), 2u);
    EXPECT_TRUE(t.room.events_since(t.room.version(), Role::Player)->empty());
    EXPECT_EQ(t.room.events_since(0, Role::Player)->size(), 3u);
    EXPECT_FALSE(t.room.events_since(t.room.version() + 1, Role::Player));  // from the future

    for (std::size_t i = 0; i < Room::kHistory; ++i) ASSERT_TRUE(t.room.chat(kRed, ChatChannel::Players, "spam"));
    EXPECT_FALSE(t.room.events_since(v, Role::Player));  // too old: take a snapshot
    const auto recent = t.room.events_since(t.room.version() - Room::kHistory, Role::Player);
    ASSERT_TRUE(recent);
    EXPECT_EQ(recent->size(), Room::kHistory);
    EXPECT_EQ(t.room.snapshot(t.now).version, t.room.version());
}

TEST(Room, SnapshotOfALiveGame) {
    Table t({5min, 0s, {}});
    t.play("h2e2");
    ASSERT_TRUE(t.room.request_takeback(kRed));
    const Snapshot snap = t.room.snapshot(t0 + 11s);
    EXPECT_EQ(snap.id, "r1");
    EXPECT_EQ(snap.status, Status::Playing);
    EXPECT_EQ(snap.moves, std::vector<std::string>{"h2e2"});
    // Black's first move is awaited since t0 + 1s; no clock has run.
    EXPECT_EQ(snap.clocks, (ClockReading{5min, 5min, {}, {}, Room::kFirstMoveTime - 10s}));
    EXPECT_EQ(snap.seats[0].name, "alice");
    EXPECT_EQ(snap.seats[1].name, "bob");
    EXPECT_TRUE(snap.seats[1].connected);
    EXPECT_EQ(snap.takeback_request, Color::Red);
    EXPECT_EQ(snap.result, Result::Ongoing);
    EXPECT_EQ(snap.time_control, (TimeControl{5min, 0s, {}}));
}

TEST(ErrorCode, EveryCodeHasADistinctName) {
    std::set<std::string_view> names;
    for (int i = 0; i <= static_cast<int>(ErrorCode::WrongJoinCode); ++i) {
        const auto name = code_name(static_cast<ErrorCode>(i));
        EXPECT_FALSE(name.empty());
        names.insert(name);
    }
    EXPECT_EQ(names.size(), static_cast<std::size_t>(ErrorCode::WrongJoinCode) + 1);
    EXPECT_EQ(code_name(ErrorCode::BannedByRepetition), "banned_by_repetition");
}

}  // namespace
}  // namespace xq::server
