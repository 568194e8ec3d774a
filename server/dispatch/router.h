#pragma once
// Where a request about a game goes when this server is one node of a cluster (docs/cluster.md):
// each game has one owner node, and a request about a game another node owns is forwarded there
// with who sent it. The dispatcher asks this interface and knows nothing of Redis; without a
// router (one process, the default) every game is local.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proto/messages.h"
#include "proto/node_messages.h"
#include "server/dispatch/peer.h"

namespace xq::server {

class Router {
public:
    virtual ~Router() = default;
    // The node that owns `game` when another node does; nullopt when it is ours or unknown (then
    // it is answered here: NOT_FOUND for a game nobody has).
    virtual std::optional<std::string> remote_owner(std::uint64_t game) = 0;
    // Sends `frame` (one ClientMessage) of the local `peer`, known as `who`, to `node`; the
    // owner's answers come back to the peer by the router.
    virtual void forward(const std::string& node, const std::shared_ptr<Peer>& peer, const proto::NodeIdentity& who,
                         std::string_view frame) = 0;
    // A Pong this node did not ask for: to the owners that ping the peer's remote seats.
    virtual void forward_pong(const std::shared_ptr<Peer>& peer, const proto::NodeIdentity& who, std::string_view frame) = 0;
    // The games other nodes own that a stranger's lobby lists (waiting and playing), for ListGames.
    virtual std::vector<proto::GameSummary> remote_games() = 0;

    // Quick match across nodes (docs/cluster.md, "A quick match"): a local peer's seek waits for
    // the cluster's matcher instead of in this node's lobby, and the router answers it: Seeking
    // once the seek is out, Left{0} to a cancel, NOT_A_PLAYER when there is none to cancel (or
    // it lost to a pairing, whose Seated follows). The pairing comes from the matcher's node.
    virtual bool seeking(std::uint64_t session) = 0;
    virtual void seek(const std::shared_ptr<Peer>& peer, std::uint64_t request_id, const proto::NodeSeek& seek) = 0;
    virtual void cancel_seek(const std::shared_ptr<Peer>& peer, std::uint64_t request_id) = 0;
};

// The game a request is about, for the requests that go to its owner.
std::optional<std::uint64_t> routed_game(const proto::ClientBody& body);

}  // namespace xq::server
