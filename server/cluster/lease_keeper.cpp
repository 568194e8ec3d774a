#include "server/cluster/lease_keeper.h"

#include "server/log/log.h"

namespace xq::cluster {

using server::log;
using server::LogLevel;
using Clock = std::chrono::steady_clock;

std::shared_ptr<LeaseKeeper> LeaseKeeper::create(asio::any_io_executor executor, std::shared_ptr<Leases> leases, std::string node,
                                                 std::string token, LeaseKeeperOptions options, std::function<void()> on_acquired,
                                                 std::function<void(const std::string&)> on_lost) {
    return std::make_shared<LeaseKeeper>(executor, std::move(leases), std::move(node), std::move(token), options,
                                         std::move(on_acquired), std::move(on_lost));
}

LeaseKeeper::LeaseKeeper(asio::any_io_executor executor, std::shared_ptr<Leases> leases, std::string node, std::string token,
                         LeaseKeeperOptions options, std::function<void()> on_acquired, std::function<void(const std::string&)> on_lost)
    : leases_(std::move(leases)),
      node_(std::move(node)),
      token_(std::move(token)),
      key_(options.key.empty() ? node_lease_key(node_) : options.key),
      options_(options),
      on_acquired_(std::move(on_acquired)),
      on_lost_(std::move(on_lost)),
      tick_(executor),
      expiry_(executor) {}

void LeaseKeeper::start() {
    if (state_ != State::Idle) return;
    state_ = State::Acquiring;
    try_acquire();
}

void LeaseKeeper::stop(bool release) {
    if (state_ == State::Stopped) return;
    const bool ours = state_ == State::Held;
    state_ = State::Stopped;
    tick_.cancel();
    expiry_.cancel();
    on_acquired_ = nullptr;
    on_lost_ = nullptr;
    if (release && ours) leases_->release(key_, node_, token_, [](std::expected<bool, RedisError>) {});
}

bool LeaseKeeper::held() const { return state_ == State::Held && Clock::now() < valid_until_; }

void LeaseKeeper::try_acquire() {
    const auto sent = Clock::now();
    leases_->acquire(key_, node_, token_, options_.ttl, [self = shared_from_this(), sent](std::expected<AcquireResult, RedisError> r) {
        if (self->state_ != State::Acquiring) return;
        if (!r || !r->granted) {
            // At start the connection to Redis is usually still being made: not worth a warning,
            // and worth a quick retry (other nodes take a node without a lease for dead).
            const bool connecting = !r && r.error().code == RedisError::Code::NotConnected;
            if (!r) {
                log(connecting ? LogLevel::Debug : LogLevel::Warn, "lease: cannot take ", self->key_, ": ", r.error().detail);
            } else {
                // Once, then quietly: a candidate for a role (the matcher) waits as long as another holds it.
                const auto level = self->waiting_logged_ ? LogLevel::Debug : LogLevel::Info;
                self->waiting_logged_ = true;
                log(level, "lease: ", self->key_, " is held by ", r->current.holder, " with token ", r->current.token, "; waiting");
            }
            self->schedule(&LeaseKeeper::try_acquire, connecting ? self->options_.renew_every / 10 : self->options_.renew_every);
            return;
        }
        self->state_ = State::Held;
        self->extend(sent);
        log(LogLevel::Info, "lease: holding ", self->key_, " with token ", self->token_);
        if (auto acquired = self->on_acquired_) acquired();  // a copy: it may stop() us
        self->schedule(&LeaseKeeper::renew, self->options_.renew_every);
    });
}

void LeaseKeeper::renew() {
    const auto sent = Clock::now();
    leases_->renew(key_, node_, token_, options_.ttl, [self = shared_from_this(), sent](std::expected<RenewResult, RedisError> r) {
        if (self->state_ != State::Held) return;
        if (!r) {
            // Redis unreachable: keep trying; the expiry timer declares the loss when time is up.
            log(LogLevel::Warn, "lease: cannot renew ", self->key_, ": ", r.error().detail);
        } else if (*r != RenewResult::Renewed) {
            self->lose("renewal of " + self->key_ + " refused: " + std::string(to_string(*r)));
            return;
        } else if (Clock::now() >= self->valid_until_) {
            // Renewed, but our bound had already passed (we were paused): someone may have seen
            // the key gone meanwhile. Once lost, lost.
            self->lose("renewal of " + self->key_ + " came back after the lease could have expired");
            return;
        } else {
            self->extend(sent);
        }
        self->schedule(&LeaseKeeper::renew, self->options_.renew_every);
    });
}

void LeaseKeeper::schedule(void (LeaseKeeper::*next)(), std::chrono::milliseconds after) {
    tick_.expires_after(after);
    tick_.async_wait([self = shared_from_this(), next](const boost::system::error_code& ec) {
        if (ec || self->state_ == State::Stopped || self->state_ == State::Lost) return;
        ((*self).*next)();
    });
}

// The lease is ours until `sent` + ttl - margin; the expiry timer reports the loss if no later
// renewal has moved that bound by then.
void LeaseKeeper::extend(Clock::time_point sent) {
    valid_until_ = sent + options_.ttl - options_.margin;
    expiry_.expires_at(valid_until_);
    expiry_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        if (ec || self->state_ != State::Held) return;
        if (Clock::now() >= self->valid_until_) self->lose("no renewal of " + self->key_ + " succeeded within the TTL");
    });
}

void LeaseKeeper::lose(const std::string& why) {
    state_ = State::Lost;
    tick_.cancel();
    expiry_.cancel();
    log(LogLevel::Warn, "lease: lost ", key_, ": ", why);
    if (auto lost = std::move(on_lost_)) lost(why);
}

}  // namespace xq::cluster
