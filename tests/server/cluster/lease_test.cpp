// Leases against a real redis-server: who may take, renew and release a lease, expiry, NOSCRIPT
// after SCRIPT FLUSH and after a restart, and the node-lease keeper's loss reports (a paused
// node, a Redis restart).

#include <gtest/gtest.h>

#include <optional>
#include <thread>

#include "run_until.h"
#include "server/cluster/lease.h"
#include "server/cluster/lease_keeper.h"
#include "support/temp_redis.h"

namespace xq::cluster {
namespace {

using test::run_until;
using namespace std::chrono_literals;

class LeaseTest : public ::testing::Test {
protected:
    void SetUp() override {
        ConnectionOptions options;
        options.backoff_max = 100ms;
        client_ = RedisClient::create(io_.get_executor(), *parse_redis_address(redis_.unix_address()), options);
        client_->watch_link([this] { ++ups_; }, [this](const RedisError&) { ++downs_; });
        client_->start();
        ASSERT_TRUE(run_until(io_, [&] { return client_->state() == ConnectionState::Connected; }));
        leases_ = std::make_shared<Leases>(client_);
    }
    void TearDown() override { client_->stop(); }

    template <class T, class Start>
    T wait(Start start) {
        return test::answer<T>(io_, std::move(start));
    }
    AcquireResult acquire(const std::string& holder, const std::string& token, std::chrono::milliseconds ttl = 5s) {
        return wait<AcquireResult>([&](auto h) { leases_->acquire(key_, holder, token, ttl, h); });
    }
    RenewResult renew(const std::string& holder, const std::string& token) {
        return wait<RenewResult>([&](auto h) { leases_->renew(key_, holder, token, 5s, h); });
    }
    bool release(const std::string& holder, const std::string& token) {
        return wait<bool>([&](auto h) { leases_->release(key_, holder, token, h); });
    }
    std::optional<LeaseHolder> holder() {
        return wait<std::optional<LeaseHolder>>([&](auto h) { leases_->holder(key_, h); });
    }

