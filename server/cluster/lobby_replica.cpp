#include "server/cluster/lobby_replica.h"

#include <algorithm>

#include "server/cluster/lease.h"
#include "server/log/log.h"

namespace xq::cluster {

using server::log;
using server::LogLevel;
using Clock = std::chrono::steady_clock;

namespace {

// KEYS hash, our index; ARGV channel, node, then (op, game, summary) triples, op P or R
// -> the games whose put was refused (another node's entry).
constexpr std::string_view kWrite = R"lua(
local prefix = ARGV[2] .. '|'
local refused = {}
for i = 3, #ARGV, 3 do
  local op, game = ARGV[i], ARGV[i + 1]
  local cur = redis.call('HGET', KEYS[1], game)
  local ours = (not cur) or string.sub(cur, 1, #prefix) == prefix
  if op == 'P' then
    if ours then
      redis.call('HSET', KEYS[1], game, prefix .. ARGV[i + 2])
      if not cur then redis.call('SADD', KEYS[2], game) end
      redis.call('PUBLISH', ARGV[1], 'P|' .. game .. '|' .. prefix .. ARGV[i + 2])
    else
      refused[#refused + 1] = game
    end
  elseif ours then
    redis.call('SREM', KEYS[2], game)
    if cur then
      redis.call('HDEL', KEYS[1], game)
      redis.call('PUBLISH', ARGV[1], 'R|' .. game .. '|' .. ARGV[2])
    end
  end
end
return refused
)lua";

// KEYS hash, the dead node's index; ARGV channel, dead node -> entries removed. Only entries still
// the dead node's: a game already put by its new owner stays.
constexpr std::string_view kForget = R"lua(
local prefix = ARGV[2] .. '|'
local n = 0
for _, game in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local cur = redis.call('HGET', KEYS[1], game)
  if cur and string.sub(cur, 1, #prefix) == prefix then
    redis.call('HDEL', KEYS[1], game)
    redis.call('PUBLISH', ARGV[1], 'R|' .. game .. '|' .. ARGV[2])
    n = n + 1
  end
end
redis.call('DEL', KEYS[2])
return n
)lua";

}  // namespace

std::shared_ptr<LobbyReplica> LobbyReplica::create(asio::any_io_executor executor, std::shared_ptr<RedisClient> client, std::string node,
                                                   LobbyReplicaOptions options, ConnectionOptions subscriber_options) {
    return std::make_shared<LobbyReplica>(executor, std::move(client), std::move(node), options, subscriber_options);
}

LobbyReplica::LobbyReplica(asio::any_io_executor executor, std::shared_ptr<RedisClient> client, std::string node,
                           LobbyReplicaOptions options, ConnectionOptions subscriber_options)
    : client_(std::move(client)),
      node_(std::move(node)),
      options_(options),
      write_script_(std::string(kWrite)),
      forget_script_(std::string(kForget)),
      flush_timer_(executor),
      retry_timer_(executor) {
    // As the bus does: the subscriber's callbacks hold a plain pointer, and the replica stops
    // its subscriber in stop() and in its destructor, after which it calls nothing.
    subscriber_ = RedisSubscriber::create(
        executor, client_->address(),
        [this](std::string_view, std::string_view payload) {
            if (!stopped_) on_message(payload);
        },
        subscriber_options);
    subscriber_->on_subscribed([this](std::string_view) {
        if (!stopped_) resync();
    });
    subscriber_->watch_link({}, [this](const RedisError&) { synced_ = false; });
}

LobbyReplica::~LobbyReplica() { subscriber_->stop(); }

void LobbyReplica::start() {
    // The shared client outlives us: its callbacks must not.
    client_->watch_link([weak = weak_from_this()] {
        if (auto self = weak.lock(); self && !self->stopped_) self->resync();
    }, {});
    subscriber_->subscribe(std::string(kLobbyChannel));
    subscriber_->start();
}

void LobbyReplica::stop() {
    stopped_ = true;
    subscriber_->stop();
    flush_timer_.cancel();
    retry_timer_.cancel();
    on_change_ = nullptr;
}

bool LobbyReplica::put(std::uint64_t game, std::string summary) {
    if (summary.size() > options_.max_summary_bytes) return false;
    own_[game] = summary;
    pending_[game] = summary;
    set(game, LobbyEntry{node_, std::move(summary)});
    schedule_flush();
    return true;
}

void LobbyReplica::remove(std::uint64_t game) {
    const auto it = entries_.find(game);
    const bool listed_as_ours = it != entries_.end() && it->second.owner == node_;
    if (own_.erase(game) == 0 && !listed_as_ours) return;
    pending_[game] = std::nullopt;
    if (listed_as_ours) erase(game);
    schedule_flush();
}

void LobbyReplica::forget_node(const std::string& node, ForgetDone done) {
    if (!valid_node_id(node) || node == node_) {
        if (done) asio::post(flush_timer_.get_executor(), [done = std::move(done), node] {
            done(std::unexpected(RedisError{RedisError::Code::Protocol, "cannot forget node '" + node + "'"}));
        });
        return;
    }
    const std::vector<std::string> keys{std::string(kLobbyKey), lobby_index_key(node)};
    const std::vector<std::string> args{std::string(kLobbyChannel), node};
    forget_script_.run(*client_, keys, args, [self = shared_from_this(), node, done = std::move(done)](RedisClient::Result r) {
        if (self->stopped_) return;
        std::expected<std::int64_t, RedisError> result = std::unexpected(RedisError{RedisError::Code::Protocol, "unexpected answer to forget"});
        if (!r) result = std::unexpected(r.error());
        else if (r->type == Reply::Type::Integer) result = r->integer;
        if (result) {
            // The messages remove them too; entries that never reached the index go now as well.
            std::vector<std::uint64_t> gone;
            for (const auto& [game, entry] : self->entries_) {
                if (entry.owner == node) gone.push_back(game);
            }
            for (auto game : gone) self->erase(game);
        } else {
            log(LogLevel::Warn, "lobby: cannot forget node ", node, ": ", result.error().detail);
        }
        if (done) done(std::move(result));
    });
}

std::optional<std::string> LobbyReplica::owner(std::uint64_t game) const {
    const auto* entry = find(game);
    if (!entry) return std::nullopt;
    return entry->owner;
}

const LobbyEntry* LobbyReplica::find(std::uint64_t game) const {
    const auto it = entries_.find(game);
    return it == entries_.end() ? nullptr : &it->second;
}

void LobbyReplica::set(std::uint64_t game, LobbyEntry entry) {
    auto& slot = entries_[game];
    if (slot == entry) return;
    slot = std::move(entry);
    if (on_change_) on_change_(game, &slot);
}

void LobbyReplica::erase(std::uint64_t game) {
    if (entries_.erase(game) == 0) return;
    if (on_change_) on_change_(game, nullptr);
}

void LobbyReplica::on_message(std::string_view payload) {
    if (snapshot_in_flight_) {
        if (buffered_.size() >= options_.max_entries || buffered_bytes_ + payload.size() > options_.max_buffered_bytes) {
            // Too much to hold while the read is out: drop it all and read again after.
            buffered_.clear();
            buffered_bytes_ = 0;
            resync_again_ = true;
            return;
        }
        buffered_bytes_ += payload.size();
        buffered_.emplace_back(payload);
        return;
    }
    const auto change = decode_lobby_change(payload, options_.max_summary_bytes);
    if (!change) {
        ++stats_.malformed;
        log(LogLevel::Warn, "lobby: skipping a malformed message of ", payload.size(), " bytes");
        return;
    }
    apply(*change);
}

void LobbyReplica::apply(const LobbyChange& change) {
    if (change.entry.owner == node_) return;  // ours: what we hold is the truth
    if (change.removed) {
        const auto it = entries_.find(change.game);
        if (it != entries_.end() && it->second.owner == change.entry.owner) erase(change.game);
        return;
    }
    if (!entries_.contains(change.game) && entries_.size() >= options_.max_entries) {
        ++stats_.malformed;
        return;
    }
    set(change.game, change.entry);
}

// A full read, once both connections are up and the channel is confirmed (whichever comes last
// calls this); one at a time, another after it if asked meanwhile.
void LobbyReplica::resync() {
    if (stopped_ || !subscriber_->live(std::string(kLobbyChannel)) || client_->state() != ConnectionState::Connected) return;
    if (snapshot_in_flight_) {
        resync_again_ = true;
        return;
    }
    snapshot_in_flight_ = true;
    buffered_.clear();
    buffered_bytes_ = 0;
    ++stats_.resyncs;
    client_->command({"HGETALL", kLobbyKey}, [self = shared_from_this()](RedisClient::Result r) {
        if (!self->stopped_) self->on_snapshot(std::move(r));
    });
}

void LobbyReplica::on_snapshot(RedisClient::Result result) {
    snapshot_in_flight_ = false;
    if (!result || result->type != Reply::Type::Array) {
        log(LogLevel::Warn, "lobby: full read failed: ", result ? "not an array" : result.error().detail);
        buffered_.clear();
        buffered_bytes_ = 0;
        // A lost connection reads again when it is back; anything else is tried again later.
        retry_timer_.expires_after(options_.flush_every);
        retry_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
            if (!ec && !self->stopped_) self->resync();
        });
        return;
    }
    const auto& elements = result->elements;
    std::map<std::uint64_t, LobbyEntry> others;
    std::map<std::uint64_t, std::string> ours_in_redis;
    for (std::size_t i = 0; i + 1 < elements.size(); i += 2) {
        const auto game = parse_lobby_game(elements[i].text);
        auto entry = decode_lobby_value(elements[i + 1].text, options_.max_summary_bytes);
        if (!game || !entry || others.size() >= options_.max_entries) {
            ++stats_.malformed;
            continue;
        }
        if (entry->owner == node_) ours_in_redis[*game] = std::move(entry->summary);
        else others[*game] = std::move(*entry);
    }
    if (elements.size() % 2 != 0) ++stats_.malformed;

