// The computer as opponent and analyst, against the real fairy-stockfish: answers arrive on the UI
// thread through pump()/poll(), draws and takebacks follow the documented policy, and the
// evaluation is from Red's side.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "client/computer/analysis.h"
#include "client/computer/computer_game.h"
#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"

namespace xq::client {
namespace {

using namespace std::chrono_literals;

Move mv(std::string_view text) { return *parse_iccs(text); }

// Pumps until `done` or 20 s (the engine thinks 100 ms at level 1; a loaded machine is slow).
template <class Pump, class Done>
bool wait(Pump pump, Done done) {
    const auto end = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < end) {
        pump();
        if (done()) return true;
        std::this_thread::sleep_for(10ms);
    }
    return false;
}

TEST(ClientComputer, AnswersEachMoveWithALegalMove) {
    GameModel model;
    ComputerGame computer(model, "Ann", Color::Red, 1);
    EXPECT_EQ(model.role(), Role::Red);
    EXPECT_EQ(model.seat(Color::Red).name, "Ann");
    EXPECT_EQ(model.seat(Color::Black).name, "Computer (level 1)");
    computer.move(mv("h2e2"));
    EXPECT_TRUE(computer.thinking());
    EXPECT_FALSE(model.can_move());  // the computer's turn
    ASSERT_TRUE(wait([&] { computer.pump(); }, [&] { return model.ply_count() == 2; })) << model.notice();
    EXPECT_TRUE(is_legal(model.position_at(1), model.moves()[1]));
    EXPECT_TRUE(model.can_move());
    computer.move(mv("h0g2"));
    ASSERT_TRUE(wait([&] { computer.pump(); }, [&] { return model.ply_count() == 4; })) << model.notice();
}

// With a clock, the computer's time runs while it thinks, by the fake time the test moves: its
// flag falls, the player wins on time, and the answer still on its way is dropped.
TEST(ClientComputer, TheComputersClockRunsAndItsFlagFalls) {
    GameModel model;
    TimePoint now = TimePoint{} + 1000h;
    ComputerGame computer(model, "Ann", Color::Red, 1, TimeControlChoice{1, 0, std::nullopt}, [&] { return now; });
    ASSERT_TRUE(model.clock().known());
    computer.move(mv("h2e2"));
    ASSERT_TRUE(wait([&] { computer.pump(); }, [&] { return model.ply_count() == 2; })) << model.notice();
    EXPECT_EQ(model.clock().running(), Color::Red);  // both have moved: the clocks start
    now += 10s;
    computer.move(mv("h0g2"));
    EXPECT_EQ(model.clock().running(), Color::Black);
    EXPECT_EQ(model.clock().remaining(Color::Red, now), 50'000);
    now += 61s;  // the computer "thinks" for a minute
    computer.pump();
    ASSERT_TRUE(model.result());
    EXPECT_EQ(model.result()->result, Result::RedWins);
    EXPECT_EQ(model.result()->reason, "timeout");
    EXPECT_FALSE(computer.thinking());
    std::this_thread::sleep_for(300ms);  // the engine's answer arrives, and is not played
    computer.pump();
    EXPECT_EQ(model.ply_count(), 3);
}

TEST(ClientComputer, PlaysFirstWhenThePlayerTakesBlack) {
    GameModel model;
    ComputerGame computer(model, "Ann", Color::Black, 1);
    EXPECT_EQ(model.role(), Role::Black);
    ASSERT_TRUE(wait([&] { computer.pump(); }, [&] { return model.ply_count() == 1; }));
    EXPECT_TRUE(model.can_move());
}

TEST(ClientComputer, TakebackReturnsToThePlayersTurnAndResignEnds) {
    GameModel model;
    ComputerGame computer(model, "Ann", Color::Red, 1);
    computer.offer(OfferType::Draw);  // before any move: declined
    EXPECT_FALSE(model.result());
    EXPECT_EQ(model.notice(), "The computer declines the draw.");
    computer.move(mv("b0c2"));
    ASSERT_TRUE(wait([&] { computer.pump(); }, [&] { return model.ply_count() == 2; }));
    computer.offer(OfferType::Takeback);
    EXPECT_EQ(model.ply_count(), 0);
    EXPECT_TRUE(model.can_move());
    computer.resign();
    ASSERT_TRUE(model.result());
    EXPECT_EQ(model.result()->result, Result::BlackWins);
    computer.new_game();
    EXPECT_FALSE(model.result());
    EXPECT_EQ(model.ply_count(), 0);
}

TEST(ClientComputer, EvaluationIsFromRedsSideAndAHintIsLegal) {
    GameModel model;
    // Red has a chariot more; Black to move, so the search is Black's but the verdict is Red's.
    ASSERT_TRUE(model.reset(*parse_fen("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1"), {}, Role::Replay));
    Analysis analysis(8);
    analysis.follow(model);
    ASSERT_TRUE(wait([&] { analysis.poll(); }, [&] { return analysis.poll().evaluation.has_value(); }))
        << analysis.poll().error;
    EXPECT_GT(analysis.poll().evaluation->centipawns, 300);
    analysis.ask_hint(model);
    ASSERT_TRUE(wait([&] { analysis.poll(); }, [&] { return analysis.poll().hint.has_value(); }));
    EXPECT_TRUE(is_legal(model.shown_position(), *analysis.poll().hint));
}

// Two windows showing one position once read -0.30 and -0.73: the search is now to a fixed depth
// from an empty hash, so two analysts agree even when one has analysed another position first.
TEST(ClientComputer, TwoAnalysesOfOnePositionGiveTheSameFigure) {
    GameModel model;
    ASSERT_TRUE(model.reset(Position::start(), std::vector<Move>{mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("i9h9")},
                            Role::Replay));
    Analysis first;
    Analysis second;
    model.go_to(2);  // the second analyst looks at an earlier position first, filling its hash
    second.follow(model);
    ASSERT_TRUE(wait([&] { second.poll(); }, [&] { return second.poll().evaluation.has_value(); }))
        << second.poll().error;
    model.go_live();
    const auto figure = [&](Analysis& analysis) -> std::optional<engine::Evaluation> {
        analysis.follow(model);
        if (!wait([&] { analysis.poll(); },
                  [&] { return !analysis.poll().busy && analysis.poll().evaluation.has_value(); }))
            return std::nullopt;
        return analysis.poll().evaluation;
    };
    const auto a = figure(first);
    const auto b = figure(second);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->depth, Analysis::kDepth);
    EXPECT_EQ(a->centipawns, b->centipawns);
    EXPECT_EQ(a->to_string(), b->to_string());
}

TEST(ClientComputer, AMatedPositionNeedsNoSearch) {
    GameModel model;
    ASSERT_TRUE(model.reset(Position::start(), std::vector<Move>{mv("b2b4"), mv("a6a5"), mv("b4c4"), mv("f9e8"),
                                                                 mv("c4c9")},
                            Role::Replay));
    Analysis analysis;
    analysis.follow(model);
    const auto& view = analysis.poll();
    ASSERT_TRUE(view.evaluation);
    ASSERT_TRUE(view.evaluation->mate);
    EXPECT_EQ(view.evaluation->mate->winner, Color::Red);
    EXPECT_FALSE(view.busy);
}

}  // namespace
}  // namespace xq::client
