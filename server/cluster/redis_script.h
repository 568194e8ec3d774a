#pragma once
// A Lua script run with EVALSHA, which sends 40 bytes instead of the script. Redis forgets its
// script cache when it restarts (and on SCRIPT FLUSH); the answer is then NOSCRIPT, and the
// script runs with EVAL instead, pipelined with a SCRIPT LOAD so the next call is EVALSHA again.
// The first call does the same, which is how the SHA1 is learnt (Redis computes it).

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "server/cluster/redis_client.h"

namespace xq::cluster {

class RedisScript {
public:
    explicit RedisScript(std::string source);

    // Runs the script with `keys` and `args` (copied: the call may be sent twice). The script
    // object need not outlive the call: the callbacks share its state.
    void run(RedisClient& client, std::span<const std::string> keys, std::span<const std::string> args,
             RedisClient::ReplyHandler done) const;

    // Times a NOSCRIPT answer was met by EVAL (for tests and logs).
    std::size_t reloads() const { return state_->reloads; }
    const std::string& sha() const { return state_->sha; }

private:
    struct State {
        std::string source;
        std::string sha;  // empty until a SCRIPT LOAD has answered
        std::size_t reloads = 0;
    };
    std::shared_ptr<State> state_;
};

}  // namespace xq::cluster
