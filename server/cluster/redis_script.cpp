#include "server/cluster/redis_script.h"

#include <vector>

namespace xq::cluster {
namespace {

struct Call {
    std::vector<std::string> keys;
    std::vector<std::string> args;
};

// EVAL|EVALSHA body numkeys keys... args...
std::vector<std::string_view> eval_args(std::string_view verb, std::string_view body, const Call& call, std::string& numkeys) {
    numkeys = std::to_string(call.keys.size());
    std::vector<std::string_view> v{verb, body, numkeys};
    for (const auto& k : call.keys) v.push_back(k);
    for (const auto& a : call.args) v.push_back(a);
    return v;
}

}  // namespace

RedisScript::RedisScript(std::string source) : state_(std::make_shared<State>()) { state_->source = std::move(source); }

void RedisScript::run(RedisClient& client, std::span<const std::string> keys, std::span<const std::string> args,
                      RedisClient::ReplyHandler done) const {
    auto call = std::make_shared<Call>(Call{{keys.begin(), keys.end()}, {args.begin(), args.end()}});
    std::string numkeys;
    // EVAL answers this call; SCRIPT LOAD, sent right behind it, teaches us the SHA1 for the next.
    auto eval_and_load = [state = state_](RedisClient& c, const Call& cl, RedisClient::ReplyHandler d) {
        std::string n;
        c.command(eval_args("EVAL", state->source, cl, n), std::move(d));
        c.command({"SCRIPT", "LOAD", state->source}, [state](RedisClient::Result r) {
            if (r && r->type == Reply::Type::BulkString) state->sha = r->text;
        });
    };
    if (state_->sha.empty()) {
        eval_and_load(client, *call, std::move(done));
        return;
    }
    // The client outlives its commands' callbacks only while its owner holds it: keep it alive.
    auto self_client = std::static_pointer_cast<RedisClient>(client.shared_from_this());
    client.command(eval_args("EVALSHA", state_->sha, *call, numkeys),
                   [state = state_, call, self_client, done = std::move(done), eval_and_load](RedisClient::Result r) mutable {
                       if (!r && r.error().code == RedisError::Code::Server && r.error().detail.starts_with("NOSCRIPT")) {
                           ++state->reloads;
                           eval_and_load(*self_client, *call, std::move(done));
                           return;
                       }
                       done(std::move(r));
                   });
}

}  // namespace xq::cluster
