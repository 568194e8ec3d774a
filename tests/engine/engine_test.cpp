// The adapter against the real fairy-stockfish: handshake, legal moves, coordinates as the engine
// prints them, evaluations from Red's view, and recovery from a killed or hung engine.

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "engine/async_engine.h"
#include "engine/engine.h"
#include "engine/process.h"
#include "engine/uci_move.h"

namespace xq::engine {
namespace {

using namespace std::chrono_literals;

Move iccs(std::string_view text) { return *parse_iccs(text); }
Position fen(std::string_view text) { return *parse_fen(text); }

// Red to move mates with b7b9 (the a8 chariot holds rank 8).
constexpr const char* kRedMatesInOne = "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1";
// The same, Black to move: Red still wins whatever Black does.
constexpr const char* kRedWinningBlackToMove = "4k4/R8/1R7/9/9/9/9/9/9/3K5 b - - 0 1";
// Black to move mates with b2b0 (or a1a0; a1f1 leaves Red no move, which also wins).
constexpr const char* kBlackMatesInOne = "3k5/9/9/9/9/9/9/1r7/r8/4K4 b - - 0 1";

Engine started(EngineOptions options = {}) {
    auto engine = Engine::start(std::move(options));
    if (!engine) throw std::runtime_error(engine.error().message);
    return std::move(*engine);
}

TEST(EngineProcess, EnginePrintsRanksOneToTenAndTheyMapToOurLegalMoves) {
    // Ask the engine itself for its move list: proof of which numbering this build prints.
    auto process = Process::spawn(*find_engine_binary());
    ASSERT_TRUE(process);
    const auto deadline = Clock::now() + 5s;
    ASSERT_TRUE(process->write("uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo perft 1\n", deadline));
    std::set<Move> engine_moves;
    bool saw_rank_ten = false;
    for (;;) {
        auto line = process->read_line(deadline);
        ASSERT_TRUE(line) << line.error().message;
        if (line->starts_with("Nodes searched")) break;
        const auto colon = line->find(':');
        if (colon == std::string::npos || line->starts_with("option") || line->starts_with("id")) continue;
        const std::string text = line->substr(0, colon);
        saw_rank_ten = saw_rank_ten || text.find("10") != std::string::npos;
        auto move = from_uci(text);
        ASSERT_TRUE(move) << text;
        engine_moves.insert(*move);
    }
    process->stop("quit\n", 500ms);
    EXPECT_TRUE(saw_rank_ten) << "the engine no longer numbers ranks 1-10";
    const auto ours = legal_moves(Position::start());
    EXPECT_EQ(engine_moves, std::set<Move>(ours.begin(), ours.end()));
    EXPECT_TRUE(engine_moves.contains(iccs("h2e2")));  // printed as h3e3
}

TEST(Engine, StartsAndAnswersALegalMove) {
    Engine engine = started();
    EXPECT_GT(engine.pid(), 0);
    const std::vector<Move> moves{iccs("h2e2"), iccs("h9g7"), iccs("h0g2")};
    auto best = engine.best_move(Position::start(), moves, SearchLimits::movetime(100));
    ASSERT_TRUE(best) << best.error().message;
    Position pos = Position::start();
    for (Move m : moves) pos.play(m);
    EXPECT_TRUE(is_legal(pos, best->move)) << to_iccs(best->move);
    EXPECT_GT(best->evaluation.depth, 0);
}

TEST(Engine, AnswersFromAnyFenAndBlackToMove) {
    Engine engine = started();
    const Position pos = fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    auto best = engine.best_move(pos, {}, SearchLimits::movetime(100));
    ASSERT_TRUE(best) << best.error().message;
    EXPECT_TRUE(is_legal(pos, best->move)) << to_iccs(best->move);
}

TEST(Engine, FindsTheMateInOneForEitherSide) {
    Engine engine = started();
    auto red = engine.best_move(fen(kRedMatesInOne), {}, SearchLimits::movetime(200));
    ASSERT_TRUE(red) << red.error().message;
    EXPECT_FALSE(has_legal_move(fen(kRedMatesInOne).with_move(red->move))) << to_iccs(red->move);
    ASSERT_TRUE(red->evaluation.mate);
    EXPECT_EQ(red->evaluation.mate->winner, Color::Red);
    EXPECT_EQ(red->evaluation.mate->moves, 1);
    EXPECT_EQ(red->evaluation.to_string(), "#1");

    auto black = engine.best_move(fen(kBlackMatesInOne), {}, SearchLimits::movetime(200));
    ASSERT_TRUE(black) << black.error().message;
    EXPECT_FALSE(has_legal_move(fen(kBlackMatesInOne).with_move(black->move))) << to_iccs(black->move);
    ASSERT_TRUE(black->evaluation.mate);
    EXPECT_EQ(black->evaluation.mate->winner, Color::Black);
    EXPECT_LT(black->evaluation.centipawns, -20000);
    EXPECT_EQ(black->evaluation.to_string(), "#-1");
}

TEST(Engine, EvaluationIsFromRedsViewWhoeverMoves) {
    Engine engine = started();
    // Red two chariots up: positive for Red with Red to move and with Black to move.
    for (const char* f : {kRedMatesInOne, kRedWinningBlackToMove}) {
        auto eval = engine.evaluate(fen(f), {}, SearchLimits::movetime(200));
        ASSERT_TRUE(eval) << eval.error().message;
        EXPECT_GT(eval->centipawns, 1000) << f << " " << eval->to_string();
        EXPECT_GT(eval->for_side(Color::Red), 0);
        EXPECT_LT(eval->for_side(Color::Black), 0);
    }
    // The start position without Red's chariots: Black is better.
    auto black_better = engine.evaluate(fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w - - 0 1"),
                                        {}, SearchLimits::movetime(200));
    ASSERT_TRUE(black_better) << black_better.error().message;
    EXPECT_LT(black_better->centipawns, -300) << black_better->to_string();
}

TEST(Engine, AMatedPositionNeedsNoEngine) {
    Engine engine = started();
    const std::vector<Move> mate{iccs("b7b9")};
    auto eval = engine.evaluate(fen(kRedMatesInOne), mate, SearchLimits::movetime(100));
    ASSERT_TRUE(eval);
    ASSERT_TRUE(eval->mate);
    EXPECT_EQ(eval->mate->winner, Color::Red);
    EXPECT_EQ(eval->mate->moves, 0);
    auto best = engine.best_move(fen(kRedMatesInOne), mate, SearchLimits::movetime(100));
    ASSERT_FALSE(best);
    EXPECT_EQ(best.error().code, EngineErrorCode::NoLegalMove);
}

TEST(Engine, IllegalMovesAreRefusedBeforeTheEngineSeesThem) {
    Engine engine = started();
    const std::vector<Move> moves{iccs("h2e2"), iccs("h2e2")};
    auto best = engine.best_move(Position::start(), moves, SearchLimits::movetime(50));
    ASSERT_FALSE(best);
    EXPECT_EQ(best.error().code, EngineErrorCode::BadPosition);
    EXPECT_NE(best.error().message.find("move 2"), std::string::npos) << best.error().message;
    // The engine is unharmed.
    EXPECT_TRUE(engine.best_move(Position::start(), {}, SearchLimits::movetime(50)));
    EXPECT_EQ(engine.restarts(), 0);
}

TEST(Engine, SearchMovesLimitTheChoice) {
    Engine engine = started();
    SearchLimits limits = SearchLimits::movetime(100);
    limits.only_moves = {iccs("a3a4"), iccs("i3i4")};
    for (int i = 0; i < 3; ++i) {
        auto best = engine.best_move(Position::start(), {}, limits);
        ASSERT_TRUE(best) << best.error().message;
        EXPECT_TRUE(best->move == iccs("a3a4") || best->move == iccs("i3i4")) << to_iccs(best->move);
    }
}

TEST(Engine, PlaysUnderAGameClock) {
    Engine engine = started();
    SearchLimits limits;
    limits.clock = GameClock{3000, 3000, 0, 0};
    const auto begin = std::chrono::steady_clock::now();
    auto best = engine.best_move(Position::start(), {}, limits);
    ASSERT_TRUE(best) << best.error().message;
    EXPECT_LT(std::chrono::steady_clock::now() - begin, 3s);
}

TEST(Engine, AnAnswerByDeadlineShortensTheThinkTime) {
    Engine engine = started();
    SearchLimits limits = SearchLimits::movetime(5000);
    limits.answer_by = std::chrono::steady_clock::now() + 300ms;
    const auto begin = std::chrono::steady_clock::now();
    auto best = engine.best_move(Position::start(), {}, limits);
    ASSERT_TRUE(best) << best.error().message;
    EXPECT_LT(std::chrono::steady_clock::now() - begin, 1s);
}

TEST(Engine, AKilledEngineGivesAClearErrorThenRestarts) {
    Engine engine = started();
    const pid_t first = engine.pid();
    ASSERT_GT(first, 0);
    ASSERT_EQ(::kill(first, SIGKILL), 0);
    auto lost = engine.best_move(Position::start(), {}, SearchLimits::movetime(100));
    ASSERT_FALSE(lost);
    EXPECT_EQ(lost.error().code, EngineErrorCode::Died) << lost.error().message;
    EXPECT_EQ(engine.pid(), -1);

    auto again = engine.best_move(Position::start(), {}, SearchLimits::movetime(100));
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_TRUE(is_legal(Position::start(), again->move));
    EXPECT_GT(engine.pid(), 0);
    EXPECT_NE(engine.pid(), first);
    EXPECT_EQ(engine.restarts(), 1);
}

TEST(Engine, AHungEngineTimesOutThenRestarts) {
    EngineOptions options;
    options.answer_margin = 300ms;
    Engine engine = started(options);
    const pid_t first = engine.pid();
    ASSERT_EQ(::kill(first, SIGSTOP), 0);
    const auto begin = std::chrono::steady_clock::now();
    auto hung = engine.best_move(Position::start(), {}, SearchLimits::movetime(100));
    const auto waited = std::chrono::steady_clock::now() - begin;
    ASSERT_FALSE(hung);
    EXPECT_EQ(hung.error().code, EngineErrorCode::Timeout) << hung.error().message;
    EXPECT_GE(waited, 350ms);
    EXPECT_LT(waited, 2s);
    EXPECT_EQ(::kill(first, 0), -1) << "the stopped engine was not killed";

    auto again = engine.evaluate(Position::start(), {}, SearchLimits::movetime(50));
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(engine.restarts(), 1);
}

TEST(Engine, AMissingBinaryIsAnErrorNotACrash) {
    EngineOptions options;
    options.binary = "/nonexistent/fairy-stockfish";
    auto engine = Engine::start(options);
    ASSERT_FALSE(engine);
    EXPECT_EQ(engine.error().code, EngineErrorCode::SpawnFailed) << engine.error().message;
}

TEST(Engine, SomethingThatIsNotAnEngineTimesOutOrDies) {
    EngineOptions options;
    options.binary = "/bin/cat";  // echoes "uci" back forever, never "uciok"
    options.start_timeout = 300ms;
    auto engine = Engine::start(options);
    ASSERT_FALSE(engine);
    EXPECT_EQ(engine.error().code, EngineErrorCode::Timeout) << engine.error().message;
    options.binary = "/bin/true";  // exits at once
    engine = Engine::start(options);
    ASSERT_FALSE(engine);
    EXPECT_EQ(engine.error().code, EngineErrorCode::Died) << engine.error().message;
}

TEST(EngineAsync, AnswersThroughFuturesAndCallbacksOffTheCallersThread) {
    AsyncEngine engine(EngineOptions::for_level(*level(1)));
    auto move = engine.best_move(Position::start(), {}, SearchLimits::movetime(100));
    std::promise<std::thread::id> callback_thread;
    engine.evaluate(fen(kRedMatesInOne), {}, SearchLimits::movetime(100), [&](AsyncEngine::EvalResult r) {
        EXPECT_TRUE(r && r->mate && r->mate->winner == Color::Red);
        callback_thread.set_value(std::this_thread::get_id());
    });
    ASSERT_EQ(move.wait_for(10s), std::future_status::ready);
    auto result = move.get();
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_TRUE(is_legal(Position::start(), result->move));
    auto id = callback_thread.get_future();
    ASSERT_EQ(id.wait_for(10s), std::future_status::ready);
    EXPECT_NE(id.get(), std::this_thread::get_id());
}

TEST(Engine, AnInterruptStopsTheSearchAndKeepsTheEngine) {
    Engine engine = started();
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    engine.set_interrupt_fd(fds[0]);
    const pid_t pid = engine.pid();
    ASSERT_EQ(::write(fds[1], "x", 1), 1);
    const auto begin = std::chrono::steady_clock::now();
    auto cancelled = engine.best_move(Position::start(), {}, SearchLimits::movetime(10'000));
    EXPECT_LT(std::chrono::steady_clock::now() - begin, 1s);
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().code, EngineErrorCode::Cancelled);
    EXPECT_EQ(engine.pid(), pid);  // told "stop", not killed
    char byte;
    ASSERT_EQ(::read(fds[0], &byte, 1), 1);
    auto next = engine.best_move(Position::start(), {}, SearchLimits::movetime(50));
    ASSERT_TRUE(next) << next.error().message;
    EXPECT_EQ(engine.restarts(), 0);
    engine.set_interrupt_fd(-1);
    ::close(fds[0]);
    ::close(fds[1]);
}

TEST(EngineAsync, CancelEndsTheCurrentSearchAtOnce) {
    AsyncEngine engine;
    auto warm = engine.best_move(Position::start(), {}, SearchLimits::movetime(10));
    ASSERT_EQ(warm.wait_for(10s), std::future_status::ready);
    auto long_search = engine.best_move(Position::start(), {}, SearchLimits::movetime(20'000));
    std::this_thread::sleep_for(200ms);
    engine.cancel();
    ASSERT_EQ(long_search.wait_for(2s), std::future_status::ready);
    auto result = long_search.get();
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().code, EngineErrorCode::Cancelled);
    auto after = engine.best_move(Position::start(), {}, SearchLimits::movetime(50));
    ASSERT_EQ(after.wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(after.get());
}

TEST(EngineAsync, ShutdownDoesNotWaitForALongSearch) {
    std::future<AsyncEngine::MoveResult> search;
    const auto begin = std::chrono::steady_clock::now();
    {
        AsyncEngine engine;
        search = engine.best_move(Position::start(), {}, SearchLimits::movetime(60'000));
        std::this_thread::sleep_for(1s);  // the engine has started and is searching
    }
    // Far less than the search's minute, with room for a loaded CI machine (it took 5 s there).
    EXPECT_LT(std::chrono::steady_clock::now() - begin, 20s);
    ASSERT_EQ(search.wait_for(0s), std::future_status::ready);
    EXPECT_FALSE(search.get());
}

TEST(EngineAsync, QueuedRequestsAreAnsweredAtShutdown) {
    std::future<AsyncEngine::MoveResult> last;
    {
        AsyncEngine engine;
        for (int i = 0; i < 3; ++i) last = engine.best_move(Position::start(), {}, SearchLimits::movetime(200));
    }
    ASSERT_EQ(last.wait_for(0s), std::future_status::ready);
    (void)last.get();  // a move or "shut down": either way nobody waits forever
}

TEST(EngineAsync, AnEngineThatCannotStartAnswersWithItsError) {
    EngineOptions options;
    options.binary = "/nonexistent/fairy-stockfish";
    AsyncEngine engine(options);
    auto move = engine.best_move(Position::start(), {}, SearchLimits::movetime(50));
    ASSERT_EQ(move.wait_for(5s), std::future_status::ready);
    auto result = move.get();
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().code, EngineErrorCode::SpawnFailed);
}

}  // namespace
}  // namespace xq::engine
