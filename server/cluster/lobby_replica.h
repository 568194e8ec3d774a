#pragma once
// One lobby for every node (docs/cluster.md, "The lobby"): each node writes the summaries of the
// games it owns into the Redis hash `xq:lobby` and announces each change on the channel
// `xq:lobby` (formats in lobby_record.h); every node keeps a replica of all entries, so it
// answers ListGames and knows each game's owner without asking Redis.
//
// - Sync: a full read (HGETALL) once subscribed, after every reconnection of either connection;
//   messages that arrive while it is in flight are applied after it (Redis publishes in order, so
//   the last message of a game is its last write). The same read reconciles our own entries with
//   what we hold (a Redis restart without persistence lost them; a failed write left them stale).
// - Writes are coalesced: a game changes on every move, so at most one write per flush interval
//   carries, for each game changed meanwhile, its newest state (a put, or a remove: never lost
//   behind a put). One Lua script per batch writes the hash, the node's index and the messages.
// - A write never replaces another node's entry: after a takeover, forget_node(dead) first, then
//   the new owner puts the games under its own id. A stale node's put is refused and counted.
// - Our own entries in the replica are what we put, not what Redis echoes back.
// - Redis content is untrusted: a malformed field, value or message is skipped and counted.

#include <chrono>
#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/cluster/lobby_record.h"
#include "server/cluster/redis_client.h"
#include "server/cluster/redis_script.h"
#include "server/cluster/redis_subscriber.h"

namespace xq::cluster {

struct LobbyReplicaOptions {
    std::chrono::milliseconds flush_every{250};  // at most one write per game per interval
    std::size_t max_batch = 256;                 // games per script call (a flush pipelines several)
    std::size_t max_entries = 200'000;           // the replica's bound; more is counted as malformed
    std::size_t max_summary_bytes = 64 * 1024;
    std::size_t max_buffered_bytes = 64 << 20;  // messages held while a full read is out
};

struct LobbyReplicaStats {
    std::uint64_t written = 0;         // game states sent in flushes
    std::uint64_t refused = 0;         // puts refused: another node's entry
    std::uint64_t write_failures = 0;  // script calls failed (requeued or resynchronised)
    std::uint64_t malformed = 0;       // fields, values or messages skipped
    std::uint64_t resyncs = 0;         // full reads sent
};

class LobbyReplica : public std::enable_shared_from_this<LobbyReplica> {
public:
    // `entry` is the new entry, or nullptr when the game left the lobby.
    using ChangeHandler = std::function<void(std::uint64_t game, const LobbyEntry* entry)>;
    using ForgetDone = std::function<void(std::expected<std::int64_t, RedisError>)>;  // entries removed

    // `client` may be shared (lease keeper, bus); the replica makes its own subscriber to the same
    // address. `node` must be a valid_node_id().
    static std::shared_ptr<LobbyReplica> create(asio::any_io_executor executor, std::shared_ptr<RedisClient> client, std::string node,
                                                LobbyReplicaOptions options = {}, ConnectionOptions subscriber_options = {});

    void on_change(ChangeHandler handler) { on_change_ = std::move(handler); }
    void start();
    // Closes the subscriber; no handler is called after this. Pending writes are dropped.
    void stop();

    // Our game `game` now has this summary (false when over max_summary_bytes: nothing changes).
    bool put(std::uint64_t game, std::string summary);
    // Our game left the lobby (finished, or no longer ours).
    void remove(std::uint64_t game);
    // Removes every entry of `node` (dead, its games taken over), at once: not coalesced.
    void forget_node(const std::string& node, ForgetDone done = {});

    std::optional<std::string> owner(std::uint64_t game) const;
    const LobbyEntry* find(std::uint64_t game) const;
    const std::map<std::uint64_t, LobbyEntry>& entries() const { return entries_; }
    // A full read has been applied since the subscriber last (re)connected.
    bool synced() const { return synced_; }
    // Games changed and not yet written.
    std::size_t pending() const { return pending_.size(); }
    const LobbyReplicaStats& stats() const { return stats_; }
    const std::string& node() const { return node_; }

    LobbyReplica(asio::any_io_executor executor, std::shared_ptr<RedisClient> client, std::string node, LobbyReplicaOptions options,
                 ConnectionOptions subscriber_options);
    ~LobbyReplica();
    LobbyReplica(const LobbyReplica&) = delete;
    LobbyReplica& operator=(const LobbyReplica&) = delete;

private:
    using Pending = std::map<std::uint64_t, std::optional<std::string>>;  // newest summary, or a remove

    void set(std::uint64_t game, LobbyEntry entry);
    void erase(std::uint64_t game);
    void on_message(std::string_view payload);
    void apply(const LobbyChange& change);
    void resync();
    void on_snapshot(RedisClient::Result result);
    void reconcile(const std::map<std::uint64_t, std::string>& ours_in_redis, const std::map<std::uint64_t, LobbyEntry>& others);
    void schedule_flush();
    void flush();
    void write(Pending batch);
    void requeue(const Pending& batch);

    std::shared_ptr<RedisClient> client_;
    std::shared_ptr<RedisSubscriber> subscriber_;
    std::string node_;
    LobbyReplicaOptions options_;
    RedisScript write_script_;
    RedisScript forget_script_;
    ChangeHandler on_change_;
    std::map<std::uint64_t, LobbyEntry> entries_;  // every node's, ours included
    std::map<std::uint64_t, std::string> own_;     // what we hold: the truth for our entries
    Pending pending_;
    asio::steady_timer flush_timer_;
    asio::steady_timer retry_timer_;  // a failed full read is tried again
    std::chrono::steady_clock::time_point last_flush_{};
    bool flush_armed_ = false;
    bool snapshot_in_flight_ = false;
    bool resync_again_ = false;
    std::vector<std::string> buffered_;  // messages met while a full read is in flight
    std::size_t buffered_bytes_ = 0;
    bool synced_ = false;
    bool stopped_ = false;
    LobbyReplicaStats stats_;
};

}  // namespace xq::cluster
