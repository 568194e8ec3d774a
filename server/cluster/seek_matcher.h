#pragma once
// The quick-match matcher (docs/cluster.md, "A quick match"): one node at a time, elected by the
// lease `xq:lease:matcher` (a LeaseKeeper on that key), reads every node's seeks (seek_record.h)
// and claims pairs. It does not decide pairs: its caller does, with the single-node rules
// (server/rooms/lobby.h); this only makes each decision safe across nodes.
//
// A claim is one Lua script: it checks that the matcher lease is still exactly ours, that both
// seeks are still there (not cancelled, not claimed by a previous matcher), then removes both and
// leaves their tombstones, all or nothing. So no player is paired twice, even by a matcher that
// was paused and has not yet learnt that it lost the lease. Every seek stays in Redis until it is
// claimed or cancelled, so the next matcher finds them all.

#include <chrono>
#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "server/cluster/lease_keeper.h"
#include "server/cluster/redis_script.h"
#include "server/cluster/seek_record.h"

namespace xq::cluster {

struct SeekMatcherOptions {
    LeaseKeeperOptions lease;  // its key is always kMatcherLeaseKey
    std::chrono::milliseconds tombstone_ttl{std::chrono::minutes(10)};
    std::size_t max_seek_bytes = 4096;  // larger seeks in Redis are skipped as malformed
};

enum class ClaimResult {
    Won,         // both seeks removed: the caller starts their game
    NotMatcher,  // the matcher lease is not ours (any more): nothing done
    FirstGone,   // the first seek is gone (cancelled or claimed): nothing done
    SecondGone   // the second is gone, the first still there: nothing done
};
std::string_view to_string(ClaimResult result);

struct SeekMatcherStats {
    std::uint64_t claims_won = 0;
    std::uint64_t claims_lost = 0;  // any other answer
    std::uint64_t malformed = 0;    // seeks in Redis skipped by read()
    std::uint64_t elections = 0;    // times the lease became ours
    std::uint64_t reclaimed = 0;    // seeks read again after we claimed them (skipped)
};

class SeekMatcher : public std::enable_shared_from_this<SeekMatcher> {
public:
    using ReadDone = std::function<void(std::expected<std::vector<SeekRecord>, RedisError>)>;
    using ClaimDone = std::function<void(std::expected<ClaimResult, RedisError>)>;

    // `token` tells this process apart from an earlier one of the same node (as a node lease's).
    // `on_elected` each time this node becomes the matcher; `on_deposed` each time it stops being
    // it, after which it stands again (takes the lease when it is free).
    static std::shared_ptr<SeekMatcher> create(asio::any_io_executor executor, std::shared_ptr<Leases> leases, std::string node,
                                               std::string token, SeekMatcherOptions options, std::function<void()> on_elected,
                                               std::function<void(const std::string&)> on_deposed);

    void start();
    // Stops standing; with `release` a successor is elected at once, without it after the TTL
    // (as when the node dies). No callback after this.
    void stop(bool release);
    // Certainly the matcher now (LeaseKeeper::held).
    bool is_matcher() const { return keeper_ && keeper_->held(); }

    // Every seek of every node, in arrival order, but those this matcher has claimed already: a
    // node puts its seeks back after Redis restarted empty, and may not have heard of a pairing.
    void read(ReadDone done);
    // Claims the pair (first, second) if both are still there and we are still the matcher.
    void claim(const std::string& first, const std::string& second, ClaimDone done);

    const SeekMatcherStats& stats() const { return stats_; }

    SeekMatcher(asio::any_io_executor executor, std::shared_ptr<Leases> leases, std::string node, std::string token,
                SeekMatcherOptions options, std::function<void()> on_elected, std::function<void(const std::string&)> on_deposed);

private:
    void stand();

    asio::any_io_executor executor_;
    std::shared_ptr<Leases> leases_;
    std::string node_;
    std::string token_;
    SeekMatcherOptions options_;
    std::function<void()> on_elected_;
    std::function<void(const std::string&)> on_deposed_;
    std::shared_ptr<LeaseKeeper> keeper_;
    RedisScript claim_script_;
    std::map<std::string, std::chrono::steady_clock::time_point> claimed_;  // won, until tombstone_ttl
    bool stopped_ = false;
    SeekMatcherStats stats_;
};

}  // namespace xq::cluster
