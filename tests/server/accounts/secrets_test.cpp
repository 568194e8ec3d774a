// Secrets, passwords and throttles: tokens are random and stored as hashes, compared in constant
// time; Argon2id hashes verify only their own password; the throttles' waits with a fake clock.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <set>

#include "server/accounts/password_pool.h"
#include "server/accounts/passwords.h"
#include "server/accounts/secret.h"
#include "server/accounts/throttle.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

TEST(Secrets, TokensAreLongRandomAndStoredAsHashes) {
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        const std::string token = new_session_token();
        ASSERT_EQ(token.size(), 64u);  // 256 bits
        EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos);
        EXPECT_TRUE(seen.insert(token).second);
        const std::string hash = secret_hash(token);
        EXPECT_EQ(hash.size(), 64u);
        EXPECT_NE(hash, token);
        EXPECT_EQ(hash, secret_hash(token));  // deterministic: a lookup key
        EXPECT_TRUE(matches_hash(token, hash));
        EXPECT_FALSE(matches_hash(token.substr(1), hash));
    }
    // BLAKE2b-256 of "abc" (RFC 7693's test vector is for BLAKE2b-512; this one is libsodium's).
    EXPECT_EQ(secret_hash("abc"), "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319");
}

TEST(Secrets, ConstantTimeCompareMatchesOnlyEqualNonEmptyStrings) {
    EXPECT_TRUE(equal_in_constant_time("abc", "abc"));
    EXPECT_FALSE(equal_in_constant_time("abc", "abd"));
    EXPECT_FALSE(equal_in_constant_time("abc", "abcd"));
    EXPECT_FALSE(equal_in_constant_time("", ""));
    EXPECT_FALSE(matches_hash("", secret_hash("")));
}

TEST(Passwords, HashVerifiesItsOwnPasswordOnly) {
    const auto hash = hash_password("correct horse", minimal_cost());
    ASSERT_TRUE(hash.has_value());
    EXPECT_TRUE(hash->starts_with("$argon2id$"));
    EXPECT_TRUE(verify_password(*hash, "correct horse"));
    EXPECT_FALSE(verify_password(*hash, "correct horsf"));
    EXPECT_FALSE(verify_password("not a hash", "correct horse"));
    EXPECT_FALSE(verify_password("", ""));
    EXPECT_NE(*hash, *hash_password("correct horse", minimal_cost()));  // salted
    EXPECT_TRUE(password_problem("short").has_value());
    EXPECT_TRUE(password_problem(std::string(129, 'x')).has_value());
    EXPECT_FALSE(password_problem("eight ch").has_value());
}

TEST(Passwords, InteractiveCostIsArgon2idT2With64MiB) {
    const auto cost = interactive_cost();
    EXPECT_EQ(cost.ops, 2u);
    EXPECT_EQ(cost.memory, 64u << 20);
}

TEST(PasswordPool, RunsJobsOffTheCallerAndRefusesPastItsQueue) {
    std::mutex m;
    std::vector<std::function<void()>> posted;
    std::promise<void> release;
    auto released = release.get_future().share();
    std::atomic<int> ran{0};
    std::atomic<bool> first_running{false};
    std::atomic<bool> off_thread{false};
    int done = 0;
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    {
        PasswordPool pool(1, 2, [&](std::function<void()> f) {
            std::lock_guard lock(m);
            posted.push_back(std::move(f));
        });
        const auto caller = std::this_thread::get_id();
        // The first job holds the only worker; two more fill the queue; the fourth is refused.
        ASSERT_TRUE(pool.submit(
            [&] {
                off_thread = std::this_thread::get_id() != caller;
                first_running = true;
                released.wait();
                ++ran;
            },
            [&] { ++done; }));
        while (!first_running && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
        ASSERT_TRUE(first_running);
        EXPECT_TRUE(pool.submit([&] { ++ran; }, [&] { ++done; }));
        EXPECT_TRUE(pool.submit([&] { ++ran; }, [&] { ++done; }));
        EXPECT_FALSE(pool.submit([&] { ++ran; }, [&] { ++done; }));
        release.set_value();
        while (ran < 3 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
        ASSERT_EQ(ran, 3);
        for (;;) {
            std::lock_guard lock(m);
            if (posted.size() == 3 || std::chrono::steady_clock::now() > deadline) break;
        }
    }
    ASSERT_EQ(posted.size(), 3u);
    EXPECT_EQ(done, 0);  // `done` runs only where the post function puts it
    for (auto& f : posted) f();
    EXPECT_EQ(done, 3);
    EXPECT_TRUE(off_thread);
}

TEST(Throttle, FailuresBackOffExponentiallyAndASuccessClears) {
    LoginThrottle t(BackoffRules{3, 1000ms, 8000ms, std::chrono::hours(1), 100});
    auto now = LoginThrottle::Clock::time_point{} + std::chrono::hours(10);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(t.wait("k", now), 0ms);
        t.failed("k", now);
    }
    EXPECT_EQ(t.wait("k", now), 0ms);  // three free failures
    t.failed("k", now);
    EXPECT_EQ(t.wait("k", now), 1000ms);
    now += 1000ms;
    t.failed("k", now);
    EXPECT_EQ(t.wait("k", now), 2000ms);
    now += 2000ms;
    t.failed("k", now);
    EXPECT_EQ(t.wait("k", now), 4000ms);
    now += 4000ms;
    t.failed("k", now);
    EXPECT_EQ(t.wait("k", now), 8000ms);
    now += 8000ms;
    t.failed("k", now);
    EXPECT_EQ(t.wait("k", now), 8000ms);  // capped: never a lock-out
    EXPECT_EQ(t.wait("other", now), 0ms);
    t.succeeded("k");
    EXPECT_EQ(t.wait("k", now), 0ms);
    // An hour's quiet forgets the count.
    for (int i = 0; i < 5; ++i) t.failed("q", now);
    now += std::chrono::hours(2);
    t.failed("q", now);
    EXPECT_EQ(t.wait("q", now), 0ms);
}

TEST(Throttle, RegistrationsPerWindow) {
    RegistrationLimit limit(2, std::chrono::hours(1));
    auto now = RegistrationLimit::Clock::time_point{} + std::chrono::hours(10);
    EXPECT_EQ(limit.wait("a", now), 0ms);
    limit.registered("a", now);
    now += std::chrono::minutes(10);
    limit.registered("a", now);
    EXPECT_EQ(limit.wait("a", now), std::chrono::minutes(50));
    EXPECT_EQ(limit.wait("b", now), 0ms);
    now += std::chrono::minutes(50);
    EXPECT_EQ(limit.wait("a", now), 0ms);
}

}  // namespace
}  // namespace xq::server
