#pragma once
// A node's side of quick match across nodes (docs/cluster.md, "A quick match"): the seeks of the
// players connected here, kept in the Redis hash `xq:seeks` (seek_record.h) where the elected
// matcher (seek_matcher.h) reads and claims them. The node adds and cancels; it never pairs.
//
// No seek lost: the book remembers the seeks it holds, and on every (re)connection one script
// puts back those Redis lacks (a restart without persistence emptied it) unless their tombstone
// says they were claimed meanwhile, and removes this node id's seeks it does not hold (a previous
// run's, an add whose answer was lost). A Redis restart also loses the tombstones: a seek claimed
// just before it is put back if its node had not heard of the pairing, and the matcher, which
// remembers its claims, skips it (seek_matcher.h). A cancel and a claim of the same seek are both
// single scripts: exactly one of them finds it.

#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "server/cluster/redis_client.h"
#include "server/cluster/redis_script.h"
#include "server/cluster/seek_record.h"

namespace xq::cluster {

enum class CancelResult {
    Cancelled,  // removed before any matcher claimed it
    Claimed,    // a matcher claimed it first: the player is being paired
    Unknown     // not there and no tombstone (never added, or the tombstone expired)
};
std::string_view to_string(CancelResult result);

struct SeekBookStats {
    std::uint64_t restores = 0;       // reconciliations run
    std::uint64_t found_claimed = 0;  // held seeks found claimed by a reconciliation
};

class SeekBook : public std::enable_shared_from_this<SeekBook> {
public:
    struct Held {
        std::uint64_t session = 0;
        std::string bytes;
    };
    using AddDone = std::function<void(std::expected<std::string, RedisError>)>;  // the seek id
    using CancelDone = std::function<void(std::expected<CancelResult, RedisError>)>;
    using CountDone = std::function<void(std::expected<std::int64_t, RedisError>)>;
    // A held seek found claimed by a reconciliation (its pairing's message may have been lost).
    using ClaimedHandler = std::function<void(const std::string& id, const Held& seek)>;

    // `client` may be shared; `node` must be a valid_node_id().
    static std::shared_ptr<SeekBook> create(std::shared_ptr<RedisClient> client, std::string node);

    void on_claimed(ClaimedHandler handler) { on_claimed_ = std::move(handler); }
    // Reconciles on every connection of the client from now on (the first included).
    void start();
    void stop();

    // Adds a seek of `session`; the id once Redis has it. On an error it is not held (and a
    // copy that did reach Redis is removed by the next reconciliation).
    void add(std::uint64_t session, std::string bytes, AddDone done);
    // The player no longer seeks: forgotten here at once, whatever Redis answers.
    void cancel(const std::string& id, CancelDone done);
    // The node learnt that this seek was paired: nothing to put back any more, and a copy put
    // back meanwhile (Redis restarted before the news came) is removed.
    void paired(const std::string& id);
    // Removes every seek of `node` (dead: its players' connections are gone with it).
    void forget_node(const std::string& node, CountDone done);

    // Puts back the held seeks Redis lacks and reports those claimed meanwhile (on_claimed). Run on
    // every connection, and by the node while it holds seeks: a matcher that died between a claim
    // and the game's start left a claimed seek whose pairing never comes.
    void restore();

    const std::map<std::string, Held>& held() const { return held_; }
    const SeekBookStats& stats() const { return stats_; }

    SeekBook(std::shared_ptr<RedisClient> client, std::string node);

private:

    std::shared_ptr<RedisClient> client_;
    std::string node_;
    std::string id_prefix_;  // "<node>:<process epoch>:"
    std::uint64_t next_id_ = 0;
    RedisScript add_script_;
    RedisScript cancel_script_;
    RedisScript restore_script_;
    RedisScript forget_script_;
    std::map<std::string, Held> held_;
    std::set<std::string> adding_;  // adds sent and not yet answered
    ClaimedHandler on_claimed_;
    bool stopped_ = false;
    SeekBookStats stats_;
};

}  // namespace xq::cluster
