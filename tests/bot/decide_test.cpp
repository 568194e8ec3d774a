// The bot's move choice on given positions: mates in one, the repetition bans, refused moves.

#include <gtest/gtest.h>

#include "bot/decide.h"
#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "engine/levels.h"

namespace xq::bot {
namespace {

Move iccs(std::string_view text) { return *parse_iccs(text); }
Game game_from(std::string_view fen, std::initializer_list<const char*> moves = {}) {
    Game game(*parse_fen(fen));
    for (const char* m : moves) EXPECT_TRUE(game.play(iccs(m))) << m;
    return game;
}

engine::Engine weakest_engine() {
    auto engine = engine::Engine::start(engine::EngineOptions::for_level(*engine::level(1)));
    if (!engine) throw std::runtime_error(engine.error().message);
    return std::move(*engine);
}

// Black mates with b2b0 or a1a0, and a1f1 leaves Red no move (a loss too in Xiangqi).
constexpr const char* kBlackMatesInOne = "3k5/9/9/9/9/9/9/1r7/r8/4K4 b - - 0 1";

bool wins_at_once(const Game& game, Move m) {
    Game next = game;
    return next.play(m) && next.result() == Result::BlackWins;
}
// Red has just checked four times in a cycle: a8a7 would lose by perpetual check (game_test.cpp).
constexpr const char* kPerpetualCheckFen = "9/9/3k5/R8/3P5/9/9/9/9/4K4 w - - 0 1";
constexpr std::initializer_list<const char*> kPerpetualCheckMoves = {"a6a7", "d7d8", "a7a8", "d8d7",
                                                                      "a8a7", "d7d8", "a7a8", "d8d7"};

TEST(BotDecide, FindsTheMateInOneWithoutTheEngine) {
    const Game game = game_from(kBlackMatesInOne);
    const auto mate = mate_in_one(game);
    ASSERT_TRUE(mate);
    EXPECT_TRUE(wins_at_once(game, *mate)) << to_iccs(*mate);
    auto quick = decide_without_engine(game);
    ASSERT_TRUE(quick);
    EXPECT_TRUE(wins_at_once(game, quick->move)) << to_iccs(quick->move);
    EXPECT_FALSE(mate_in_one(Game()));
    EXPECT_FALSE(decide_without_engine(Game()));
}

TEST(BotDecide, TheWeakestLevelStillPlaysTheMateThroughDecide) {
    auto engine = weakest_engine();
    Game game = game_from(kBlackMatesInOne);
    auto decision = decide(engine, game, 50);
    ASSERT_TRUE(decision) << decision.error().message;
    ASSERT_TRUE(game.play(decision->move));
    EXPECT_EQ(game.result(), Result::BlackWins) << to_iccs(decision->move);
}

TEST(BotDecide, NeverChoosesAMoveTheRepetitionRulesForbid) {
    const Game game = game_from(kPerpetualCheckFen, kPerpetualCheckMoves);
    ASSERT_EQ(game.banned_moves().size(), 1u);
    const auto allowed = allowed_moves(game);
    EXPECT_EQ(allowed.size() + 1, count_legal_moves(game.position()));
    EXPECT_EQ(std::find(allowed.begin(), allowed.end(), iccs("a8a7")), allowed.end());
    const auto limits = search_limits(game, 50);
    EXPECT_EQ(limits.only_moves, allowed);

    auto engine = weakest_engine();
    for (int i = 0; i < 3; ++i) {
        auto decision = decide(engine, game, 50);
        ASSERT_TRUE(decision) << decision.error().message;
        EXPECT_NE(decision->move, iccs("a8a7"));
        EXPECT_FALSE(game.ban_for(decision->move));
    }
}

TEST(BotDecide, MovesTheServerRefusedAreNotTriedAgain) {
    const Game game;
    const std::vector<Move> refused{iccs("h2e2"), iccs("b2e2")};
    const auto limits = search_limits(game, 50, refused);
    EXPECT_EQ(limits.only_moves.size(), 44u - 2u);
    auto engine = weakest_engine();
    auto decision = decide(engine, game, 50, refused);
    ASSERT_TRUE(decision) << decision.error().message;
    EXPECT_NE(decision->move, iccs("h2e2"));
    EXPECT_NE(decision->move, iccs("b2e2"));
    // No restriction when nothing is refused or banned.
    EXPECT_TRUE(search_limits(game, 50).only_moves.empty());
}

}  // namespace
}  // namespace xq::bot
