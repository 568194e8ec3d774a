#pragma once
// Where slow password work runs: never on the server's loop, so a storm of logins cannot delay
// anyone's move. The dispatcher (which knows no threads and no Asio) asks a PasswordWork to run
// a job and gets `done` back on its own loop thread. PasswordPool is the server's: a few worker
// threads behind a bounded queue, each finished job handed back through a `post` function (the
// net layer's asio::post). InlinePasswordWork runs both at once, for the fuzzer and unit tests.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace xq::server {

class PasswordWork {
public:
    virtual ~PasswordWork() = default;
    // Runs `job` off the loop, then `done` on the loop thread. False, with neither run, when the
    // queue is full: the caller answers TRY_LATER.
    virtual bool submit(std::function<void()> job, std::function<void()> done) = 0;
};

class InlinePasswordWork final : public PasswordWork {
public:
    bool submit(std::function<void()> job, std::function<void()> done) override {
        job();
        done();
        return true;
    }
};

class PasswordPool final : public PasswordWork {
public:
    using Post = std::function<void(std::function<void()>)>;

    // `threads` workers, at most `max_queued` jobs waiting (not counting those running).
    PasswordPool(std::size_t threads, std::size_t max_queued, Post post);
    ~PasswordPool() override;  // waits for the running jobs; queued ones are dropped
    PasswordPool(const PasswordPool&) = delete;
    PasswordPool& operator=(const PasswordPool&) = delete;

    bool submit(std::function<void()> job, std::function<void()> done) override;

private:
    void work();

    struct Job {
        std::function<void()> job;
        std::function<void()> done;
    };
    std::size_t max_queued_;
    Post post_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace xq::server
