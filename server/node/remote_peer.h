#pragma once
// Another node's session, as this node's dispatcher sees it when that session's requests about
// one of our games were forwarded here (docs/cluster.md): a Peer whose output goes back to its
// node through Redis. Its close is reported by its node (NodeSessionClosed) or, when that node
// dies, by the cluster node that watches its lease.

#include <cstdint>
#include <string>

#include "proto/node_messages.h"
#include "server/dispatch/peer.h"

namespace xq::server::node {

// How a RemotePeer's output reaches its node (ClusterNode: batched per node, in order).
class RemoteLink {
public:
    virtual ~RemoteLink() = default;
    virtual void deliver(const std::string& node, std::uint64_t session, std::string_view payload) = 0;
    virtual void close(const std::string& node, std::uint64_t session, bool flush) = 0;
};

class RemotePeer final : public Peer {
public:
    RemotePeer(std::uint64_t id, std::string node, std::uint64_t session, std::string address_group, bool watch_only,
               RemoteLink& link);

    std::uint64_t id() const override { return id_; }
    void deliver(std::string_view payload) override;
    // Asks its node to close the session; on_closed follows when that node says it is gone.
    void close(CloseReason reason, bool flush = false) override;
    bool open() const override { return open_; }
    const std::string& address_group() const override { return address_group_; }
    bool watch_only() const override { return watch_only_; }

    // The session is gone on its node (or its node is): nothing more is sent.
    void gone() { open_ = false; }
    const std::string& node() const { return node_; }
    std::uint64_t session() const { return session_; }

private:
    std::uint64_t id_;
    std::string node_;
    std::uint64_t session_;
    std::string address_group_;
    bool watch_only_;
    RemoteLink& link_;
    bool open_ = true;
};

}  // namespace xq::server::node
