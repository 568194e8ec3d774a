#include "server/cluster/lease.h"

#include <algorithm>
#include <array>

namespace xq::cluster {
namespace {

// KEYS[1] lease; ARGV holder, token, ttl ms -> {1, holder, token} granted, {0, holder, token} held.
constexpr std::string_view kAcquire = R"lua(
local want = ARGV[1] .. '|' .. ARGV[2]
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= want then
  local holder, token = string.match(cur, '^(.*)|([^|]*)$')
  return {0, holder or cur, token or ''}
end
redis.call('SET', KEYS[1], want, 'PX', ARGV[3])
return {1, ARGV[1], ARGV[2]}
)lua";

// KEYS[1] lease; ARGV holder, token, ttl ms -> 1 renewed, 0 absent, -1 someone else's.
constexpr std::string_view kRenew = R"lua(
local cur = redis.call('GET', KEYS[1])
if not cur then return 0 end
if cur ~= ARGV[1] .. '|' .. ARGV[2] then return -1 end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
)lua";

// KEYS[1] lease; ARGV holder, token -> 1 released, 0 not ours.
constexpr std::string_view kRelease = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] .. '|' .. ARGV[2] then
  return redis.call('DEL', KEYS[1])
end
return 0
)lua";

RedisError unexpected_reply(std::string_view what) {
    return RedisError{RedisError::Code::Protocol, "unexpected answer to the lease " + std::string(what) + " script"};
}

LeaseHolder split_value(const std::string& value) {
    const auto bar = value.rfind('|');
    if (bar == std::string::npos) return {value, ""};
    return {value.substr(0, bar), value.substr(bar + 1)};
}

}  // namespace

bool valid_node_id(std::string_view id) {
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

std::string node_lease_key(std::string_view node) { return "xq:node:" + std::string(node); }

std::string_view to_string(RenewResult result) {
    switch (result) {
        case RenewResult::Renewed: return "renewed";
        case RenewResult::Expired: return "expired";
        case RenewResult::Taken: return "taken";
    }
    return "unknown";
}

Leases::Leases(std::shared_ptr<RedisClient> client)
    : client_(std::move(client)), acquire_(std::string(kAcquire)), renew_(std::string(kRenew)), release_(std::string(kRelease)) {}

std::size_t Leases::script_reloads() const { return acquire_.reloads() + renew_.reloads() + release_.reloads(); }

void Leases::acquire(const std::string& key, const std::string& holder, const std::string& token, std::chrono::milliseconds ttl,
                     Handler<AcquireResult> done) {
    const std::array keys{key};
    const std::array args{holder, token, std::to_string(ttl.count())};
    acquire_.run(*client_, keys, args, [done = std::move(done)](RedisClient::Result r) {
        if (!r) return done(std::unexpected(r.error()));
        const auto& e = r->elements;
        if (r->type != Reply::Type::Array || e.size() != 3 || e[0].type != Reply::Type::Integer)
            return done(std::unexpected(unexpected_reply("acquire")));
        done(AcquireResult{e[0].integer == 1, LeaseHolder{e[1].text, e[2].text}});
    });
}

void Leases::renew(const std::string& key, const std::string& holder, const std::string& token, std::chrono::milliseconds ttl,
                   Handler<RenewResult> done) {
    const std::array keys{key};
    const std::array args{holder, token, std::to_string(ttl.count())};
    renew_.run(*client_, keys, args, [done = std::move(done)](RedisClient::Result r) {
        if (!r) return done(std::unexpected(r.error()));
        if (r->type != Reply::Type::Integer) return done(std::unexpected(unexpected_reply("renew")));
        done(r->integer == 1 ? RenewResult::Renewed : r->integer == 0 ? RenewResult::Expired : RenewResult::Taken);
    });
}

void Leases::release(const std::string& key, const std::string& holder, const std::string& token, Handler<bool> done) {
    const std::array keys{key};
    const std::array args{holder, token};
    release_.run(*client_, keys, args, [done = std::move(done)](RedisClient::Result r) {
        if (!r) return done(std::unexpected(r.error()));
        if (r->type != Reply::Type::Integer) return done(std::unexpected(unexpected_reply("release")));
        done(r->integer == 1);
    });
}

void Leases::holder(const std::string& key, Handler<std::optional<LeaseHolder>> done) {
    client_->command({"GET", key}, [done = std::move(done)](RedisClient::Result r) {
        if (!r) return done(std::unexpected(r.error()));
        if (r->is_nil()) return done(std::optional<LeaseHolder>{});
        done(std::optional<LeaseHolder>{split_value(r->text)});
    });
}

}  // namespace xq::cluster
