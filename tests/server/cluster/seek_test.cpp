// Quick match across nodes on one real redis-server: seeks added and cancelled by each player's
// node, read and claimed by the elected matcher. No seek claimed twice (racing claimers, a stale
// matcher that still believes it holds the lease, cancel against claim), no seek lost (the
// matcher killed, a reconnection, Redis restarted empty).

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "run_until.h"
#include "server/cluster/seek_book.h"
#include "server/cluster/seek_matcher.h"
#include "support/temp_redis.h"

namespace xq::cluster {
namespace {

using test::run_until;
using namespace std::chrono_literals;

class SeekTest : public ::testing::Test {
protected:
    struct Node {
        std::shared_ptr<RedisClient> client;
        std::shared_ptr<SeekBook> book;
        std::shared_ptr<SeekMatcher> matcher;
        int elected = 0;
        std::vector<std::string> deposed;
        std::vector<std::string> found_claimed;
    };

    // A node's client, seek book and matcher candidate (not started), kept until TearDown. The
    // lease's TTL leaves room for a loaded machine's late renewals.
    Node& node(const std::string& id, LeaseKeeperOptions lease = {.ttl = 5s, .renew_every = 500ms, .margin = 100ms}) {
        nodes_.push_back(std::make_unique<Node>());
        Node* n = nodes_.back().get();
        ConnectionOptions options;
        options.backoff_max = 100ms;
        n->client = RedisClient::create(io_.get_executor(), *parse_redis_address(redis_.unix_address()), options);
        n->client->start();
        EXPECT_TRUE(run_until(io_, [&] { return n->client->state() == ConnectionState::Connected; }));
        n->book = SeekBook::create(n->client, id);
        n->book->on_claimed([n](const std::string& seek, const SeekBook::Held&) { n->found_claimed.push_back(seek); });
        n->book->start();
        n->matcher = SeekMatcher::create(
            io_.get_executor(), std::make_shared<Leases>(n->client), id, "t-" + id, SeekMatcherOptions{.lease = lease},
            [n] { ++n->elected; }, [n](const std::string& why) { n->deposed.push_back(why); });
        return *n;
    }
    void TearDown() override {
        for (auto& n : nodes_) {
            n->matcher->stop(false);
            n->book->stop();
            n->client->stop();
        }
    }

    template <class T, class Start>
    T wait(Start start) {
        return test::answer<T>(io_, std::move(start));
    }
    std::string add(Node& n, std::uint64_t session, const std::string& bytes) {
        return wait<std::string>([&](auto h) { n.book->add(session, bytes, h); });
    }
    std::vector<SeekRecord> read(Node& n) {
        return wait<std::vector<SeekRecord>>([&](auto h) { n.matcher->read(h); });
    }
    ClaimResult claim(Node& n, const std::string& a, const std::string& b) {
        return wait<ClaimResult>([&](auto h) { n.matcher->claim(a, b, h); });
    }
    static std::set<std::string> ids(const std::vector<SeekRecord>& seeks) {
        std::set<std::string> out;
        for (const auto& s : seeks) out.insert(s.id);
        return out;
    }
    std::string raw(std::initializer_list<std::string_view> args) { return redis_.raw_command(encode_command(args)); }

