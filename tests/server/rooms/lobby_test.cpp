// Lobby: creating and joining games (public and private), quick-match pairing, listings, due
// clocks, cancelling before the start, and the archive record of each finished game.

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "common/fen.h"
#include "server/rooms/lobby.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

const TimePoint t0 = TimePoint{} + 1000h;
const WallTime wall0 = std::chrono::sys_days{std::chrono::year{2026} / 3 / 14} + 10h;
const TimeControl kBlitz{5min, 3s, {}};
const TimeControl kRapid{15min, 10s, {}};

struct LobbyTest : ::testing::Test {
    Lobby lobby{[this] { return ++draws; }, [this] { return wall; },
                [this](const FinishedGame& g) {
                    archived.push_back(g);
                    return RatingShifts{};
                }};
    std::uint64_t draws = 0;  // the random source: 1, 2, 3, ...
    WallTime wall = wall0;
    std::vector<FinishedGame> archived;

    Created create(ParticipantId who, ColorChoice color = ColorChoice::Red, bool is_private = false) {
        auto made = lobby.create({"player" + std::to_string(who), who, kBlitz, color, is_private}, t0);
        EXPECT_TRUE(made);
        return *made;
    }
};

TEST_F(LobbyTest, PublicGameIsListedThenJoinedAndLive) {
    const Created game = create(1, ColorChoice::Black);
    EXPECT_EQ(game.color, Color::Black);
    EXPECT_EQ(game.id.size(), 12u);
    EXPECT_FALSE(game.join_code);
    ASSERT_EQ(lobby.open_games(5).size(), 1u);
    const GameListing open = lobby.open_games(5).front();
    EXPECT_EQ(open.id, game.id);
    EXPECT_EQ(open.black, "player1");
    EXPECT_EQ(open.red, "");
    EXPECT_EQ(open.time_control, kBlitz);
    EXPECT_TRUE(lobby.live_games(5).empty());

    const auto seated = lobby.join(game.id, "player2", 2, "", t0 + 1s);
    ASSERT_TRUE(seated);
    EXPECT_EQ(seated->joined.color, Color::Red);
    EXPECT_EQ(lobby.find(game.id)->status(), Status::Playing);
    EXPECT_TRUE(lobby.open_games(5).empty());
    ASSERT_EQ(lobby.live_games(5).size(), 1u);
    EXPECT_EQ(lobby.live_games(5).front().red, "player2");

    EXPECT_EQ(lobby.join(game.id, "player3", 3, "", t0).error().code, ErrorCode::AlreadyStarted);
    EXPECT_EQ(lobby.join("nope", "player3", 3, "", t0).error().code, ErrorCode::NoSuchGame);
    EXPECT_FALSE(lobby.find("nope"));
    EXPECT_EQ(lobby.cancel_game(game.id, 1).error().code, ErrorCode::AlreadyStarted);
}

