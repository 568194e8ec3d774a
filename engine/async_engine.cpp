#include "engine/async_engine.h"

#include <fcntl.h>
#include <unistd.h>

#include <memory>
#include <utility>

namespace xq::engine {

AsyncEngine::AsyncEngine(EngineOptions options) : options_(std::move(options)) {
    // Without the pipe, cancel() does nothing and searches run to their own end.
    if (::pipe2(interrupt_, O_CLOEXEC | O_NONBLOCK) != 0) interrupt_[0] = interrupt_[1] = -1;
    worker_ = std::thread([this] { run(); });
}

AsyncEngine::~AsyncEngine() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cancel();
    wake_.notify_all();
    worker_.join();
    for (int fd : interrupt_)
        if (fd >= 0) ::close(fd);
}

void AsyncEngine::cancel() {
    if (interrupt_[1] >= 0) {
        const char byte = 1;
        (void)!::write(interrupt_[1], &byte, 1);  // a full pipe already says "cancel"
    }
}

void AsyncEngine::drain_interrupt() {
    char bytes[64];
    if (interrupt_[0] >= 0)
        while (::read(interrupt_[0], bytes, sizeof bytes) > 0) {
        }
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
        drain_interrupt();  // a cancel() aimed at an earlier request does not touch this one
        {
            // A shutdown that began meanwhile had its cancel drained just now: honour it here.
            std::lock_guard lock(mutex_);
            if (stopping_) {
                jobs_.push_front(std::move(job));
                break;
            }
        }
        if (!engine_) {
            auto started = Engine::start(options_);
            if (!started) {
                job(nullptr, &started.error());
                continue;
            }
            engine_.emplace(std::move(*started));
            engine_->set_interrupt_fd(interrupt_[0]);
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

void AsyncEngine::warm_up() {
    post([](Engine*, const EngineError*) {});
}

void AsyncEngine::new_game() {
    post([](Engine* engine, const EngineError*) {
        if (engine) engine->new_game();
    });
}

}  // namespace xq::engine
