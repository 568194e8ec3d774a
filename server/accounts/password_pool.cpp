#include "server/accounts/password_pool.h"

#include <sys/resource.h>
#include <unistd.h>

namespace xq::server {

PasswordPool::PasswordPool(std::size_t threads, std::size_t max_queued, Post post)
    : max_queued_(max_queued), post_(std::move(post)) {
    for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

PasswordPool::~PasswordPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
}

bool PasswordPool::submit(std::function<void()> job, std::function<void()> done) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ || queue_.size() >= max_queued_) return false;
        queue_.push_back({std::move(job), std::move(done)});
    }
    wake_.notify_one();
    return true;
}

void PasswordPool::work() {
    // The lowest priority (nice 19, per thread on Linux): when the machine's cores are all busy,
    // the game loop's thread wins them over Argon2id, so a login storm makes logins wait (and
    // past the queue, TRY_LATER) rather than moves. Measured with bench/login_storm beside
    // loadgen (SCHED_IDLE measured no better on a loaded machine).
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
    for (;;) {
        Job next;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            next = std::move(queue_.front());
            queue_.pop_front();
        }
        next.job();
        post_(std::move(next.done));
    }
}

}  // namespace xq::server