    // The new replica: every other node's entry as read, and ours as we hold them.
    std::map<std::uint64_t, LobbyEntry> next = others;
    for (const auto& [game, summary] : own_) next.try_emplace(game, LobbyEntry{node_, summary});
    std::vector<std::uint64_t> gone;
    for (const auto& [game, entry] : entries_) {
        if (!next.contains(game)) gone.push_back(game);
    }
    for (auto game : gone) erase(game);
    for (auto& [game, entry] : next) set(game, std::move(entry));

    auto buffered = std::move(buffered_);
    buffered_.clear();
    buffered_bytes_ = 0;
    for (const auto& message : buffered) on_message(message);
    synced_ = true;
    reconcile(ours_in_redis, others);
    if (resync_again_) {
        resync_again_ = false;
        resync();
    }
}

// Queues what makes Redis hold exactly our entries: puts of those missing or stale, removes of
// those we no longer hold (a previous run of this node, a remove whose write was lost).
void LobbyReplica::reconcile(const std::map<std::uint64_t, std::string>& ours_in_redis, const std::map<std::uint64_t, LobbyEntry>& others) {
    for (const auto& [game, summary] : own_) {
        if (pending_.contains(game)) continue;
        if (others.contains(game)) {
            ++stats_.refused;
            log(LogLevel::Warn, "lobby: game ", game, " is listed as node ", others.at(game).owner, "'s, not rewriting it");
            continue;
        }
        const auto it = ours_in_redis.find(game);
        if (it == ours_in_redis.end() || it->second != summary) pending_[game] = summary;
    }
    for (const auto& [game, summary] : ours_in_redis) {
        if (!own_.contains(game) && !pending_.contains(game)) pending_[game] = std::nullopt;
    }
    schedule_flush();
}

