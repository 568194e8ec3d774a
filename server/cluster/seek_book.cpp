#include "server/cluster/seek_book.h"

#include <random>
#include <vector>

#include "server/log/log.h"

namespace xq::cluster {

using server::log;
using server::LogLevel;

namespace {

// stamp(): Redis's clock in milliseconds and the next arrival order (KEYS[2]), as the value's
// middle "|<ms>|<order>|" (decimal strings: Lua 5.1 numbers are doubles).
constexpr std::string_view kStamp = R"lua(
local function stamp()
  local t = redis.call('TIME')
  local ms = string.format('%.0f', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
  return '|' .. ms .. '|' .. redis.call('INCR', KEYS[2]) .. '|'
end
)lua";

// KEYS seeks, order; ARGV id, head ("node|session"), bytes.
constexpr std::string_view kAdd = R"lua(
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. stamp() .. ARGV[3])
return 1
)lua";

// KEYS seeks, tombstone; ARGV id -> 1 cancelled, 0 claimed, -1 unknown.
constexpr std::string_view kCancel = R"lua(
if redis.call('HDEL', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
return -1
)lua";

// KEYS seeks, order, then one tombstone per held seek; ARGV node, then (id, head, bytes) per held
// seek, then the ids of adds still unanswered (kept, not put back) -> the ids found claimed. Puts
// back what is missing, removes this node's seeks neither held nor being added.
constexpr std::string_view kRestore = R"lua(
local prefix = ARGV[1] .. '|'
local keep, claimed = {}, {}
for i = 2 + (#KEYS - 2) * 3, #ARGV do keep[ARGV[i]] = true end
for k = 3, #KEYS do
  local i = 2 + (k - 3) * 3
  local id = ARGV[i]
  if redis.call('EXISTS', KEYS[k]) == 1 then
    claimed[#claimed + 1] = id
  else
    keep[id] = true
    if redis.call('HEXISTS', KEYS[1], id) == 0 then
      redis.call('HSET', KEYS[1], id, ARGV[i + 1] .. stamp() .. ARGV[i + 2])
    end
  end
end
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if string.sub(all[i + 1], 1, #prefix) == prefix and not keep[all[i]] then
    redis.call('HDEL', KEYS[1], all[i])
  end
end
return claimed
)lua";

// KEYS seeks; ARGV node -> seeks removed.
constexpr std::string_view kForget = R"lua(
local prefix = ARGV[1] .. '|'
local all = redis.call('HGETALL', KEYS[1])
local n = 0
for i = 1, #all, 2 do
  if string.sub(all[i + 1], 1, #prefix) == prefix then
    redis.call('HDEL', KEYS[1], all[i])
    n = n + 1
  end
end
return n
)lua";

std::string with_stamp(std::string_view body) { return std::string(kStamp) + std::string(body); }

std::string epoch_hex() {
    std::random_device device;
    const std::uint64_t epoch = (static_cast<std::uint64_t>(device()) << 32) ^ device();
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 0; i < 16; ++i) out[static_cast<std::size_t>(i)] = digits[(epoch >> (60 - 4 * i)) & 0xf];
    return out;
}

RedisError unexpected(std::string_view what) { return {RedisError::Code::Protocol, "unexpected answer to the seek " + std::string(what) + " script"}; }

}  // namespace

std::string_view to_string(CancelResult result) {
    switch (result) {
        case CancelResult::Cancelled: return "cancelled";
        case CancelResult::Claimed: return "claimed";
        case CancelResult::Unknown: return "unknown";
    }
    return "unknown";
}

std::shared_ptr<SeekBook> SeekBook::create(std::shared_ptr<RedisClient> client, std::string node) {
    return std::make_shared<SeekBook>(std::move(client), std::move(node));
}

SeekBook::SeekBook(std::shared_ptr<RedisClient> client, std::string node)
    : client_(std::move(client)),
      node_(std::move(node)),
      id_prefix_(node_ + ":" + epoch_hex() + ":"),
      add_script_(with_stamp(kAdd)),
      cancel_script_(std::string(kCancel)),
      restore_script_(with_stamp(kRestore)),
      forget_script_(std::string(kForget)) {}