    asio::io_context io_{1};
    test::TempRedis redis_;
    std::vector<std::unique_ptr<Node>> nodes_;
};

TEST_F(SeekTest, TheMatcherReadsEveryNodesSeeksOldestFirstAndSkipsGarbage) {
    auto& a = node("a");
    auto& b = node("b");
    const auto s1 = add(a, 11, "seek one");
    const auto s2 = add(b, 22, std::string("two\0|", 5));
    const auto s3 = add(a, 33, "");
    raw({"HSET", "xq:seeks", "bad id!", "a|1|2|3|x"});
    raw({"HSET", "xq:seeks", "x1", "a|1|not a time|3|x"});
    const auto seeks = read(b);
    ASSERT_EQ(seeks.size(), 3u);
    EXPECT_EQ(b.matcher->stats().malformed, 2u);
    EXPECT_EQ(seeks[0].id, s1);
    EXPECT_EQ(seeks[0].node, "a");
    EXPECT_EQ(seeks[0].session, 11u);
    EXPECT_EQ(seeks[0].bytes, "seek one");
    EXPECT_EQ(seeks[1].id, s2);
    EXPECT_EQ(seeks[1].bytes, std::string("two\0|", 5));
    EXPECT_EQ(seeks[2].id, s3);
    EXPECT_LE(seeks[0].added_ms, seeks[1].added_ms);
    EXPECT_LE(seeks[1].added_ms, seeks[2].added_ms);
    EXPECT_LT(seeks[0].order, seeks[1].order);
    EXPECT_EQ(a.book->held().size(), 2u);
}

TEST_F(SeekTest, RacingClaimsOfOverlappingPairsClaimEachSeekOnce) {
    // b is the matcher, with a long lease: it will still believe it holds it after losing it.
    auto& b = node("b", {.ttl = 30s, .renew_every = 10s, .margin = 50ms});
    auto& a = node("a");
    b.matcher->start();
    ASSERT_TRUE(run_until(io_, [&] { return b.matcher->is_matcher(); }));
    std::vector<std::string> seeks;
    for (std::uint64_t i = 0; i < 20; ++i) seeks.push_back(add(i % 2 ? a : b, i, "s"));
    // b's lease is gone (as if b had been paused past its TTL) and a is elected.
    raw({"SET", "xq:lease:matcher", "a|t-a", "PX", "30000"});
    a.matcher->start();
    ASSERT_TRUE(run_until(io_, [&] { return a.matcher->is_matcher(); }));
    EXPECT_TRUE(b.matcher->is_matcher());  // b has not noticed yet

    // Both claim overlapping pairs at once, interleaved on their two connections.
    std::map<std::pair<char, std::size_t>, std::expected<ClaimResult, RedisError>> answers;
    for (std::size_t i = 0; i + 1 < seeks.size(); ++i) {
        for (auto* n : {&a, &b}) {
            const char who = n == &a ? 'a' : 'b';
            const auto second = seeks[(i + (who == 'a' ? 1 : 3)) % seeks.size()];
            n->matcher->claim(seeks[i], second, [&answers, who, i](auto r) { answers.emplace(std::make_pair(who, i), r); });
        }
    }
    ASSERT_TRUE(run_until(io_, [&] { return answers.size() == 2 * (seeks.size() - 1); }));
    std::set<std::string> claimed;
    int won = 0;
    for (const auto& [key, answer] : answers) {
        ASSERT_TRUE(answer);
        if (key.first == 'b') {
            EXPECT_EQ(*answer, ClaimResult::NotMatcher);  // refused by Redis: the lease is a's
            continue;
        }
        if (*answer != ClaimResult::Won) continue;
        ++won;
        const auto i = key.second;
        EXPECT_TRUE(claimed.insert(seeks[i]).second) << seeks[i];
        EXPECT_TRUE(claimed.insert(seeks[(i + 1) % seeks.size()]).second);
    }
    EXPECT_EQ(won, 10);  // (0,1), (2,3), ... in the order sent
    EXPECT_TRUE(read(a).empty());
    EXPECT_EQ(a.matcher->stats().claims_won, 10u);
    EXPECT_EQ(b.matcher->stats().claims_won, 0u);
}

TEST_F(SeekTest, WhenTheMatcherDiesAnotherNodeIsElectedAndFindsEverySeek) {
    const LeaseKeeperOptions lease{.ttl = 2s, .renew_every = 200ms, .margin = 100ms};
    auto& a = node("a", lease);
    auto& b = node("b", lease);
    a.matcher->start();
    ASSERT_TRUE(run_until(io_, [&] { return a.matcher->is_matcher(); }));
    b.matcher->start();
    std::vector<std::string> seeks;
    for (std::uint64_t i = 0; i < 6; ++i) seeks.push_back(add(i % 2 ? a : b, i, "s"));
    EXPECT_EQ(claim(a, seeks[0], seeks[1]), ClaimResult::Won);
    EXPECT_EQ(claim(b, seeks[2], seeks[3]), ClaimResult::NotMatcher);  // b is not the matcher
    EXPECT_FALSE(b.matcher->is_matcher());

    a.matcher->stop(false);  // killed: its lease is not released, it expires
    ASSERT_TRUE(run_until(io_, [&] { return b.matcher->is_matcher(); }));
    EXPECT_EQ(b.elected, 1);
    EXPECT_EQ(read(b).size(), 4u);
    EXPECT_EQ(ids(read(b)), (std::set<std::string>(seeks.begin() + 2, seeks.end())));
    // A pair with a seek the dead matcher claimed is refused; the other seek stays.
    EXPECT_EQ(claim(b, seeks[2], seeks[1]), ClaimResult::SecondGone);
    EXPECT_EQ(claim(b, seeks[0], seeks[2]), ClaimResult::FirstGone);
    EXPECT_EQ(claim(b, seeks[2], seeks[5]), ClaimResult::Won);
    EXPECT_EQ(ids(read(b)), (std::set<std::string>{seeks[3], seeks[4]}));
}

TEST_F(SeekTest, ACancelAndAClaimOfTheSameSeekNeverBothSucceed) {
    auto& a = node("a");
    auto& b = node("b");
    a.matcher->start();
    ASSERT_TRUE(run_until(io_, [&] { return a.matcher->is_matcher(); }));
    constexpr std::size_t kPairs = 30;
    std::vector<std::string> firsts, seconds;
    for (std::uint64_t i = 0; i < kPairs; ++i) {
        firsts.push_back(add(b, i, "first"));
        seconds.push_back(add(a, 100 + i, "second"));
    }
    // b's player cancels while a claims, on two connections: half the time the cancel is sent first.
    std::map<std::size_t, std::expected<CancelResult, RedisError>> cancels;
    std::map<std::size_t, std::expected<ClaimResult, RedisError>> claims;
    for (std::size_t i = 0; i < kPairs; ++i) {
        auto cancel = [&, i] { b.book->cancel(firsts[i], [&cancels, i](auto r) { cancels.emplace(i, r); }); };
        auto claim = [&, i] { a.matcher->claim(firsts[i], seconds[i], [&claims, i](auto r) { claims.emplace(i, r); }); };
        if (i % 2) {
            cancel();
            claim();
        } else {
            claim();
            cancel();
        }
    }
    ASSERT_TRUE(run_until(io_, [&] { return cancels.size() == kPairs && claims.size() == kPairs; }));
    std::set<std::string> left = ids(read(a));
    for (std::size_t i = 0; i < kPairs; ++i) {
        ASSERT_TRUE(cancels.at(i) && claims.at(i));
        const bool cancelled = *cancels.at(i) == CancelResult::Cancelled;
        const bool won = *claims.at(i) == ClaimResult::Won;
        EXPECT_NE(cancelled, won) << i;
        if (won) {
            EXPECT_EQ(*cancels.at(i), CancelResult::Claimed);
            EXPECT_FALSE(left.contains(seconds[i]));
        } else {
            EXPECT_EQ(*claims.at(i), ClaimResult::FirstGone);
            EXPECT_TRUE(left.contains(seconds[i]));  // the other player still waits
        }
        EXPECT_FALSE(left.contains(firsts[i]));
    }
    EXPECT_TRUE(b.book->held().empty());
}

TEST_F(SeekTest, SeeksSurviveAReconnectionAndARedisRestart) {
    // A previous run of node b left a seek behind: b's first restore removes it.
    raw({"HSET", "xq:seeks", "b:old:1", "b|5|1|1|x"});
    auto& a = node("a");
    auto& b = node("b");
    a.matcher->start();
    ASSERT_TRUE(run_until(io_, [&] { return a.matcher->is_matcher(); }));
    ASSERT_TRUE(run_until(io_, [&] { return b.book->stats().restores == 1 && !ids(read(a)).contains("b:old:1"); }));
    const auto s1 = add(b, 1, "one");
    const auto s2 = add(b, 2, "two");
    const auto s3 = add(b, 3, "three");
    EXPECT_EQ(claim(a, s1, s2), ClaimResult::Won);

    // b's connection drops before b hears of the pairing: its restore finds s1 and s2 claimed
    // (their tombstones) and does not offer them again.
    raw({"CLIENT", "KILL", "TYPE", "normal"});
    ASSERT_TRUE(run_until(io_, [&] { return b.book->stats().restores >= 2 && b.found_claimed.size() == 2; }));
    EXPECT_EQ(std::set<std::string>(b.found_claimed.begin(), b.found_claimed.end()), (std::set<std::string>{s1, s2}));
    EXPECT_EQ(b.book->held().size(), 1u);

    // Redis restarted empty: b puts s3 back; a stands again and finds it.
    redis_.kill();
    redis_.restart();
    // a learns it lost the lease (Redis forgot it), stands again and is elected again.
    ASSERT_TRUE(run_until(io_, [&] {
        return !a.deposed.empty() && a.matcher->is_matcher() && b.book->stats().restores >= 3 &&
               b.client->state() == ConnectionState::Connected;
    }));
    EXPECT_EQ(a.elected, 2);
    ASSERT_TRUE(run_until(io_, [&] { return ids(read(a)) == std::set<std::string>{s3}; }));
    EXPECT_EQ(read(a)[0].bytes, "three");
}

TEST_F(SeekTest, APairingNotYetHeardOfWhenRedisRestartsIsNotPairedAgain) {
    auto& a = node("a");
    auto& b = node("b");
    a.matcher->start();
    ASSERT_TRUE(run_until(io_, [&] { return a.matcher->is_matcher(); }));
    const auto s1 = add(b, 1, "one");
    const auto s2 = add(b, 2, "two");
    const auto s3 = add(b, 3, "three");
    EXPECT_EQ(claim(a, s1, s2), ClaimResult::Won);
    // Redis restarts before b hears of the pairing: b puts all three back, tombstones are gone.
    redis_.kill();
    redis_.restart();
    ASSERT_TRUE(run_until(io_, [&] { return a.matcher->is_matcher() && !a.deposed.empty() && b.book->stats().restores >= 2; }));
    ASSERT_TRUE(run_until(io_, [&] { return raw({"HLEN", "xq:seeks"}) == ":3\r\n"; }));
    // The matcher remembers what it claimed: only s3 is offered, and s1 cannot be claimed again.
    EXPECT_EQ(ids(read(a)), (std::set<std::string>{s3}));
    EXPECT_EQ(a.matcher->stats().reclaimed, 2u);
    EXPECT_EQ(claim(a, s1, s3), ClaimResult::FirstGone);
    // b hears of it at last: its copies go.
    b.book->paired(s1);
    b.book->paired(s2);
    ASSERT_TRUE(run_until(io_, [&] { return raw({"HLEN", "xq:seeks"}) == ":1\r\n"; }));
    EXPECT_EQ(b.book->held().size(), 1u);
}

}  // namespace
}  // namespace xq::cluster
