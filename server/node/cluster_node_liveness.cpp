// The cluster node's liveness (docs/cluster.md, "Ownership, leases, fencing" and "Failures"): our
// lease kept (and taken again after a Redis restart), other nodes' leases checked once a second,
// and what follows when one is gone (a death: its games claimed) or held by a new process of its
// id (a restart: the sessions that spanned its old process end).

#include <chrono>

#include "server/dispatch/wire.h"
#include "server/log/log.h"
#include "server/node/cluster_node.h"

namespace xq::server::node {

// Takes our lease and keeps it. Lost to another process of our id: we stop. Lost because Redis
// restarted empty or was unreachable past the TTL: we take it again, and give up the games a
// survivor claimed meanwhile (their fences moved on, so our writes to them were refused anyway).
void ClusterNode::stand() {
    std::weak_ptr<bool> alive = alive_;
    const bool again = keeper_ != nullptr;
    keeper_ = cluster::LeaseKeeper::create(
        executor_, leases_, options_.id, token_, options_.lease,
        [this, alive, again] {
            if (!alive.lock() || stopped_) return;
            log(LogLevel::Info, "cluster: node ", options_.id, again ? " holds its lease again" : " holds its lease");
            if (again) give_up_claimed_games();
        },
        [this, alive](const std::string& why) {
            if (!alive.lock() || stopped_) return;
            if (why.ends_with(cluster::to_string(cluster::RenewResult::Taken))) {
                log(LogLevel::Error, "cluster: node ", options_.id, " lost its lease (", why, "); stopping");
                if (lost_) lost_();
                return;
            }
            log(LogLevel::Warn, "cluster: node ", options_.id, " lost its lease (", why, "); taking it again");
            asio::post(executor_, [this, alive] {
                if (alive.lock() && !stopped_) {
                    stand();
                    keeper_->start();
                }
            });
        });
}

void ClusterNode::give_up_claimed_games() {
    std::vector<RoomId> lost;
    for (const auto& [listing, listed] : dispatcher_.lobby().every_game(std::chrono::steady_clock::now())) {
        const auto owner = ownership_.owner_of(listing.id);
        if (!owner) continue;  // ended meanwhile (NotFound), or the database is away: the fence still guards
        if (*owner && **owner != options_.id) {
            log(LogLevel::Warn, "cluster: game ", listing.id, " was taken over by ", **owner, " while our lease was gone");
            lost.push_back(listing.id);
        }
    }
    for (const RoomId& id : lost) dispatcher_.give_up(id);
}

ClusterNode::~ClusterNode() {
    *alive_ = false;
    stop();
}

// Every node we share sessions with, and every owner of a live game, asked whether it still
// holds its lease; the games of dead ones claimed.
void ClusterNode::check_nodes() {
    std::set<std::string> nodes = dead_;
    nodes.insert(seek_nodes_.begin(), seek_nodes_.end());
    for (const auto& [key, peer] : remote_) nodes.insert(key.first);
    for (const auto& [id, entry] : forwarded_) nodes.insert(entry.nodes.begin(), entry.nodes.end());
    // Owners of lobby entries too: a node killed with only open games (its bots', say) would
    // otherwise stay listed for ever.
    for (const auto& [game, entry] : replica_->entries()) nodes.insert(entry.owner);
    if (auto owners = ownership_.live_owners()) nodes.insert(owners->begin(), owners->end());
    else log(LogLevel::Warn, "cluster: cannot read the owners of live games: ", owners.error().message);
    nodes.erase(options_.id);
    drop_unpaired_claims();
    for (const std::string& node : std::set<std::string>(dead_)) take_over(node);
    retry_parked();
    for (const std::string& node : nodes) {
        if (!checking_.insert(node).second) continue;
        leases_->holder(cluster::node_lease_key(node),
                        [this, alive = std::weak_ptr<bool>(alive_), node](std::expected<std::optional<cluster::LeaseHolder>, cluster::RedisError> r) {
                            if (!alive.lock() || stopped_) return;
                            checking_.erase(node);
                            if (!r) return;  // an error proves nothing
                            // Just after a Redis restart every lease is missing until its node
                            // takes it again: absence proves nothing until they had the time.
                            if (!holds_lease() || std::chrono::steady_clock::now() - redis_up_since_ <
                                                      options_.lease.ttl + options_.lease.renew_every)
                                return;
                            // Twice in a row, a check apart: a node just started may not hold its
                            // lease yet when its first requests arrive.
                            if (r->has_value()) {
                                absent_.erase(node);
                                dead_.erase(node);  // back (a restarted node with its id)
                                // Another token: a new process of that id, restarted faster than
                                // two checks. Its predecessor's sessions are gone as after a death,
                                // but its games are its own again (restored from its journal).
                                auto [known, fresh] = tokens_.try_emplace(node, (*r)->token);
                                if (!fresh && known->second != (*r)->token) {
                                    known->second = (*r)->token;
                                    node_restarted(node);
                                }
                            } else if (!dead_.contains(node) && !absent_.insert(node).second) {
                                node_died(node);
                            }
                        });
    }
}

// A node without a lease is dead (or paused past its TTL, and it stops itself when it wakes): its
// sessions' seats here go away, and our sessions' requests to it would be lost, so those sessions
// are closed and their clients reconnect (their games move to a surviving owner).
void ClusterNode::node_died(const std::string& node) {
    ++stats_.dead_nodes;
    absent_.erase(node);
    tokens_.erase(node);
    log(LogLevel::Warn, "cluster: node ", node, " holds no lease: taken for dead");
    // Its players' connections are gone with it: so are their seeks. (A restarted process of
    // that id removes its predecessor's seeks itself: SeekBook's reconciliation.)
    seek_nodes_.erase(node);
    seek_book_->forget_node(node, [node](std::expected<std::int64_t, cluster::RedisError> removed) {
        if (removed && *removed > 0) log(LogLevel::Info, "cluster: removed ", *removed, " seek(s) of dead node ", node);
    });
    forget_sessions(node);
    dead_.insert(node);
    for (const auto& [game, entry] : replica_->entries())
        if (entry.owner == node) orphans_[game] = node;
    take_over(node);
}

void ClusterNode::node_restarted(const std::string& node) {
    ++stats_.restarted_nodes;
    log(LogLevel::Warn, "cluster: node ", node, " was restarted: the sessions spanning its previous process end");
    forget_sessions(node);
}

// The sessions between us and a process of `node` that is gone: its sessions' seats and seeks
// here go, and ours that had requests there close, so their clients reconnect and resume.
void ClusterNode::forget_sessions(const std::string& node) {
    std::vector<RemoteKey> keys;
    for (const auto& [key, peer] : remote_)
        if (key.first == node) keys.push_back(key);
    for (const RemoteKey& key : keys) remote_closed(key);
    for (auto& [id, entry] : forwarded_)
        if (entry.nodes.erase(node))
            if (const auto peer = entry.peer.lock()) peer->close(CloseReason::ByServer, true);
}

void ClusterNode::take_over(const std::string& node) {
    for (;;) {
        auto games = ownership_.take_over(node, options_.takeover_batch);
        if (!games) return log(LogLevel::Warn, "cluster: cannot claim the games of ", node, ": ", games.error().message);
        if (games->empty()) break;
        const auto rooms = dispatcher_.adopt_games(*games);
        stats_.taken_over += games->size();
        log(LogLevel::Info, "cluster: took over ", rooms.size(), " game(s) of node ", node);
        for (const RoomId& id : rooms) published_.erase(wire::game_id(id));  // put again under our id
    }
    // Every game of the dead node has a live owner now (us or another survivor): its entries go,
    // so that each new owner's own entries may replace them.
    replica_->forget_node(node);
    publish_lobby();
    retry_parked();
}

}  // namespace xq::server::node
