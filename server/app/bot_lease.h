#pragma once
// The computer opponents kept once for a cluster (docs/cluster.md, issue 20): every node started
// with --bots stands for the lease `xq:lease:bots` (a LeaseKeeper on that key, as the matcher's),
// and only its holder runs its BotKeeper, whose bots connect to it like any client and so reach
// the shared lobby. The lease lost (a long pause, Redis unreachable or restarted empty), the bots
// stand down (SIGTERM: their games go on as after any player's disconnect) and the node stands
// again. The holder killed, its bots end with it (their --parent-pid) and another candidate takes
// the lease once it expires (its TTL) and starts its own.

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "server/app/bot_keeper.h"
#include "server/cluster/lease_keeper.h"

namespace xq::server {

inline constexpr std::string_view kBotsLeaseKey = "xq:lease:bots";

class BotLease : public std::enable_shared_from_this<BotLease> {
public:
    // `node`: this node's id, the lease's holder. `in_cluster`: whether this node holds its own node
    // lease (ClusterNode::holds_lease): it stands only once it does, and gives up for good (the
    // bots stopped, the lease released) once it no longer does, as the server then stops.
    static std::shared_ptr<BotLease> create(asio::any_io_executor executor, std::shared_ptr<cluster::Leases> leases,
                                            std::string node, BotKeeper& keeper, std::function<bool()> in_cluster,
                                            cluster::LeaseKeeperOptions options = {});

    void start();
    // Stops standing, releases the lease if it is ours (a successor starts its bots at once) and
    // stops the bots (BotKeeper::stop). Nothing happens after this.
    void stop();
    bool holds() const { return candidacy_ && candidacy_->held(); }

    BotLease(asio::any_io_executor executor, std::shared_ptr<cluster::Leases> leases, std::string node, BotKeeper& keeper,
             std::function<bool()> in_cluster, cluster::LeaseKeeperOptions options);

private:
    void watch_node();  // every renew_every: stands once the node is in, gives up once it is out
    void stand();

    asio::any_io_executor executor_;
    std::shared_ptr<cluster::Leases> leases_;
    std::string node_;
    std::string token_;  // this process's: an earlier incarnation's lease must expire first
    BotKeeper& keeper_;
    std::function<bool()> in_cluster_;
    cluster::LeaseKeeperOptions options_;
    asio::steady_timer node_timer_;
    std::shared_ptr<cluster::LeaseKeeper> candidacy_;  // one per candidacy: a keeper reports one loss
    bool joined_ = false;                              // the node has held its lease
    bool stopped_ = false;
};

}  // namespace xq::server
