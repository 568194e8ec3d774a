#pragma once
// Keeps this node's lease (`xq:node:<id>`, value "id|token") while the node lives: takes it, then
// renews it every renew_every (TTL ttl), and reports its loss once. Another key (options.key)
// makes it a role held by one node at a time, as the matcher's (seek_matcher.h).
//
// How a paused node learns it lost its lease before it writes again: held() does not wait for a
// timer or for Redis. The keeper remembers when it SENT the last renewal that succeeded; Redis
// started that TTL later still, so the lease is certainly ours until sent + ttl (less a margin for
// clock rate). held() compares the steady clock with that bound, so a process that was stopped
// (SIGSTOP, a long GC-like stall, a swapped-out VM) for longer than the TTL sees held() == false on
// its first instruction after waking, before any renewal is even tried: the owner calls held()
// right before each write and refuses the write if not. Redis's answer to the next renewal (the
// key expired or is someone else's) then confirms the loss through on_lost. The durable guard is
// still PostgreSQL's fence on every journal write; this only keeps a stale node from trying.

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "server/cluster/lease.h"

namespace xq::cluster {

struct LeaseKeeperOptions {
    std::chrono::milliseconds ttl{3000};
    std::chrono::milliseconds renew_every{1000};
    std::chrono::milliseconds margin{100};  // held() ends this much before sent + ttl
    std::string key{};                      // the lease; empty: the node's, node_lease_key(node)
};

class LeaseKeeper : public std::enable_shared_from_this<LeaseKeeper> {
public:
    enum class State { Idle, Acquiring, Held, Lost, Stopped };

    // `on_acquired` once the lease is ours; `on_lost` once, with why, when it stops being ours
    // (renewal refused, or no successful renewal before it would have expired). After a loss the
    // keeper does nothing more: the owner takes a new fence and starts a new keeper.
    static std::shared_ptr<LeaseKeeper> create(asio::any_io_executor executor, std::shared_ptr<Leases> leases, std::string node,
                                               std::string token, LeaseKeeperOptions options, std::function<void()> on_acquired,
                                               std::function<void(const std::string&)> on_lost);

    // Tries to take the lease every renew_every until it is ours (a previous incarnation's lease
    // must expire first).
    void start();
    // Stops renewing; with `release`, deletes the lease if it is still ours (a clean shutdown
    // lets a successor take over at once instead of after the TTL). No callback after this.
    void stop(bool release);

    // The lease is certainly ours now (see above). False before it is taken and after a loss.
    bool held() const;
    State state() const { return state_; }
    std::chrono::steady_clock::time_point valid_until() const { return valid_until_; }
    const std::string& key() const { return key_; }

    LeaseKeeper(asio::any_io_executor executor, std::shared_ptr<Leases> leases, std::string node, std::string token,
                LeaseKeeperOptions options, std::function<void()> on_acquired, std::function<void(const std::string&)> on_lost);

private:
    void try_acquire();
    void renew();
    void schedule(void (LeaseKeeper::*next)(), std::chrono::milliseconds after);
    void extend(std::chrono::steady_clock::time_point sent);
    void lose(const std::string& why);

    std::shared_ptr<Leases> leases_;
    std::string node_;
    std::string token_;
    std::string key_;
    LeaseKeeperOptions options_;
    std::function<void()> on_acquired_;
    std::function<void(const std::string&)> on_lost_;
    asio::steady_timer tick_;    // the next acquire or renew
    asio::steady_timer expiry_;  // valid_until_: no renewal came back in time
    std::chrono::steady_clock::time_point valid_until_{};
    State state_ = State::Idle;
    bool waiting_logged_ = false;  // "held by another" was said once
};

}  // namespace xq::cluster
