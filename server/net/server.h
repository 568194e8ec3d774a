#pragma once
// The game server: accepts connections and hands each frame to the dispatcher (dispatcher.h),
// which routes requests to the lobby and rooms and sends every room event to the people in that
// room. Runs on one io_context thread.

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "proto/messages.h"
#include "server/net/discovery.h"
#include "server/accounts/password_pool.h"
#include "server/dispatch/dispatcher.h"
#include "server/net/listener.h"
#include "server/rooms/lobby.h"
#include "server/dispatch/rate_limit.h"
#include "server/node/cluster_node.h"
#include "server/store/store.h"
#include "server/web/site.h"

namespace xq::server {

struct ServerConfig {
    tcp::endpoint listen{asio::ip::make_address("0.0.0.0"), 7777};
    std::filesystem::path db;                // SQLite file; created if absent
    std::string postgres;  // a libpq connection string: when set, the store is PostgreSQL and `db` unused
    std::string name = "xiangqi";            // shown in LAN discovery and Welcome
    std::optional<std::uint16_t> discovery;  // UDP port to answer discovery on; none: off
    // TLS on the game port (tls/context.h); null: plain TCP, only when asked for (--plain).
    std::shared_ptr<boost::asio::ssl::context> tls;
    std::string fingerprint;  // of the TLS certificate, announced by discovery
    ListenerLimits connections;
    SessionLimits session;
    // At most one SpectatorCount per room per interval, so a crowd arriving at once does not flood
    // the players; the count after a burst follows when the interval ends.
    std::chrono::milliseconds spectator_count_interval{1000};
    // How long a disconnected player may take to resume before its opponent may claim the game.
    std::chrono::milliseconds grace{std::chrono::seconds(60)};
    // How long each side may take over its first move before the game is aborted.
    std::chrono::milliseconds first_move{Room::kFirstMoveTime};
    RateLimits rate;  // per connection; Ping is free
    std::string computer_key;  // of the bots this server starts (DispatchConfig::computer_key)
    std::size_t max_waiting_per_group = 2;  // DispatchConfig::max_waiting_per_group; 0: no limit
    JoinCodeLimits join_codes;
    // How often ended rooms and abandoned waiting games are looked for.
    std::chrono::milliseconds sweep_period{std::chrono::seconds(15)};
    // Accounts (DispatchConfig has the meaning of each).
    proto::AccountsMode accounts = proto::AccountsMode::Optional;
    std::chrono::seconds session_lifetime{std::chrono::hours(24 * 30)};
    BackoffRules address_backoff{.free_failures = 20};
    BackoffRules account_backoff{.free_failures = 5};
    std::size_t registrations_per_hour = 5;
    // Argon2id's workers: 2 threads (each hash takes 64 MiB at once), at most this many waiting
    // (about a second's work at 15 hashes/s a core: a longer queue only makes every login slow).
    std::size_t password_threads = 2;
    std::size_t password_queue = 16;
    // Argon2id's cost (DispatchConfig::password_cost). In-process tests of what accounts do, not
    // of what hashing costs (bench/password_bench), take minimal_cost(): a parallel test run
    // would otherwise starve the nice-19 workers past the tests' reply timeouts.
    PasswordCost password_cost = interactive_cost();
    std::uint32_t leaderboard_min_games = 10;  // DispatchConfig::leaderboard_min_games
    // The built watch page (server/web/site.h), served on the game port with its WebSocket; none:
    // the port speaks frames only.
    std::optional<std::filesystem::path> web_root;
    // This server as one node of a cluster (server/node, docs/cluster.md): its Redis and node id;
    // none: one process, every game local.
    std::optional<node::NodeOptions> cluster;
};

// The network side of the server: the listener and its sessions (which only move bytes), LAN
// discovery, the store's checkpoints, and the timers; every frame goes to the Dispatcher, which
// owns the lobby and rooms and sees each session only as a Peer.
class Server final : public SessionHandler, private DispatchLoop {
public:
    // Opens the store and binds the sockets; throws std::runtime_error naming what failed (startup
    // is the one place exceptions are allowed: main catches them).
    Server(asio::io_context& io, ServerConfig config);
    ~Server() override;

    void start();
    void stop();
    std::uint16_t port() const { return listener_.port(); }
    std::optional<std::uint16_t> discovery_port() const;
    const Lobby& lobby() const { return dispatcher_.lobby(); }
    // This server's cluster node; null when it runs alone.
    const node::ClusterNode* cluster_node() const { return node_.get(); }
    // Open connections (sessions not yet closed and released). On the server's thread only.
    std::size_t connections() const { return listener_.connections(); }

    void on_frame(const std::shared_ptr<Session>& session, std::string_view payload) override;
    void on_bad_frame(const std::shared_ptr<Session>& session, const proto::DecodeError& error) override;
    void on_closed(const std::shared_ptr<Session>& session, CloseReason reason) override;

private:
    // DispatchLoop: Asio's clock, post and timers.
    TimePoint now() const override { return SteadyClock::now(); }
    void post_release() override;
    void arm_flag_timer(TimePoint at) override;
    void arm_count_timer(TimePoint at) override;
    void arm_sweep();

    asio::io_context& io_;
    ServerConfig config_;
    std::unique_ptr<Store> store_;  // SQLite checkpoints on a thread of its own (store_location.h)
    asio::steady_timer flag_timer_;
    asio::steady_timer sweep_timer_;
    asio::steady_timer count_timer_;
    // Before the dispatcher, which it serves; stopped first in ~Server (its workers may be busy).
    std::unique_ptr<PasswordPool> passwords_;
    Dispatcher dispatcher_;
    std::unique_ptr<web::Site> site_;  // before the listener, whose sessions read it
    Listener listener_;
    std::optional<DiscoveryResponder> discovery_;
    std::unique_ptr<node::ClusterNode> node_;  // stopped before the dispatcher goes
};

}  // namespace xq::server
