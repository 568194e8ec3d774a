#include "engine/async_engine.h"

#include <memory>
#include <utility>

namespace xq::engine {

AsyncEngine::AsyncEngine(EngineOptions options) : options_(std::move(options)), worker_([this] { run(); }) {}

AsyncEngine::~AsyncEngine() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    worker_.join();
}

void AsyncEngine::post(Job job) {
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    wake_.notify_all();
}

void AsyncEngine::run() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
            if (stopping_) break;
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        if (!engine_) {
            auto started = Engine::start(options_);
            if (!started) {
                job(nullptr, &started.error());
                continue;
            }
            engine_.emplace(std::move(*started));
        }
        job(&*engine_, nullptr);
    }
    // Nobody waits forever on a request that will not run.
    std::deque<Job> left;
    {
        std::lock_guard lock(mutex_);
        left.swap(jobs_);
    }
    const EngineError shut_down{EngineErrorCode::Died, "the engine was shut down"};
    for (auto& job : left) job(nullptr, &shut_down);
    engine_.reset();
}

void AsyncEngine::best_move(Position start, std::vector<Move> moves, SearchLimits limits,
                            std::function<void(MoveResult)> done) {
    post([start, moves = std::move(moves), limits = std::move(limits), done = std::move(done)](
             Engine* engine, const EngineError* error) {
        done(engine ? engine->best_move(start, moves, limits) : MoveResult(std::unexpected(*error)));
    });
}

std::future<AsyncEngine::MoveResult> AsyncEngine::best_move(Position start, std::vector<Move> moves,
                                                            SearchLimits limits) {
    auto promise = std::make_shared<std::promise<MoveResult>>();
    auto future = promise->get_future();
    best_move(start, std::move(moves), std::move(limits), [promise](MoveResult r) { promise->set_value(std::move(r)); });
    return future;
}

void AsyncEngine::evaluate(Position start, std::vector<Move> moves, SearchLimits limits,
                           std::function<void(EvalResult)> done) {
    post([start, moves = std::move(moves), limits = std::move(limits), done = std::move(done)](
             Engine* engine, const EngineError* error) {
        done(engine ? engine->evaluate(start, moves, limits) : EvalResult(std::unexpected(*error)));
    });
}

std::future<AsyncEngine::EvalResult> AsyncEngine::evaluate(Position start, std::vector<Move> moves,
                                                           SearchLimits limits) {
    auto promise = std::make_shared<std::promise<EvalResult>>();
    auto future = promise->get_future();
    evaluate(start, std::move(moves), std::move(limits), [promise](EvalResult r) { promise->set_value(std::move(r)); });
    return future;
}

void AsyncEngine::new_game() {
    post([](Engine* engine, const EngineError*) {
        if (engine) engine->new_game();
    });
}

}  // namespace xq::engine
