// Playing moves: incremental state (hash, occupancy, counters) matches a position built afresh.

#include <gtest/gtest.h>

#include <random>

#include "common/fen.h"
#include "common/movegen.h"

namespace xq {
namespace {

TEST(Position, IncrementalStateMatchesRebuiltState) {
    std::mt19937_64 rng(20261123);
    for (int game = 0; game < 50; ++game) {
        Position pos = Position::start();
        for (int ply = 0; ply < 200; ++ply) {
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            pos.play(moves[rng() % moves.size()]);
            const Position rebuilt = Position::from_board(pos.board(), pos.side_to_move(),
                                                          pos.halfmove_clock(), pos.fullmove_number());
            ASSERT_EQ(pos, rebuilt) << to_fen(pos);
            const auto reparsed = parse_fen(to_fen(pos));
            if (pos.halfmove_clock() > kMaxNoCapturePlies) {  // the game would be over; no start FEN
                ASSERT_FALSE(reparsed) << to_fen(pos);
                ASSERT_EQ(reparsed.error().code, FenErrorCode::CounterOutOfRange);
                continue;
            }
            ASSERT_TRUE(reparsed) << to_fen(pos) << ": " << reparsed.error().message;
            ASSERT_EQ(*reparsed, pos);
        }
    }
}

TEST(Position, CountersFollowCapturesAndMoves) {
    Position pos = *parse_fen("4k4/9/9/9/9/9/9/p8/9/R2K5 w - - 5 10");
    pos.play(Move(make_square(0, 0), make_square(1, 0)));  // quiet
    EXPECT_EQ(pos.halfmove_clock(), 6);
    EXPECT_EQ(pos.fullmove_number(), 10);
    pos.play(Move(make_square(4, 9), make_square(4, 8)));
    EXPECT_EQ(pos.fullmove_number(), 11);
    pos.play(Move(make_square(1, 0), make_square(1, 2)));
    pos.play(Move(make_square(4, 8), make_square(4, 9)));
    pos.play(Move(make_square(1, 2), make_square(0, 2)));  // captures the soldier
    EXPECT_EQ(pos.halfmove_clock(), 0);
}

TEST(Position, WithMoveLeavesTheOriginalAlone) {
    const Position start = Position::start();
    const Position next = start.with_move(Move(make_square(7, 2), make_square(4, 2)));
    EXPECT_EQ(start, Position::start());
    EXPECT_NE(start.hash(), next.hash());
    EXPECT_EQ(next.side_to_move(), Color::Black);
}

}  // namespace
}  // namespace xq