// A live game listed at a time carries what a lobby draws it from: the position, the last move and
// the clocks, as its spectators see them (so a delayed game's board does not run ahead).
TEST_F(LobbyTest, LiveListingCarriesThePositionAndClocksSpectatorsSee) {
    const Created game = create(1);  // player1 is Red
    ASSERT_TRUE(lobby.join(game.id, "player2", 2, "", t0));
    Room& room = *lobby.find(game.id);
    EXPECT_EQ(lobby.live_games(5, t0 + 1s).front().fen, kStartFen);
    EXPECT_EQ(lobby.live_games(5, t0 + 1s).front().last_move, "");
    ASSERT_TRUE(room.move(1, 1, 0, "h2e2", t0 + 2s));
    ASSERT_TRUE(room.move(2, 1, 1, "h9g7", t0 + 4s));

    EXPECT_EQ(lobby.live_games(5).front().fen, "");  // listed without a time: names and counts only
    EXPECT_FALSE(lobby.live_games(5).front().clocks);
    const GameListing live = lobby.live_games(5, t0 + 10s).front();
    EXPECT_EQ(live.fen, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    EXPECT_EQ(live.fen, to_fen(room.game().position()));
    EXPECT_EQ(live.last_move, "h9g7");
    ASSERT_TRUE(live.clocks);
    EXPECT_EQ(live.clocks->running, Color::Red);  // Red's clock runs from t0 + 4s
    EXPECT_EQ(*live.clocks, room.reading(t0 + 10s));
    EXPECT_LT(live.clocks->red, lobby.live_games(5, t0 + 5s).front().clocks->red);

    // One ply of delay: the board after h2e2, the clocks stopped as they stood then.
    auto delayed = lobby.create({"player3", 3, kBlitz, ColorChoice::Red, false, false, 1}, t0);
    ASSERT_TRUE(delayed);
    ASSERT_TRUE(lobby.join(delayed->id, "player4", 4, "", t0));
    Room& slow = *lobby.find(delayed->id);
    ASSERT_TRUE(slow.move(3, 1, 0, "h2e2", t0 + 2s));
    ASSERT_TRUE(slow.move(4, 1, 1, "h9g7", t0 + 4s));
    for (const GameListing& l : lobby.live_games(5, t0 + 10s)) {
        if (l.id != delayed->id) continue;
        EXPECT_EQ(l.fen, to_fen(slow.game().positions()[1]));
        EXPECT_EQ(l.last_move, "h2e2");
        ASSERT_TRUE(l.clocks);
        EXPECT_FALSE(l.clocks->running);
        EXPECT_EQ(*l.clocks, slow.snapshot(t0 + 10s, Role::Spectator).clocks);
    }
}

TEST_F(LobbyTest, JoiningYourOwnGameIsRefused) {
    const Created game = create(1);
    EXPECT_EQ(lobby.join(game.id, "me", 1, "", t0).error().code, ErrorCode::AlreadySeated);
}

TEST_F(LobbyTest, RandomColourComesFromTheInjectedSource) {
    // The counter's first draw is 1 (odd): Black. The room id takes the next draws.
    EXPECT_EQ(create(1, ColorChoice::Random).color, Color::Black);
}

TEST_F(LobbyTest, PrivateGameNeedsItsCodeAndIsListedOnlyToItsPlayers) {
    const Created game = create(1, ColorChoice::Red, true);
    ASSERT_TRUE(game.join_code);
    EXPECT_EQ(game.join_code->size(), 6u);
    EXPECT_TRUE(lobby.open_games(2).empty());
    ASSERT_EQ(lobby.open_games(1).size(), 1u);
    EXPECT_TRUE(lobby.open_games(1).front().is_private);

    EXPECT_EQ(lobby.join(game.id, "player2", 2, "WRONG1", t0).error().code, ErrorCode::WrongJoinCode);
    EXPECT_EQ(lobby.find(game.id)->status(), Status::Waiting);
    ASSERT_TRUE(lobby.join(game.id, "player2", 2, *game.join_code, t0));
    EXPECT_TRUE(lobby.live_games(3).empty());
    EXPECT_EQ(lobby.live_games(2).size(), 1u);

    EXPECT_EQ(lobby.watch(game.id, 3, "").error().code, ErrorCode::WrongJoinCode);
    EXPECT_TRUE(lobby.watch(game.id, 3, *game.join_code));
    EXPECT_EQ(lobby.find(game.id)->spectator_count(), 1u);
    EXPECT_EQ(lobby.watch("nope", 3, "").error().code, ErrorCode::NoSuchGame);
}

TEST_F(LobbyTest, QuickMatchPairsEqualTimeControls) {
    const auto first = lobby.quick_match("ann", 1, kBlitz, t0);
    ASSERT_TRUE(first);
    EXPECT_FALSE(*first);
    EXPECT_TRUE(lobby.is_waiting(1));
    EXPECT_EQ(lobby.quick_match("ann", 1, kBlitz, t0).error().code, ErrorCode::AlreadySeated);
    EXPECT_FALSE(*lobby.quick_match("rapid", 2, kRapid, t0));  // a different control waits too
    EXPECT_EQ(lobby.room_count(), 0u);

    const auto paired = lobby.quick_match("ben", 3, kBlitz, t0 + 1s);
    ASSERT_TRUE(paired);
    ASSERT_TRUE(*paired);
    const Match& m = **paired;
    EXPECT_FALSE(lobby.is_waiting(1));
    EXPECT_TRUE(lobby.is_waiting(2));
    EXPECT_EQ(std::set<ParticipantId>({m.red, m.black}), std::set<ParticipantId>({1, 3}));
    EXPECT_EQ(m.red_token.size(), 32u);
    EXPECT_NE(m.red_token, m.black_token);
    const Room* room = lobby.find(m.id);
    ASSERT_TRUE(room);
    EXPECT_EQ(room->status(), Status::Playing);
    EXPECT_EQ(room->time_control(), kBlitz);
    EXPECT_EQ(room->seat_of(m.red), Color::Red);
    EXPECT_TRUE(std::holds_alternative<GameStarted>(m.events.back().body));
    // The tokens resume the seats.
    EXPECT_EQ(lobby.resume(m.id, m.black_token, 40)->color, Color::Black);
    EXPECT_EQ(lobby.resume(m.id, "bad", 41).error().code, ErrorCode::BadToken);
    EXPECT_EQ(lobby.resume("nope", m.black_token, 41).error().code, ErrorCode::NoSuchGame);
}

TEST_F(LobbyTest, LeavingBeforeTheStart) {
    ASSERT_TRUE(lobby.quick_match("ann", 1, kBlitz, t0));
    EXPECT_TRUE(lobby.cancel_quick_match(1));
    EXPECT_FALSE(lobby.is_waiting(1));
    EXPECT_EQ(lobby.cancel_quick_match(1).error().code, ErrorCode::NotAPlayer);

    const Created game = create(1);
    EXPECT_EQ(lobby.cancel_game(game.id, 2).error().code, ErrorCode::NotAPlayer);
    EXPECT_TRUE(lobby.cancel_game(game.id, 1));
    EXPECT_EQ(lobby.room_count(), 0u);
    EXPECT_EQ(lobby.cancel_game(game.id, 1).error().code, ErrorCode::NoSuchGame);
}

TEST_F(LobbyTest, DueRoomsAndTheNextDeadline) {
    const Created a = create(1);
    EXPECT_FALSE(lobby.next_deadline());  // not started: no clock runs
    ASSERT_TRUE(lobby.join(a.id, "p2", 2, "", t0));
    const Created b = create(3);
    ASSERT_TRUE(lobby.join(b.id, "p4", 4, "", t0 + 1min));
    // Deadlines are first-move deadlines until both sides have moved, then flag falls.
    EXPECT_EQ(lobby.next_deadline(), t0 + 30s);
    EXPECT_TRUE(lobby.due(t0 + 29s).empty());
    EXPECT_EQ(lobby.due(t0 + 30s), std::vector<RoomId>{a.id});
    Room& room_b = *lobby.find(b.id);
    ASSERT_TRUE(room_b.move(3, 1, 0, "h2e2", t0 + 70s));
    ASSERT_TRUE(room_b.move(4, 1, 1, "h9g7", t0 + 80s));  // Red's clock runs from t0 + 80s
    EXPECT_EQ(lobby.next_deadline(), t0 + 30s);
    EXPECT_EQ(lobby.due(t0 + 7min).size(), 2u);
    for (const RoomId& id : lobby.due(t0 + 7min)) ASSERT_TRUE(lobby.find(id)->check_flag(t0 + 7min));
    EXPECT_TRUE(lobby.due(t0 + 7min).empty());
    EXPECT_EQ(lobby.find(a.id)->status(), Status::Aborted);  // nobody moved: no result, no archive
    EXPECT_EQ(room_b.status(), Status::Finished);            // Red flagged
    EXPECT_EQ(archived.size(), 1u);
}

TEST_F(LobbyTest, FinishedGameIsArchivedOnceWithItsRecord) {
    lobby.set_site("Club");
    const Created game = create(1);  // player1 is Red
    ASSERT_TRUE(lobby.join(game.id, "player2", 2, "", t0));
    Room& room = *lobby.find(game.id);
    ASSERT_TRUE(room.move(1, 1, 0, "h2e2", t0 + 2s));
    ASSERT_TRUE(room.move(2, 1, 1, "h9g7", t0 + 4s));
    wall = wall0 + 90s;
    ASSERT_TRUE(room.resign(2, t0 + 90s));
    EXPECT_FALSE(room.resign(1, t0 + 91s));
    ASSERT_EQ(archived.size(), 1u);

    const FinishedGame& g = archived.front();
    EXPECT_EQ(g.id, game.id);
    EXPECT_EQ(g.red, "player1");
    EXPECT_EQ(g.black, "player2");
    EXPECT_EQ(g.time_control, kBlitz);
    EXPECT_EQ(g.start_fen, kStartFen);
    EXPECT_EQ(g.moves, (std::vector<std::string>{"h2e2", "h9g7"}));
    EXPECT_EQ(g.result, Result::RedWins);
    EXPECT_EQ(g.reason, Reason::Resignation);
    EXPECT_FALSE(g.explanation.empty());
    EXPECT_EQ(g.ended_at, wall0 + 90s);
    EXPECT_EQ(g.started_at, wall0);
    for (const char* part : {"[Red \"player1\"]", "[Black \"player2\"]", "[Result \"1-0\"]",
                             "[Date \"2026.03.14\"]", "[TimeControl \"300+3\"]", "[Site \"Club\"]",
                             "[Termination \"resignation\"]", "1-0"})
        EXPECT_NE(g.pgn.find(part), std::string::npos) << part << " in\n" << g.pgn;

    EXPECT_EQ(lobby.live_games(1).size(), 0u);
    EXPECT_EQ(lobby.remove_ended(), 1u);
    EXPECT_FALSE(lobby.find(game.id));
}

TEST_F(LobbyTest, AbortedGameIsNotArchived) {
    const Created game = create(1);
    ASSERT_TRUE(lobby.join(game.id, "player2", 2, "", t0));
    ASSERT_TRUE(lobby.find(game.id)->abort(2, t0 + 1s));
    EXPECT_TRUE(archived.empty());
    EXPECT_EQ(lobby.remove_ended(), 1u);
}

TEST_F(LobbyTest, EndedRoomsStayUntilTheCutoff) {
    const Created ended = create(1);
    ASSERT_TRUE(lobby.join(ended.id, "player2", 2, "", t0));
    ASSERT_TRUE(lobby.find(ended.id)->abort(2, t0 + 10s));
    const Created playing = create(3);
    ASSERT_TRUE(lobby.join(playing.id, "player4", 4, "", t0));
    EXPECT_TRUE(lobby.remove_ended_before(t0 + 9s).empty());  // ended after the cutoff: kept
    EXPECT_EQ(lobby.remove_ended_before(t0 + 10s), (std::vector<RoomId>{ended.id}));
    EXPECT_FALSE(lobby.find(ended.id));
    EXPECT_TRUE(lobby.find(playing.id));  // a live game is never removed
}

// A host who dropped while waiting: the game leaves the list at once, and the lobby itself once
// the host's grace period has run out without a resume.
TEST_F(LobbyTest, AWaitingGameWhoseHostLeftIsHiddenThenRemoved) {
    const Created game = create(1);
    const Created other = create(2);
    ASSERT_TRUE(lobby.find(game.id)->set_connected(1, false, t0 + 1s, 60s));
    ASSERT_EQ(lobby.open_games(5).size(), 1u);
    EXPECT_EQ(lobby.open_games(5).front().id, other.id);
    EXPECT_TRUE(lobby.remove_abandoned(t0 + 60s).empty());  // 1 s of grace left
    const auto removed = lobby.remove_abandoned(t0 + 61s);
    ASSERT_EQ(removed.size(), 1u);
    EXPECT_EQ(removed.front().id, game.id);
    EXPECT_EQ(removed.front().version, 0u);
    EXPECT_FALSE(lobby.find(game.id));
    EXPECT_TRUE(lobby.find(other.id));
    EXPECT_EQ(lobby.join(game.id, "player3", 3, "", t0 + 62s).error().code, ErrorCode::NoSuchGame);
}

TEST_F(LobbyTest, AHostWhoCameBackInTimeKeepsTheGame) {
    const Created game = create(1);
    Room& room = *lobby.find(game.id);
    ASSERT_TRUE(room.set_connected(1, false, t0, 60s));
    ASSERT_TRUE(room.resume(game.token, 7));
    EXPECT_TRUE(lobby.remove_abandoned(t0 + 120s).empty());
    EXPECT_EQ(lobby.open_games(5).size(), 1u);
}

// Joining a game whose host is away (by its id, within the grace) starts the host's grace anew:
// the joiner cannot claim a win for time the host spent waiting for anyone.
TEST_F(LobbyTest, JoiningAnAwayHostsGameGivesTheHostAFreshGrace) {
    const Created game = create(1);
    ASSERT_TRUE(lobby.find(game.id)->set_connected(1, false, t0, 60s));
    ASSERT_TRUE(lobby.join(game.id, "player2", 2, "", t0 + 59s));
    Room& room = *lobby.find(game.id);
    EXPECT_EQ(room.grace_left(Color::Red, t0 + 59s), Millis{60000});
    EXPECT_EQ(room.claim(2, true, t0 + 70s).error().code, ErrorCode::ClaimNotAllowed);
    EXPECT_TRUE(room.claim(2, true, t0 + 119s));
}

TEST_F(LobbyTest, SeekingAQuickMatchOneCannotAlsoJoinAGame) {
    const Created game = create(1);
    ASSERT_TRUE(lobby.quick_match("player2", 2, kRapid, t0));
    EXPECT_EQ(lobby.join(game.id, "player2", 2, "", t0).error().code, ErrorCode::AlreadySeated);
    EXPECT_EQ(lobby.find(game.id)->status(), Status::Waiting);
    ASSERT_TRUE(lobby.cancel_quick_match(2));
    EXPECT_TRUE(lobby.join(game.id, "player2", 2, "", t0));
}

// The joiner of a private game was never told its code; watching its own game resynchronises.
TEST_F(LobbyTest, APlayerOfAPrivateGameWatchesItWithoutTheCode) {
    const Created game = create(1, ColorChoice::Red, true);
    ASSERT_TRUE(lobby.join(game.id, "player2", 2, *game.join_code, t0));
    EXPECT_TRUE(lobby.watch(game.id, 2, ""));
    EXPECT_EQ(lobby.watch(game.id, 3, "").error().code, ErrorCode::WrongJoinCode);
}

}  // namespace
}  // namespace xq::server

