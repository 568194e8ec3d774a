#pragma once
// Game ownership in a cluster (docs/cluster.md, "Ownership, leases, fencing"): each live game has
// one owner node and a fencing token, both in the database. A store opened with a node id writes
// a game's journal only while the game's fence is the one it holds, so a node that was paused and
// comes back after a survivor took its games over has its writes refused (StoreErrorCode::Fenced)
// instead of writing over its successor's. Implemented by the PostgreSQL store only: a single
// process on SQLite owns every game it has.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/store/records.h"
#include "server/store/store_error.h"

namespace xq::server {

class GameOwnership {
public:
    virtual ~GameOwnership() = default;

    // This store's node id ("" when it was opened without one: no ownership, no fencing).
    virtual const std::string& node() const = 0;

    // Claims up to `limit` (>= 1) live games owned by `dead_node` (whose lease the caller found
    // gone): each gets this node as owner and a new fence, in one transaction that skips games
    // another survivor is claiming at the same moment, so no game is claimed twice. The games
    // come back as load_recoverable_games gives them, to be restored the same way; none: nothing
    // (more) to claim.
    virtual StoreResult<std::vector<RecoverableGame>> take_over(std::string_view dead_node, std::int64_t limit) = 0;

    // The distinct owners of live games, sorted (whose leases the caller checks).
    virtual StoreResult<std::vector<std::string>> live_owners() = 0;

    // The owner of a live game; nullopt for a game started by a store without a node id;
    // NotFound when no such game is live.
    virtual StoreResult<std::optional<std::string>> owner_of(std::string_view game) = 0;
};

}  // namespace xq::server
