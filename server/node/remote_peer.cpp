#include "server/node/remote_peer.h"

namespace xq::server::node {

RemotePeer::RemotePeer(std::uint64_t id, std::string node, std::uint64_t session, std::string address_group, bool watch_only,
                       RemoteLink& link)
    : id_(id),
      node_(std::move(node)),
      session_(session),
      address_group_(std::move(address_group)),
      watch_only_(watch_only),
      link_(link) {}

void RemotePeer::deliver(std::string_view payload) {
    if (open_) link_.deliver(node_, session_, payload);
}

void RemotePeer::close(CloseReason, bool flush) {
    if (!open_) return;
    open_ = false;
    link_.close(node_, session_, flush);
}

}  // namespace xq::server::node