namespace xq::server {
namespace {

// Rated seeks (lobby.h): a partner within the waiter's range pairs at once; one outside waits
// while the ranges widen (150 points, 50 more every 5 s, any rating after 60 s), and is paired by
// pair_widened_seeks when the timer comes; a casual seek never pairs with a rated one; nobody is
// paired twice and no seek is lost.
TEST_F(LobbyTest, RatedSeeksPairByARangeThatWidens) {
    EXPECT_EQ(seek_range(0ms), 150);
    EXPECT_EQ(seek_range(4999ms), 150);
    EXPECT_EQ(seek_range(5s), 200);
    EXPECT_EQ(seek_range(55s), 700);
    EXPECT_TRUE(std::isinf(seek_range(60s)));

    ASSERT_FALSE(*lobby.seek({"ann", 1, kBlitz, true, 1500}, t0));
    ASSERT_FALSE(*lobby.seek({"cas", 2, kBlitz, false, 0}, t0));  // casual: not ann's partner
    ASSERT_FALSE(*lobby.seek({"far", 3, kBlitz, true, 1900}, t0));  // 400 points from ann: waits
    const auto near = lobby.seek({"ben", 4, kBlitz, true, 1640}, t0 + 1s);  // within ann's 150
    ASSERT_TRUE(near && *near);
    EXPECT_EQ(std::set({(*near)->red, (*near)->black}), std::set<ParticipantId>({1, 4}));
    EXPECT_TRUE(lobby.find((*near)->id)->rated());

    // far waits alone among rated seeks: nothing to widen towards.
    EXPECT_FALSE(lobby.next_seek_widening(t0 + 2s));
    ASSERT_FALSE(*lobby.seek({"low", 5, kBlitz, true, 1450}, t0 + 2s));  // 450 from far
    EXPECT_EQ(lobby.next_seek_widening(t0 + 2s), t0 + 5s);
    EXPECT_TRUE(lobby.pair_widened_seeks(t0 + 29s).empty());  // far's range is 400 at 29 s...
    const auto widened = lobby.pair_widened_seeks(t0 + 30s);  // ...and 450 at 30 s: low is in
    ASSERT_EQ(widened.size(), 1u);
    EXPECT_EQ(std::set({widened[0].red, widened[0].black}), std::set<ParticipantId>({3, 5}));
    EXPECT_TRUE(lobby.is_waiting(2));  // the casual seek is still there
    EXPECT_FALSE(lobby.is_waiting(3) || lobby.is_waiting(5) || lobby.is_waiting(1) || lobby.is_waiting(4));
    const auto casual = lobby.seek({"cat", 6, kBlitz, false, 0}, t0 + 36s);
    ASSERT_TRUE(casual && *casual);
    EXPECT_FALSE(lobby.find((*casual)->id)->rated());
}

}  // namespace
}  // namespace xq::server
