#pragma once
// This server as one node of a cluster (docs/cluster.md): its lease in Redis, the bus to the other
// nodes, and the lobby they share. As the dispatcher's Router it forwards each request about a
// game another node owns to that node, and serves the requests other nodes forward for our games
// through RemotePeers, so that a connection stays on the node it reached and its game's owner
// stays the one writer of that game. Its sessions' quick-match seeks wait in Redis for the one
// elected matcher, which may be this node (cluster_node_seeks.cpp).

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>

#include "server/accounts/secret.h"
#include "server/cluster/asio.h"
#include "server/cluster/bus.h"
#include "server/cluster/lease.h"
#include "server/cluster/lease_keeper.h"
#include "server/cluster/lobby_replica.h"
#include "server/cluster/redis_address.h"
#include "server/cluster/seek_book.h"
#include "server/cluster/seek_matcher.h"
#include "server/dispatch/dispatcher.h"
#include "server/dispatch/router.h"
#include "server/node/remote_peer.h"
#include "server/store/game_ownership.h"

namespace xq::server::node {

namespace asio = cluster::asio;

struct NodeOptions {
    cluster::RedisAddress redis;
    std::string id;  // cluster::valid_node_id
    // How often our lobby entries are compared with what we published, and other nodes' leases
    // checked (a node whose lease is gone is dead: its sessions' seats here go away).
    std::chrono::milliseconds publish_every{200};
    std::chrono::milliseconds check_nodes_every{1000};
    // A request about a game whose owner died waits this long for the game's new owner, then is
    // answered TRY_LATER.
    std::chrono::milliseconds park_limit{20000};
    std::int64_t takeover_batch = 100;  // games claimed per transaction
    cluster::LeaseKeeperOptions lease;
    // Quick match across nodes (cluster_node_seeks.cpp): how often the elected matcher reads every
    // seek and pairs them, and its lease (xq:lease:matcher).
    std::chrono::milliseconds match_every{200};
    cluster::LeaseKeeperOptions matcher_lease;
};

struct NodeStats {
    std::uint64_t sent = 0;           // messages published to other nodes
    std::uint64_t forwarded = 0;      // requests sent to an owner
    std::uint64_t served = 0;         // requests served for other nodes
    std::uint64_t relayed = 0;        // payloads from owners for our sessions (one per session)
    std::uint64_t malformed = 0;      // node messages (and seeks in Redis) that did not decode
    std::uint64_t dead_nodes = 0;     // nodes found without a lease
    std::uint64_t restarted_nodes = 0;  // found with another process's lease, before found dead
    std::uint64_t taken_over = 0;     // games claimed from dead nodes
    std::uint64_t parked = 0;         // requests that waited for a game's new owner
    std::uint64_t seeks = 0;          // quick-match seeks of our sessions put in Redis
    std::uint64_t pairings = 0;       // quick-match games this node started as the matcher
};

class ClusterNode final : public Router, private RemoteLink {
public:
    // `lost` is called once if our lease is lost (a long pause, Redis unreachable past the TTL):
    // the server then stops, so its clients go to another node. `ownership` is the store's
    // (PostgreSQL opened with this node's id): how dead nodes' games are claimed.
    ClusterNode(asio::any_io_executor executor, Dispatcher& dispatcher, GameOwnership& ownership, NodeOptions options,
                std::function<void()> lost);
    ~ClusterNode() override;
    ClusterNode(const ClusterNode&) = delete;
    ClusterNode& operator=(const ClusterNode&) = delete;

    void start();
    // Releases the lease (a successor need not wait for it to expire) and closes the connections.
    void stop();
    // A local session closed: the owners it forwarded to hear it (its seats there go away).
    void session_closed(const Peer& peer);

    // Router.
    std::optional<std::string> remote_owner(std::uint64_t game) override;
    void forward(const std::string& node, const std::shared_ptr<Peer>& peer, const proto::NodeIdentity& who,
                 std::string_view frame) override;
    void forward_pong(const std::shared_ptr<Peer>& peer, const proto::NodeIdentity& who, std::string_view frame) override;
    std::vector<proto::GameSummary> remote_games() override;
    // Router: quick match across nodes (cluster_node_seeks.cpp).
    bool seeking(std::uint64_t session) override { return seeks_.contains(session); }
    void seek(const std::shared_ptr<Peer>& peer, std::uint64_t request_id, const proto::NodeSeek& seek) override;
    void cancel_seek(const std::shared_ptr<Peer>& peer, std::uint64_t request_id) override;
    // Whether this node is the cluster's quick-match matcher now.
    bool is_matcher() const { return matcher_ && matcher_->is_matcher(); }

    const std::string& id() const { return options_.id; }
    const NodeStats& stats() const { return stats_; }
    bool holds_lease() const { return keeper_ && keeper_->held(); }
    const cluster::LobbyReplica& lobby() const { return *replica_; }
    // Our Redis's leases, for other roles held by one node at a time (the bots', server/app/bot_lease.h).
    const std::shared_ptr<cluster::Leases>& leases() const { return leases_; }

private:
    // A local session that forwarded requests, and the nodes it forwarded to.
    struct Forwarded {
        std::weak_ptr<Peer> peer;
        std::set<std::string> nodes;
    };
    using RemoteKey = std::pair<std::string, std::uint64_t>;  // its node, its session there
    // A local session's quick-match seek, from the request until it is paired or cancelled.
    struct LocalSeek {
        std::weak_ptr<Peer> peer;
        std::string id;  // in xq:seeks; "" while the add is under way
        std::optional<std::uint64_t> cancel;  // a Leave{0} waiting for the add to finish
        bool closed = false;  // the session closed while the add was under way
        bool paired = false;  // its NodePaired came before the add's answer (another connection)
        // Found claimed (by a cancel, or by the book's reconciliation): its NodePaired is due. If
        // none comes within kClaimedWait (the matcher died before starting the game), the seek
        // is added again, so that it is not lost, or, the player having asked to leave, dropped.
        std::optional<std::chrono::steady_clock::time_point> claimed_at;
        bool leaving = false;  // a cancel found it claimed (answered: the game is starting)
        std::string bytes{};   // the seek as added (proto NodeSeek), to add it again
    };

