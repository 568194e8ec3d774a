#pragma once
// Where a Redis server listens, as the node's --redis flag names it: "host:port" (TCP; an IPv6
// host in brackets, "[::1]:6379") or "unix:/path/to/redis.sock".

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace xq::cluster {

struct RedisAddress {
    std::string host;  // TCP: a name or an address
    std::uint16_t port = 0;
    std::string path;  // a Unix socket when not empty

    bool is_unix() const { return !path.empty(); }
    std::string to_string() const;
    bool operator==(const RedisAddress&) const = default;
};

// The address, or why the text is not one.
std::expected<RedisAddress, std::string> parse_redis_address(std::string_view text);

}  // namespace xq::cluster
