#include "server/app/bot_lease.h"

#include "server/accounts/secret.h"
#include "server/log/log.h"

namespace xq::server {

std::shared_ptr<BotLease> BotLease::create(asio::any_io_executor executor, std::shared_ptr<cluster::Leases> leases,
                                           std::string node, BotKeeper& keeper, std::function<bool()> in_cluster,
                                           cluster::LeaseKeeperOptions options) {
    return std::make_shared<BotLease>(executor, std::move(leases), std::move(node), keeper, std::move(in_cluster),
                                      std::move(options));
}

BotLease::BotLease(asio::any_io_executor executor, std::shared_ptr<cluster::Leases> leases, std::string node,
                   BotKeeper& keeper, std::function<bool()> in_cluster, cluster::LeaseKeeperOptions options)
    : executor_(executor),
      leases_(std::move(leases)),
      node_(std::move(node)),
      token_(random_hex(8)),
      keeper_(keeper),
      in_cluster_(std::move(in_cluster)),
      options_(std::move(options)),
      node_timer_(executor) {
    options_.key = std::string(kBotsLeaseKey);
}

void BotLease::start() { watch_node(); }

void BotLease::stop() {
    if (stopped_) return;
    stopped_ = true;
    node_timer_.cancel();
    if (candidacy_) candidacy_->stop(true);
    keeper_.stop();
}

void BotLease::watch_node() {
    if (stopped_) return;
    const bool in = in_cluster_();
    if (in && !joined_) {
        joined_ = true;
        stand();
    } else if (!in && joined_) {
        log(LogLevel::Warn, "bots: ", "this node left the cluster (its lease is lost): its bots stop");
        return stop();
    }
    node_timer_.expires_after(joined_ ? options_.renew_every : options_.renew_every / 10);
    node_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        if (auto self = weak.lock(); self && !ec) self->watch_node();
    });
}

void BotLease::stand() {
    std::weak_ptr<BotLease> weak = weak_from_this();
    candidacy_ = cluster::LeaseKeeper::create(
        executor_, leases_, node_, token_, options_,
        [weak] {
            auto self = weak.lock();
            if (!self || self->stopped_) return;
            log(LogLevel::Info, "bots: this node keeps the cluster's computer opponents (", kBotsLeaseKey, ")");
            self->keeper_.start();
        },
        [weak](const std::string& why) {
            auto self = weak.lock();
            if (!self || self->stopped_) return;
            log(LogLevel::Warn, "bots: lost ", kBotsLeaseKey, " (", why, "): this node's bots stop, and it stands again");
            self->keeper_.stand_down();
            // Posted: the old keeper is still inside its own call.
            asio::post(self->executor_, [weak] {
                if (auto s = weak.lock(); s && !s->stopped_) s->stand();
            });
        });
    candidacy_->start();
}

}  // namespace xq::server