    // Every message to another node waits in outgoing_ until the end of the loop turn, in order;
    // an event for many watchers on one node then leaves as one message (more_sessions).
    void send(const std::string& node, proto::NodeMessage message);
    void flush_outgoing();
    // RemoteLink: our RemotePeers' output.
    void deliver(const std::string& node, std::uint64_t session, std::string_view payload) override;
    void close(const std::string& node, std::uint64_t session, bool flush) override;
    void on_node_message(std::string_view from, std::string_view payload);
    void on_gap(std::optional<std::uint64_t> game, cluster::GapReason reason);
    void serve(const std::string& from, std::uint64_t session, const proto::NodeForward& forward);
    // The RemotePeer standing for another node's session here (made on first use).
    std::shared_ptr<RemotePeer> remote_peer(const std::string& node, std::uint64_t session, const proto::NodeIdentity& who);
    // Quick match (cluster_node_seeks.cpp): the answer to a cancel, a pairing told by the matcher,
    // the matcher's rounds, and a claimed pair's game started here.
    void send_cancel(const std::shared_ptr<Peer>& peer, std::uint64_t session, std::uint64_t request_id);
    void drop_unpaired_claims();
    void on_paired(const std::string& from, std::uint64_t session, const proto::NodePaired& paired);
    void match_round();
    // Pairs the seeks read (but those of `dead` nodes) and claims each pair; `now_ms` by Redis's clock.
    void pair_seeks(std::vector<cluster::SeekRecord> seeks, std::int64_t now_ms, const std::set<std::string>& dead);
    void start_pairing(const cluster::SeekRecord& first, const proto::NodeSeek& first_seek, const cluster::SeekRecord& second,
                       const proto::NodeSeek& second_seek);
    std::shared_ptr<Peer> seat_for(const cluster::SeekRecord& record, const proto::NodeSeek& seek, std::vector<RemoteKey>& gone);
    void remote_closed(const RemoteKey& key);
    void stand();
    void give_up_claimed_games();
    void publish_lobby();
    void check_nodes();
    void node_died(const std::string& node);
    void node_restarted(const std::string& node);
    void forget_sessions(const std::string& node);
    // Claims a dead node's games (each once among the survivors) and restores them here.
    void take_over(const std::string& node);
    // Requests about games whose owner died, sent on once the game has a live owner (or TRY_LATER).
    void retry_parked();
    bool dead(const std::string& node) const { return dead_.contains(node); }
    void arm(asio::steady_timer& timer, std::chrono::milliseconds every, void (ClusterNode::*tick)());

    struct Outgoing {
        std::string node;
        proto::NodeMessage message;
    };

    asio::any_io_executor executor_;
    struct Parked {
        std::weak_ptr<Peer> peer;
        std::string frame;
        std::chrono::steady_clock::time_point since;
    };

    Dispatcher& dispatcher_;
    GameOwnership& ownership_;
    NodeOptions options_;
    std::function<void()> lost_;
    std::shared_ptr<cluster::RedisClient> redis_;
    std::shared_ptr<cluster::Leases> leases_;
    std::shared_ptr<cluster::LeaseKeeper> keeper_;
    std::shared_ptr<cluster::Bus> bus_;
    std::shared_ptr<cluster::LobbyReplica> replica_;
    std::shared_ptr<cluster::SeekBook> seek_book_;
    std::shared_ptr<cluster::SeekMatcher> matcher_;
    std::unordered_map<std::uint64_t, LocalSeek> seeks_;  // by local session id
    std::set<std::string> seek_nodes_;  // the nodes of the seeks the matcher last read (checked for death)
    bool matching_ = false;             // a matcher round is under way
    asio::steady_timer match_timer_;
    asio::steady_timer publish_timer_;
    asio::steady_timer check_timer_;
    std::unordered_map<std::uint64_t, Forwarded> forwarded_;  // by local session id
    std::map<RemoteKey, std::shared_ptr<RemotePeer>> remote_;
    std::chrono::steady_clock::time_point redis_up_since_{};  // our Redis connection's last (re)start
    std::string token_ = random_hex(8);  // our lease's, for this process's life (a rejoin keeps it)
    std::map<std::string, std::string> tokens_;  // other nodes' lease tokens as last seen
    std::set<std::string> checking_;  // nodes whose lease is being read
    std::set<std::string> absent_;    // nodes found without a lease once: dead if again
    std::set<std::string> dead_;      // nodes found dead whose games may not all be claimed yet
    std::map<std::uint64_t, std::string> orphans_;  // games of dead nodes → that node, until re-owned
    std::vector<Parked> parked_;
    std::uint64_t next_remote_id_ = std::uint64_t{1} << 62;  // apart from the listener's session ids
    std::unordered_map<std::uint64_t, std::string> published_;  // game → what we put
    std::vector<Outgoing> outgoing_;
    std::unordered_map<std::string, std::size_t> open_deliver_;  // node → its last message, a deliver
    bool flush_posted_ = false;
    NodeStats stats_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    bool stopped_ = false;
};

}  // namespace xq::server::node
