#pragma once
// The engine on its own worker thread, for callers that must not block (a UI, a network loop, a
// bot that keeps reading its connection while the engine thinks). Requests run one at a time in
// order; each answers through a future or a callback (called on the worker thread).

#include <condition_variable>
#include <deque>
#include <expected>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "engine/engine.h"

namespace xq::engine {

class AsyncEngine {
public:
    using MoveResult = std::expected<EngineMove, EngineError>;
    using EvalResult = std::expected<Evaluation, EngineError>;

    // The engine itself starts on the worker with the first request (a failure answers that request).
    explicit AsyncEngine(EngineOptions options = {});
    // Cancels the request being worked on (it ends within milliseconds, answered Cancelled) and
    // answers requests still queued with Died "shut down": it never waits for a search to finish.
    ~AsyncEngine();
    AsyncEngine(const AsyncEngine&) = delete;
    AsyncEngine& operator=(const AsyncEngine&) = delete;

    std::future<MoveResult> best_move(Position start, std::vector<Move> moves, SearchLimits limits);
    void best_move(Position start, std::vector<Move> moves, SearchLimits limits, std::function<void(MoveResult)> done);

    std::future<EvalResult> evaluate(Position start, std::vector<Move> moves, SearchLimits limits);
    void evaluate(Position start, std::vector<Move> moves, SearchLimits limits, std::function<void(EvalResult)> done);

    void new_game();  // the next request starts with ucinewgame
    // Starts the engine now instead of with the first request (which would pay its start-up,
    // under half a second, out of its think time).
    void warm_up();

    // Ends the search being worked on now (if any): its request is answered Cancelled. Queued
    // requests still run. Thread-safe.
    void cancel();

private:
    // A job gets the engine, or the error that kept it from starting (engine null then).
    using Job = std::function<void(Engine* engine, const EngineError* error)>;
    void post(Job job);
    void run();

    void drain_interrupt();

    EngineOptions options_;
    int interrupt_[2] = {-1, -1};  // a pipe: cancel() writes a byte, the search polls the read end
    std::optional<Engine> engine_;  // touched only by the worker
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> jobs_;
    bool stopping_ = false;
    std::thread worker_;
};

}  // namespace xq::engine
