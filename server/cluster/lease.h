#pragma once
// Leases in Redis: a key whose value is "holder|token" with a PX expiry, taken, renewed and
// released by Lua scripts so that each check-and-set is atomic. Liveness only: the fencing token
// is PostgreSQL's (a game's `fence`, bumped by whoever takes the game over), because a Redis
// restart forgets every key and would restart an INCR counter at 1. The token is therefore given
// to these calls, stored beside the holder, and compared on renew and release, so an older
// incarnation of a node (a lower fence) cannot renew or release its successor's lease.
//
// Node leases: `xq:node:<id>`, held by node <id> while it lives (lease_keeper.h keeps one).

#include <chrono>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "server/cluster/redis_client.h"
#include "server/cluster/redis_script.h"

namespace xq::cluster {

// Node ids are 1-64 of [A-Za-z0-9_-]: they go into keys, channel names and "holder|token".
bool valid_node_id(std::string_view id);
std::string node_lease_key(std::string_view node);

struct LeaseHolder {
    std::string holder;
    std::string token;
    bool operator==(const LeaseHolder&) const = default;
};

// What an acquire found: granted (the lease is now, or was already, exactly ours), or held.
struct AcquireResult {
    bool granted = false;
    LeaseHolder current;  // who holds it now (us when granted)
};

enum class RenewResult {
    Renewed,
    Expired,  // no such key: it expired, was released, or Redis restarted empty
    Taken     // someone else's value (another holder, or our holder with another token)
};
std::string_view to_string(RenewResult result);

class Leases {
public:
    template <class T>
    using Handler = std::function<void(std::expected<T, RedisError>)>;

    explicit Leases(std::shared_ptr<RedisClient> client);

    // Takes `key` for `holder` with `token` for `ttl` if nobody holds it, or refreshes it if the
    // value is already exactly holder|token. A live lease of another holder, or of the same
    // holder with another token (a previous incarnation), is not taken: it must expire first.
    void acquire(const std::string& key, const std::string& holder, const std::string& token, std::chrono::milliseconds ttl,
                 Handler<AcquireResult> done);
    // Extends the lease by `ttl` if it is still exactly holder|token.
    void renew(const std::string& key, const std::string& holder, const std::string& token, std::chrono::milliseconds ttl,
               Handler<RenewResult> done);
    // Deletes the lease if it is still exactly holder|token; true when it did.
    void release(const std::string& key, const std::string& holder, const std::string& token, Handler<bool> done);

    // Who holds `key`, if anyone (a plain GET).
    void holder(const std::string& key, Handler<std::optional<LeaseHolder>> done);

    const std::shared_ptr<RedisClient>& client() const { return client_; }
    // NOSCRIPT answers met so far, all scripts (a restart of Redis empties its script cache).
    std::size_t script_reloads() const;

private:
    std::shared_ptr<RedisClient> client_;
    RedisScript acquire_;
    RedisScript renew_;
    RedisScript release_;
};

}  // namespace xq::cluster