// Leading and trailing edge: the first change after a quiet interval goes out at once (posted,
// so the changes of the same turn join it), later ones when the interval since the last flush ends.
void LobbyReplica::schedule_flush() {
    if (flush_armed_ || pending_.empty() || stopped_) return;
    flush_armed_ = true;
    flush_timer_.expires_at(std::max(last_flush_ + options_.flush_every, Clock::now()));
    flush_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        if (ec || self->stopped_) return;
        self->flush_armed_ = false;
        self->flush();
    });
}

void LobbyReplica::flush() {
    // Without a connection the writes wait: the full read after it reconciles everything.
    if (pending_.empty() || client_->state() != ConnectionState::Connected) return;
    last_flush_ = Clock::now();
    Pending batch;
    for (auto& [game, state] : pending_) {
        batch.emplace(game, std::move(state));
        if (batch.size() == options_.max_batch) write(std::exchange(batch, {}));
    }
    if (!batch.empty()) write(std::move(batch));
    pending_.clear();
}

void LobbyReplica::write(Pending batch) {
    const std::vector<std::string> keys{std::string(kLobbyKey), lobby_index_key(node_)};
    std::vector<std::string> args{std::string(kLobbyChannel), node_};
    args.reserve(2 + 3 * batch.size());
    for (const auto& [game, state] : batch) {
        args.emplace_back(state ? "P" : "R");
        args.push_back(std::to_string(game));
        args.push_back(state.value_or(""));
    }
    stats_.written += batch.size();
    write_script_.run(*client_, keys, args, [self = shared_from_this(), batch = std::move(batch)](RedisClient::Result r) {
        if (self->stopped_) return;
        if (!r || r->type != Reply::Type::Array) {
            ++self->stats_.write_failures;
            log(LogLevel::Warn, "lobby: write of ", batch.size(), " games failed: ", r ? "not an array" : r.error().detail);
            self->requeue(batch);
            return;
        }
        for (const auto& game : r->elements) {
            ++self->stats_.refused;
            log(LogLevel::Warn, "lobby: put of game ", game.text, " refused: another node's entry");
        }
    });
}

// A failed write is written again from what we hold now, unless a newer change is queued.
void LobbyReplica::requeue(const Pending& batch) {
    for (const auto& [game, state] : batch) {
        if (pending_.contains(game)) continue;
        const auto it = own_.find(game);
        pending_[game] = it == own_.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
    schedule_flush();
}

}  // namespace xq::cluster