    asio::io_context io_{1};
    test::TempRedis redis_;
    std::shared_ptr<RedisClient> client_;
    std::shared_ptr<Leases> leases_;
    const std::string key_ = node_lease_key("n1");
    int ups_ = 0;
    int downs_ = 0;
};

TEST(NodeIds, AreShortAndSafeInKeysAndValues) {
    EXPECT_TRUE(valid_node_id("n1"));
    EXPECT_TRUE(valid_node_id("node_A-7"));
    for (const char* bad : {"", "a|b", "a b", "a:b", "節點"}) EXPECT_FALSE(valid_node_id(bad)) << bad;
    EXPECT_FALSE(valid_node_id(std::string(65, 'a')));
    EXPECT_EQ(node_lease_key("n1"), "xq:node:n1");
}

TEST_F(LeaseTest, ALiveLeaseCannotBeTakenByAnotherHolderOrIncarnation) {
    auto first = acquire("n1", "5");
    EXPECT_TRUE(first.granted);
    EXPECT_EQ(first.current, (LeaseHolder{"n1", "5"}));
    auto other = acquire("n2", "6");
    EXPECT_FALSE(other.granted);
    EXPECT_EQ(other.current, (LeaseHolder{"n1", "5"}));
    // The same node restarted with a new fence waits for its old lease to expire too.
    EXPECT_FALSE(acquire("n1", "6").granted);
    // Exactly the same holder and token: a refresh.
    EXPECT_TRUE(acquire("n1", "5").granted);
    EXPECT_EQ(holder(), (LeaseHolder{"n1", "5"}));
}

TEST_F(LeaseTest, AnExpiredLeaseCanBeTakenAndItsOldHolderCannotRenewIt) {
    EXPECT_TRUE(acquire("n1", "5", 100ms).granted);
    ASSERT_TRUE(run_until(io_, [&] { return !holder().has_value(); }));
    EXPECT_EQ(renew("n1", "5"), RenewResult::Expired);
    EXPECT_TRUE(acquire("n2", "6").granted);
    EXPECT_EQ(renew("n1", "5"), RenewResult::Taken);
    EXPECT_FALSE(release("n1", "5"));
    EXPECT_EQ(renew("n2", "6"), RenewResult::Renewed);
    EXPECT_TRUE(release("n2", "6"));
    EXPECT_FALSE(holder().has_value());
}

TEST_F(LeaseTest, NoScriptAfterScriptFlushRunsTheScriptAgain) {
    EXPECT_TRUE(acquire("n1", "5").granted);
    // The first run of each script is EVAL with SCRIPT LOAD behind it; once a second renewal is
    // answered, the SCRIPT LOAD's answer (before it) has taught the SHA1.
    EXPECT_EQ(renew("n1", "5"), RenewResult::Renewed);
    EXPECT_EQ(renew("n1", "5"), RenewResult::Renewed);
    EXPECT_EQ(leases_->script_reloads(), 0u);
    ASSERT_EQ(redis_.raw_command("*2\r\n$6\r\nSCRIPT\r\n$5\r\nFLUSH\r\n"), "+OK\r\n");
    EXPECT_EQ(renew("n1", "5"), RenewResult::Renewed);
    EXPECT_EQ(leases_->script_reloads(), 1u);
    EXPECT_EQ(renew("n1", "5"), RenewResult::Renewed);  // EVALSHA works again
    EXPECT_EQ(leases_->script_reloads(), 1u);
}

TEST_F(LeaseTest, RedisRestartEmptiesLeasesAndScripts) {
    EXPECT_TRUE(acquire("n1", "5").granted);
    EXPECT_EQ(renew("n1", "5"), RenewResult::Renewed);
    EXPECT_EQ(renew("n1", "5"), RenewResult::Renewed);  // by EVALSHA (see above)
    redis_.kill();
    ASSERT_TRUE(run_until(io_, [&] { return downs_ == 1; }));
    redis_.restart();
    ASSERT_TRUE(run_until(io_, [&] { return ups_ == 2; }));
    EXPECT_EQ(renew("n1", "5"), RenewResult::Expired);
    EXPECT_GE(leases_->script_reloads(), 1u);
    EXPECT_TRUE(acquire("n2", "6").granted);
}

class LeaseKeeperTest : public LeaseTest {
protected:
    std::shared_ptr<LeaseKeeper> keeper(const std::string& token, LeaseKeeperOptions options) {
        auto k = LeaseKeeper::create(
            io_.get_executor(), leases_, "n1", token, options, [this] { ++acquired_; }, [this](const std::string& why) { lost_.push_back(why); });
        keepers_.push_back(k);
        return k;
    }
    void TearDown() override {
        for (auto& k : keepers_) k->stop(false);
        LeaseTest::TearDown();
    }
    int acquired_ = 0;
    std::vector<std::string> lost_;
    std::vector<std::shared_ptr<LeaseKeeper>> keepers_;
};

TEST_F(LeaseKeeperTest, RenewsPastTheTtlAndHandsOverOnRelease) {
    const LeaseKeeperOptions options{.ttl = 600ms, .renew_every = 150ms, .margin = 50ms};
    auto first = keeper("7", options);
    first->start();
    ASSERT_TRUE(run_until(io_, [&] { return first->held(); }));
    EXPECT_EQ(holder(), (LeaseHolder{"n1", "7"}));
    // A successor (the same node id restarted with a new fence) waits while the lease lives.
    auto second = keeper("8", options);
    second->start();
    const auto until = std::chrono::steady_clock::now() + 3 * options.ttl;
    ASSERT_TRUE(run_until(io_, [&] { return std::chrono::steady_clock::now() > until; }));
    EXPECT_TRUE(first->held());
    EXPECT_EQ(second->state(), LeaseKeeper::State::Acquiring);
    EXPECT_TRUE(lost_.empty());
    first->stop(true);
    ASSERT_TRUE(run_until(io_, [&] { return second->held(); }));
    EXPECT_EQ(holder(), (LeaseHolder{"n1", "8"}));
    EXPECT_EQ(acquired_, 2);
}

TEST_F(LeaseKeeperTest, APausedNodeKnowsItLostTheLeaseBeforeAnythingRuns) {
    const LeaseKeeperOptions options{.ttl = 300ms, .renew_every = 100ms, .margin = 20ms};
    auto k = keeper("7", options);
    k->start();
    ASSERT_TRUE(run_until(io_, [&] { return k->held(); }));
    // The node's thread stops for longer than the TTL (as a SIGSTOP or a stall would): no timer,
    // no renewal runs meanwhile.
    std::this_thread::sleep_for(options.ttl + 100ms);
    EXPECT_FALSE(k->held());  // before any handler has run
    ASSERT_TRUE(run_until(io_, [&] { return !lost_.empty(); }));
    EXPECT_EQ(k->state(), LeaseKeeper::State::Lost);
    EXPECT_FALSE(holder().has_value());  // Redis let it expire too
}

TEST_F(LeaseKeeperTest, RedisRestartIsALoss) {
    const LeaseKeeperOptions options{.ttl = 1000ms, .renew_every = 100ms, .margin = 50ms};
    auto k = keeper("7", options);
    k->start();
    ASSERT_TRUE(run_until(io_, [&] { return k->held(); }));
    redis_.kill();
    redis_.restart();
    ASSERT_TRUE(run_until(io_, [&] { return !lost_.empty(); }));
    EXPECT_FALSE(k->held());
    EXPECT_EQ(lost_.size(), 1u);
    EXPECT_FALSE(lost_[0].empty());
}

}  // namespace
}  // namespace xq::cluster
