// What a login costs the server: Argon2id at the server's cost (libsodium INTERACTIVE: t = 2,
// 64 MiB, p = 1) hashed on 1 thread and on the PasswordPool's 2 threads, with the verification
// of a wrong password (as slow as a right one), against the BLAKE2b hash of a session token (a
// token login's only work) in the same run. Prints one JSON line.
//
// usage: password_bench [SECONDS]   (default 3 per measurement)

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/accounts/password_pool.h"
#include "server/accounts/passwords.h"
#include "server/accounts/secret.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace xq::server;

// Jobs done per second by `threads` threads each running `job` in a loop for `seconds`.
template <class Job>
double per_second(int threads, double seconds, Job job) {
    std::atomic<long> done{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> pool;
    const auto start = Clock::now();
    for (int i = 0; i < threads; ++i)
        pool.emplace_back([&] {
            while (!stop) {
                job();
                ++done;
            }
        });
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    for (auto& t : pool) t.join();
    return static_cast<double>(done) / std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
    const PasswordCost cost = interactive_cost();
    const std::string hash = hash_password("correct horse", cost).value_or("");
    if (hash.empty()) {
        std::fprintf(stderr, "password_bench: Argon2id failed (out of memory?)\n");
        return 1;
    }
    const double hash_1 = per_second(1, seconds, [&] { (void)hash_password("correct horse", cost); });
    const double hash_2 = per_second(2, seconds, [&] { (void)hash_password("correct horse", cost); });
    const double verify_wrong_2 = per_second(2, seconds, [&] { (void)verify_password(hash, "wrong password"); });
    const std::string token = new_session_token();
    const double token_1 = per_second(1, seconds / 3, [&] { (void)secret_hash(token); });

    // The pool as the server runs it: completions come back through `post` (here, counted).
    std::atomic<long> completed{0};
    long refused = 0;
    const auto start = Clock::now();
    {
        PasswordPool pool(2, 64, [&](std::function<void()> done) { done(); });
        while (Clock::now() - start < std::chrono::duration<double>(seconds))
            if (!pool.submit([&] { (void)verify_password(hash, "wrong password"); }, [&] { ++completed; }))
                ++refused, std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const double pool_rate = static_cast<double>(completed) / std::chrono::duration<double>(Clock::now() - start).count();

    std::printf("{\"argon2id\": \"t=%llu m=%zu MiB p=1\", \"hashes_per_s_1_thread\": %.1f, "
                "\"hashes_per_s_2_threads\": %.1f, \"wrong_password_verifies_per_s_2_threads\": %.1f, "
                "\"pool_logins_per_s\": %.1f, \"pool_refused_try_later\": %ld, \"ms_per_hash\": %.1f, "
                "\"token_hashes_per_s\": %.0f, \"argon2id_over_token_hash\": %.0f}\n",
                cost.ops, cost.memory >> 20, hash_1, hash_2, verify_wrong_2, pool_rate, refused, 1000.0 / hash_1,
                token_1, token_1 / hash_1);
    return 0;
}
