#include "server/node/remote_peer.h"

namespace xq::server::node {

RemotePeer::RemotePeer(std::uint64_t id, std::string node, std::uint64_t session, std::string address_group, bool watch_only,
                       Send send)
    : id_(id),
      node_(std::move(node)),
      session_(session),
      address_group_(std::move(address_group)),
      watch_only_(watch_only),
      send_(std::move(send)) {}

void RemotePeer::deliver(std::string_view payload) {
    if (open_) send_(node_, {session_, proto::NodeDeliver{std::string(payload)}});
}

void RemotePeer::close(CloseReason, bool flush) {
    if (!open_) return;
    open_ = false;
    send_(node_, {session_, proto::NodeClose{flush}});
}

}  // namespace xq::server::node
