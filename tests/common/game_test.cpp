// Game: results and their explanations, the no-capture limit and its check cap, insufficient
// material, the players' endings, banned moves and takebacks.

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "common/fen.h"
#include "common/game.h"
#include "common/iccs.h"
#include "common/movegen.h"

namespace xq {
namespace {

Position fen(std::string_view text) {
    const auto pos = parse_fen(text);
    EXPECT_TRUE(pos) << text;
    return pos ? *pos : Position::start();
}

Move mv(std::string_view text) { return *parse_iccs(text); }

void play_all(Game& game, const std::string& moves) {
    std::istringstream in(moves);
    for (std::string word; in >> word;) {
        const auto played = game.play(mv(word));
        ASSERT_TRUE(played) << word << ": " << played.error().message;
    }
}

// R2 of the spec: Red checks with the chariot on every move of the cycle.
constexpr const char* kPerpetualCheckFen = "9/9/3k5/R8/3P5/9/9/9/9/4K4 w - - 0 1";
constexpr const char* kPerpetualCheckMoves = "a6a7 d7d8 a7a8 d8d7 a8a7 d7d8 a7a8 d8d7";  // a8a7 completes it

TEST(Game, StartsOngoing) {
    const Game game;
    EXPECT_FALSE(game.is_over());
    EXPECT_EQ(game.result(), Result::Ongoing);
    EXPECT_EQ(game.position(), Position::start());
    EXPECT_TRUE(game.moves().empty());
    EXPECT_TRUE(game.banned_moves().empty());
}

TEST(Game, RefusesIllegalMoves) {
    Game game;
    const auto played = game.play(mv("a0a5"));
    ASSERT_FALSE(played);
    EXPECT_EQ(played.error().code, PlayErrorCode::IllegalMove);
    EXPECT_EQ(code_name(played.error().code), "illegal_move");
    EXPECT_TRUE(game.moves().empty());
}

TEST(Game, CheckmateEndsTheGame) {
    Game game(fen("3k5/9/R8/9/9/9/9/9/9/4K4 w"));
    ASSERT_TRUE(game.play(mv("a7d7")));
    EXPECT_TRUE(game.is_over());
    EXPECT_EQ(game.result(), Result::RedWins);
    EXPECT_EQ(game.outcome().reason, Reason::Checkmate);
    EXPECT_EQ(game.outcome().explanation, "Red wins: Black is checkmated.");
    EXPECT_EQ(game.outcome().ply, 1);
    const auto refused = game.play(mv("d9e9"));
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, PlayErrorCode::GameOver);
}

TEST(Game, StalemateLosesForTheSideToMove) {
    const Game game(fen("3k5/R8/9/9/9/9/9/9/9/4K4 b"));
    EXPECT_EQ(game.result(), Result::RedWins);
    EXPECT_EQ(game.outcome().reason, Reason::Stalemate);
    EXPECT_EQ(game.outcome().explanation, "Red wins: Black has no legal move (stalemate).");
}

TEST(Game, PerpetualCheckExplainedWithItsPlies) {
    Game game(fen(kPerpetualCheckFen));
    play_all(game, kPerpetualCheckMoves);
    ASSERT_FALSE(game.is_over());
    ASSERT_TRUE(game.play(mv("a8a7")));
    EXPECT_EQ(game.result(), Result::BlackWins);
    EXPECT_EQ(game.outcome().reason, Reason::PerpetualCheck);
    EXPECT_EQ(to_string(game.outcome().reason), "perpetual_check");
    EXPECT_EQ(game.outcome().explanation, "Red loses: perpetual check, moves 2\u20135.");
    EXPECT_EQ(game.outcome().plies, (std::vector<int>{3, 5, 7, 9}));
    EXPECT_EQ(game.outcome().ply, 9);
}

TEST(Game, PerpetualChaseExplanationNamesThePiece) {
    Game game(fen("2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1"));
    play_all(game, "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2");
    EXPECT_EQ(game.result(), Result::BlackWins);
    EXPECT_EQ(game.outcome().explanation, "Red loses: perpetual chase of the black chariot, moves 2\u20135.");
    EXPECT_EQ(game.outcome().plies, (std::vector<int>{3, 5, 7, 9}));
}

TEST(Game, MoveNumbersFollowTheStartFen) {
    Game game(fen("9/9/3k5/R8/3P5/9/9/9/9/4K4 w - - 0 31"));
    play_all(game, std::string(kPerpetualCheckMoves) + " a8a7");
    EXPECT_EQ(game.outcome().explanation, "Red loses: perpetual check, moves 32\u201335.");
}

TEST(Game, BannedMovesNameTheForbiddenMove) {
    Game game(fen(kPerpetualCheckFen));
    play_all(game, kPerpetualCheckMoves);
    const auto banned = game.banned_moves();
    ASSERT_EQ(banned.size(), 1u);
    EXPECT_EQ(banned[0].move, mv("a8a7"));
    EXPECT_EQ(banned[0].reason, Reason::PerpetualCheck);
    EXPECT_EQ(banned[0].explanation,
              "Red may not play a8a7: it would repeat the position a third time with perpetual check, moves "
              "2\u20135.");
    EXPECT_TRUE(game.ban_for(mv("a8a7")));
    EXPECT_FALSE(game.ban_for(mv("a8b8")));
    // The victim's moves are never banned: after a8a7 would be played Black has nothing to fear.
    ASSERT_TRUE(game.play(mv("a8b8")));
    EXPECT_TRUE(game.banned_moves().empty());
}

// Red's chariot checks from d2 and e2 while Black's general steps between d7 and e7. At d2 the
// chariot may not leave rank 2 (the cannon on b2 would check through the horse), the horse is
// pinned and the general has no square: its one legal move, d2e2, would be the third perpetual check.
constexpr const char* kBannedOutFen = "9/9/4k4/9/9/9/9/1cN1RK3/9/3n5 b - - 1 1";
constexpr const char* kBannedOutMoves = "e7d7 e2d2 d7e7 d2e2 e7d7 e2d2 d7e7";

TEST(Game, ASideWhoseEveryMoveIsBannedLoses) {
    Game game(fen(kBannedOutFen));
    play_all(game, kBannedOutMoves);
    EXPECT_EQ(game.result(), Result::BlackWins);
    EXPECT_EQ(game.outcome().reason, Reason::PerpetualCheck);
    EXPECT_EQ(game.outcome().explanation,
              "Black wins: Red's only legal move, d2e2, would repeat the position a third time with perpetual "
              "check, moves 2\u20135.");
    EXPECT_EQ(game.outcome().plies, (std::vector<int>{2, 4, 6, 8}));
    EXPECT_EQ(game.outcome().ply, 7);
    EXPECT_EQ(game.play(mv("d2e2")).error().code, PlayErrorCode::GameOver);

    // Taken back, the game goes on; Black's only move, d7e7 (d8 is on the chariot's file), ends it again.
    ASSERT_TRUE(game.takeback(1));
    EXPECT_FALSE(game.is_over());
    ASSERT_TRUE(game.play(mv("d7e7")));
    EXPECT_EQ(game.outcome().reason, Reason::PerpetualCheck);
    EXPECT_EQ(game.outcome().ply, 7);
}

TEST(Game, AnAllowedMoveBesideTheBannedOnesKeepsTheGameGoing) {
    Game game(fen(kPerpetualCheckFen));
    play_all(game, kPerpetualCheckMoves);
    EXPECT_EQ(game.banned_moves().size(), 1u);
    EXPECT_GT(legal_moves(game.position()).size(), 1u);
    EXPECT_FALSE(game.is_over());
}

TEST(Game, PlainRepetitionBansNothing) {
    Game game;
    play_all(game, "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0");
    EXPECT_TRUE(game.banned_moves().empty());
    ASSERT_TRUE(game.play(mv("c7b9")));
    EXPECT_EQ(game.result(), Result::Draw);
    EXPECT_EQ(game.outcome().reason, Reason::Repetition);
    EXPECT_EQ(game.outcome().explanation,
              "Draw by repetition: the position occurred for the third time, moves 1\u20134.");
}

TEST(Game, TakebackReopensAFinishedGame) {
    Game game(fen(kPerpetualCheckFen));
    play_all(game, std::string(kPerpetualCheckMoves) + " a8a7");
    ASSERT_TRUE(game.is_over());
    ASSERT_TRUE(game.takeback(1));
    EXPECT_FALSE(game.is_over());
    EXPECT_EQ(game.ply_count(), 8);
    EXPECT_EQ(game.banned_moves().size(), 1u);
    ASSERT_TRUE(game.takeback(2));
    EXPECT_TRUE(game.banned_moves().empty());
    EXPECT_FALSE(game.takeback(7));
    EXPECT_EQ(game.takeback(0).error().code, PlayErrorCode::InvalidTakeback);
    ASSERT_TRUE(game.takeback(6));
    EXPECT_EQ(game.position(), game.start());

    ASSERT_TRUE(game.resign(Color::Black));
    ASSERT_TRUE(game.is_over());
    ASSERT_FALSE(game.takeback(1));  // nothing to take back
}

// The 60-move boundary: FEN field 5 is the counter, 120 counted plies draw.
TEST(Game, NoCaptureLimitDrawsAt120) {
    Game game(fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 1"));
    EXPECT_FALSE(game.is_over());
    ASSERT_TRUE(game.play(mv("a0a1")));
    EXPECT_EQ(game.result(), Result::Draw);
    EXPECT_EQ(game.outcome().reason, Reason::MoveLimit);
    EXPECT_EQ(game.no_capture_plies(), 120);
    EXPECT_EQ(game.position().halfmove_clock(), 120);
}

// What is stored and sent is the start FEN, and it parses back; the final position of a move-limit
// draw prints counter 120, which the parser refuses as the start of a game (it is already over).
TEST(Game, NoCaptureLimitFensRoundTrip) {
    Game game(fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 1"));
    ASSERT_TRUE(game.play(mv("a0a1")));
    ASSERT_EQ(game.outcome().reason, Reason::MoveLimit);
    const auto start = parse_fen(to_fen(game.start()));
    ASSERT_TRUE(start) << start.error().message;
    EXPECT_EQ(*start, game.start());
    const auto end = parse_fen(to_fen(game.position()));
    ASSERT_FALSE(end);
    EXPECT_EQ(end.error().code, FenErrorCode::CounterOutOfRange);
}

TEST(Game, NoCaptureLimitNotReachedAt119) {
    Game game(fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 118 1"));
    ASSERT_TRUE(game.play(mv("a0a1")));
    EXPECT_FALSE(game.is_over());
    EXPECT_EQ(game.no_capture_plies(), 119);
    EXPECT_EQ(to_fen(game.position()), "3k5/9/9/9/9/9/9/9/R8/4K4 b - - 119 1");
}

TEST(Game, MateOnTheLastPlyBeatsTheLimit) {
    Game game(fen("3k5/9/R8/9/9/9/9/9/9/4K4 w - - 119 1"));
    ASSERT_TRUE(game.play(mv("a7d7")));
    EXPECT_EQ(game.result(), Result::RedWins);
    EXPECT_EQ(game.outcome().reason, Reason::Checkmate);
}

TEST(Game, CaptureResetsTheCounter) {
    Game game(fen("3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 100 1"));
    ASSERT_TRUE(game.play(mv("a0a1")));
    EXPECT_EQ(game.no_capture_plies(), 0);
    EXPECT_EQ(game.position().halfmove_clock(), 0);
}

// A line of `plies` fresh positions (no capture, no position seen twice) in which Red checks on
// every move, found by depth-first search.
bool find_checking_line(Game& game, std::set<std::uint64_t>& seen, int plies) {
    if (plies == 0) return true;
    const Position pos = game.position();
    for (Move m : legal_moves(pos)) {
        const Position next = pos.with_move(m);
        if (pos.at(m.to()) != Piece::None || seen.contains(next.hash())) continue;
        if (pos.side_to_move() == Color::Red && !next.in_check()) continue;
        if (!game.play(m)) continue;
        if (game.is_over()) {  // a mate ends the line too soon
            (void)game.takeback(1);
            continue;
        }
        seen.insert(next.hash());
        if (find_checking_line(game, seen, plies - 1)) return true;
        seen.erase(next.hash());
        (void)game.takeback(1);
    }
    return false;
}

// Red checks on every move; after its 10th check neither its checks nor Black's replies advance
// the counter (Pikafish's reading of the 10-check cap).
TEST(Game, ChecksBeyondTheTenthDoNotCount) {
    const Game start(fen("4k4/9/9/9/9/9/9/9/9/R2K4R w - - 0 1"));
    Game line = start;
    std::set<std::uint64_t> seen{line.position().hash()};
    ASSERT_TRUE(find_checking_line(line, seen, 27));  // 14 red checks, 13 replies
    Game game = start;
    int red_checks = 0;
    for (Move m : line.moves()) {
        const bool red = game.position().side_to_move() == Color::Red;
        const int counted_before = game.no_capture_plies();
        ASSERT_TRUE(game.play(m));
        if (red) ++red_checks;
        EXPECT_EQ(game.no_capture_plies(), counted_before + (red_checks <= 10 ? 1 : 0))
            << "red checks " << red_checks;
        EXPECT_EQ(game.position().halfmove_clock(), game.no_capture_plies());
    }
    EXPECT_EQ(red_checks, 14);
    EXPECT_EQ(game.checks_since_capture(Color::Red), 14 + 3);  // plus Black's replies to checks 11-13
    EXPECT_EQ(game.no_capture_plies(), 20);
}

TEST(Game, InsufficientMaterial) {
    EXPECT_EQ(Game(fen("4k4/9/9/9/9/9/9/9/9/3K5 w")).outcome().reason, Reason::InsufficientMaterial);
    EXPECT_EQ(Game(fen("3ck4/9/9/9/9/9/9/9/9/3KC4 w")).result(), Result::Draw);
    EXPECT_FALSE(Game(fen("2bckab2/9/9/9/9/9/9/9/9/2BK1C3 b")).is_over());
    EXPECT_FALSE(Game(fen("3k5/9/9/9/9/9/9/9/9/R3K4 w")).is_over());
}

TEST(Game, CaptureDownToBareGeneralsDraws) {
    // The advisor takes Black's last chariot: generals and an advisor cannot mate.
    Game game(fen("3k5/9/9/9/9/9/9/3r5/4A4/4K4 w - - 0 1"));
    EXPECT_FALSE(game.is_over());
    ASSERT_TRUE(game.play(mv("e1d2")));
    EXPECT_EQ(game.result(), Result::Draw);
    EXPECT_EQ(game.outcome().reason, Reason::InsufficientMaterial);
}

TEST(Game, ResignationAndAgreement) {
    Game resign;
    ASSERT_TRUE(resign.resign(Color::Red));
    EXPECT_EQ(resign.result(), Result::BlackWins);
    EXPECT_EQ(resign.outcome().reason, Reason::Resignation);
    EXPECT_EQ(resign.outcome().explanation, "Red resigns: Black wins.");
    EXPECT_EQ(resign.agree_draw().error().code, PlayErrorCode::GameOver);

    Game draw;
    ASSERT_TRUE(draw.agree_draw());
    EXPECT_EQ(draw.result(), Result::Draw);
    EXPECT_EQ(to_string(draw.outcome().reason), "agreement");
}

TEST(Game, LossOnTime) {
    Game game(fen("3k5/9/9/9/9/9/9/9/9/R3K4 w"));
    Game other = game;
    ASSERT_TRUE(game.flag(Color::Black));
    EXPECT_EQ(game.result(), Result::RedWins);
    EXPECT_EQ(game.outcome().reason, Reason::Timeout);
    EXPECT_EQ(game.outcome().explanation, "Red wins on time: Black's clock ran out.");
    // Black has only its general: Red running out of time cannot lose to it.
    ASSERT_TRUE(other.flag(Color::Red));
    EXPECT_EQ(other.result(), Result::Draw);
    EXPECT_EQ(other.outcome().reason, Reason::Timeout);
    EXPECT_EQ(other.outcome().explanation,
              "Draw: Red ran out of time, but Black has nothing left to mate with.");
}

TEST(Game, ReasonNames) {
    EXPECT_EQ(to_string(Reason::PerpetualChase), "perpetual_chase");
    EXPECT_EQ(to_string(Reason::Repetition), "repetition");
    EXPECT_EQ(to_string(Reason::MoveLimit), "move_limit");
    EXPECT_EQ(to_string(Reason::InsufficientMaterial), "insufficient_material");
    EXPECT_EQ(to_string(Reason::Resignation), "resignation");
    EXPECT_EQ(to_string(Reason::Timeout), "timeout");
    EXPECT_EQ(to_string(Reason::None), "");
}

}  // namespace
}  // namespace xq