void SeekBook::start() {
    // The shared client outlives us: its callbacks must not.
    client_->watch_link([weak = weak_from_this()] {
        if (auto self = weak.lock(); self && !self->stopped_) self->restore();
    }, {});
    if (client_->state() == ConnectionState::Connected) restore();
}

void SeekBook::stop() {
    stopped_ = true;
    on_claimed_ = nullptr;
}

void SeekBook::add(std::uint64_t session, std::string bytes, AddDone done) {
    auto id = id_prefix_ + std::to_string(++next_id_);
    const std::vector<std::string> keys{std::string(kSeeksKey), std::string(kSeekOrderKey)};
    const std::vector<std::string> args{id, encode_seek_head(node_, session), bytes};
    adding_.insert(id);
    add_script_.run(*client_, keys, args,
                    [self = shared_from_this(), id, held = Held{session, std::move(bytes)}, done = std::move(done)](RedisClient::Result r) mutable {
                        self->adding_.erase(id);
                        if (self->stopped_) return;
                        if (!r || r->type != Reply::Type::Integer) {
                            done(std::unexpected(r ? unexpected("add") : r.error()));
                            return;
                        }
                        self->held_.emplace(id, std::move(held));
                        done(std::move(id));
                    });
}

void SeekBook::cancel(const std::string& id, CancelDone done) {
    held_.erase(id);
    const std::vector<std::string> keys{std::string(kSeeksKey), seek_tombstone_key(id)};
    const std::vector<std::string> args{id};
    cancel_script_.run(*client_, keys, args, [self = shared_from_this(), done = std::move(done)](RedisClient::Result r) {
        if (self->stopped_) return;
        if (!r || r->type != Reply::Type::Integer) return done(std::unexpected(r ? unexpected("cancel") : r.error()));
        done(r->integer == 1 ? CancelResult::Cancelled : r->integer == 0 ? CancelResult::Claimed : CancelResult::Unknown);
    });
}

void SeekBook::paired(const std::string& id) {
    if (held_.erase(id) == 0) return;
    client_->command({"HDEL", kSeeksKey, id}, [](RedisClient::Result) {});
}

void SeekBook::forget_node(const std::string& node, CountDone done) {
    const std::vector<std::string> keys{std::string(kSeeksKey)};
    const std::vector<std::string> args{node};
    forget_script_.run(*client_, keys, args, [self = shared_from_this(), done = std::move(done)](RedisClient::Result r) {
        if (self->stopped_) return;
        if (!r || r->type != Reply::Type::Integer) return done(std::unexpected(r ? unexpected("forget") : r.error()));
        done(r->integer);
    });
}

void SeekBook::restore() {
    ++stats_.restores;
    std::vector<std::string> keys{std::string(kSeeksKey), std::string(kSeekOrderKey)};
    std::vector<std::string> args{node_};
    for (const auto& [id, seek] : held_) {
        keys.push_back(seek_tombstone_key(id));
        args.push_back(id);
        args.push_back(encode_seek_head(node_, seek.session));
        args.push_back(seek.bytes);
    }
    args.insert(args.end(), adding_.begin(), adding_.end());
    restore_script_.run(*client_, keys, args, [self = shared_from_this()](RedisClient::Result r) {
        if (self->stopped_) return;
        if (!r || r->type != Reply::Type::Array) {
            // The connection went again: the next one restores.
            log(LogLevel::Warn, "seeks: restore failed: ", r ? "not an array" : r.error().detail);
            return;
        }
        for (const auto& element : r->elements) {
            const auto it = self->held_.find(element.text);
            if (it == self->held_.end()) continue;
            ++self->stats_.found_claimed;
            const Held seek = std::move(it->second);
            self->held_.erase(it);
            if (self->on_claimed_) self->on_claimed_(element.text, seek);
        }
    });
}

}  // namespace xq::cluster
