#include "server/cluster/seek_matcher.h"

#include <algorithm>

#include "server/log/log.h"

namespace xq::cluster {

using server::log;
using server::LogLevel;

namespace {

// KEYS seeks, matcher lease, first's tombstone, second's; ARGV first, second, our lease value,
// tombstone ttl ms -> 1 won, 0 not the matcher, -1 first gone, -2 second gone.
constexpr std::string_view kClaim = R"lua(
if redis.call('GET', KEYS[2]) ~= ARGV[3] then return 0 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return -1 end
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 0 then return -2 end
redis.call('HDEL', KEYS[1], ARGV[1], ARGV[2])
redis.call('SET', KEYS[3], ARGV[3], 'PX', ARGV[4])
redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[4])
return 1
)lua";

}  // namespace

std::string_view to_string(ClaimResult result) {
    switch (result) {
        case ClaimResult::Won: return "won";
        case ClaimResult::NotMatcher: return "not_matcher";
        case ClaimResult::FirstGone: return "first_gone";
        case ClaimResult::SecondGone: return "second_gone";
    }
    return "unknown";
}

std::shared_ptr<SeekMatcher> SeekMatcher::create(asio::any_io_executor executor, std::shared_ptr<Leases> leases, std::string node,
                                                 std::string token, SeekMatcherOptions options, std::function<void()> on_elected,
                                                 std::function<void(const std::string&)> on_deposed) {
    return std::make_shared<SeekMatcher>(executor, std::move(leases), std::move(node), std::move(token), std::move(options),
                                         std::move(on_elected), std::move(on_deposed));
}

SeekMatcher::SeekMatcher(asio::any_io_executor executor, std::shared_ptr<Leases> leases, std::string node, std::string token,
                         SeekMatcherOptions options, std::function<void()> on_elected, std::function<void(const std::string&)> on_deposed)
    : executor_(executor),
      leases_(std::move(leases)),
      node_(std::move(node)),
      token_(std::move(token)),
      options_(std::move(options)),
      on_elected_(std::move(on_elected)),
      on_deposed_(std::move(on_deposed)),
      claim_script_(std::string(kClaim)) {
    options_.lease.key = std::string(kMatcherLeaseKey);
}

void SeekMatcher::start() {
    if (!keeper_ && !stopped_) stand();
}

void SeekMatcher::stop(bool release) {
    stopped_ = true;
    on_elected_ = nullptr;
    on_deposed_ = nullptr;
    if (keeper_) keeper_->stop(release);
}

// A keeper reports one loss and then does nothing more: each candidacy is a new keeper.
void SeekMatcher::stand() {
    std::weak_ptr<SeekMatcher> weak = weak_from_this();
    keeper_ = LeaseKeeper::create(
        executor_, leases_, node_, token_, options_.lease,
        [weak] {
            auto self = weak.lock();
            if (!self || self->stopped_) return;
            ++self->stats_.elections;
            if (auto elected = self->on_elected_) elected();
        },
        [weak](const std::string& why) {
            auto self = weak.lock();
            if (!self || self->stopped_) return;
            if (auto deposed = self->on_deposed_) deposed(why);
            // Posted: the old keeper is still inside its own call.
            asio::post(self->executor_, [weak] {
                if (auto s = weak.lock(); s && !s->stopped_) s->stand();
            });
        });
    keeper_->start();
}

void SeekMatcher::read(ReadDone done) {
    leases_->client()->command({"HGETALL", kSeeksKey}, [self = shared_from_this(), done = std::move(done)](RedisClient::Result r) {
        if (self->stopped_) return;
        if (!r) return done(std::unexpected(r.error()));
        if (r->type != Reply::Type::Array) return done(std::unexpected(RedisError{RedisError::Code::Protocol, "HGETALL answered no array"}));
        std::vector<SeekRecord> seeks;
        const auto& e = r->elements;
        std::erase_if(self->claimed_, [now = std::chrono::steady_clock::now(), ttl = self->options_.tombstone_ttl](const auto& c) {
            return now - c.second > ttl;
        });
        for (std::size_t i = 0; i + 1 < e.size(); i += 2) {
            if (self->claimed_.contains(e[i].text)) {
                ++self->stats_.reclaimed;
                continue;
            }
            auto seek = decode_seek(e[i].text, e[i + 1].text, self->options_.max_seek_bytes);
            if (!seek) {
                ++self->stats_.malformed;
                log(LogLevel::Warn, "seeks: skipping a malformed seek of ", e[i + 1].text.size(), " bytes");
                continue;
            }
            seeks.push_back(std::move(*seek));
        }
        std::sort(seeks.begin(), seeks.end(), [](const SeekRecord& a, const SeekRecord& b) {
            return a.order < b.order;
        });
        done(std::move(seeks));
    });
}

void SeekMatcher::claim(const std::string& first, const std::string& second, ClaimDone done) {
    auto refuse = [&](ClaimResult result) {
        ++stats_.claims_lost;
        asio::post(executor_, [done = std::move(done), result] { done(result); });
    };
    // A matcher that knows it lost the lease (paused past its TTL) does not even ask.
    if (!is_matcher()) return refuse(ClaimResult::NotMatcher);
    if (claimed_.contains(first)) return refuse(ClaimResult::FirstGone);
    if (first == second || claimed_.contains(second)) return refuse(ClaimResult::SecondGone);
    const std::vector<std::string> keys{std::string(kSeeksKey), std::string(kMatcherLeaseKey), seek_tombstone_key(first),
                                        seek_tombstone_key(second)};
    const std::vector<std::string> args{first, second, node_ + "|" + token_, std::to_string(options_.tombstone_ttl.count())};
    claim_script_.run(*leases_->client(), keys, args, [self = shared_from_this(), first, second, done = std::move(done)](RedisClient::Result r) {
        if (self->stopped_) return;
        if (!r || r->type != Reply::Type::Integer) {
            ++self->stats_.claims_lost;
            return done(std::unexpected(r ? RedisError{RedisError::Code::Protocol, "unexpected answer to the claim script"} : r.error()));
        }
        const auto result = r->integer == 1 ? ClaimResult::Won
                            : r->integer == 0 ? ClaimResult::NotMatcher
                            : r->integer == -1 ? ClaimResult::FirstGone
                                               : ClaimResult::SecondGone;
        ++(result == ClaimResult::Won ? self->stats_.claims_won : self->stats_.claims_lost);
        if (result == ClaimResult::Won) {
            const auto now = std::chrono::steady_clock::now();
            self->claimed_[first] = now;
            self->claimed_[second] = now;
        }
        done(result);
    });
}

}  // namespace xq::cluster
