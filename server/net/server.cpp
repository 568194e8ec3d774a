#include "server/net/server.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <sys/random.h>

#include "proto/codec.h"
#include "server/log/log.h"
#include "server/store/store_location.h"

namespace xq::server {
namespace {

// Tokens and join codes are secrets, so they come from the kernel's CSPRNG, not a seeded PRNG;
// fetched 32 values at a time, as every new game asks for several.
std::uint64_t secure_random() {
    thread_local std::array<std::uint64_t, 32> pool;
    thread_local std::size_t left = 0;
    if (left == 0) {
        auto* bytes = reinterpret_cast<char*>(pool.data());
        for (std::size_t got = 0; got < sizeof pool;) {
            const auto n = getrandom(bytes + got, sizeof pool - got, 0);
            if (n > 0) got += static_cast<std::size_t>(n);
        }
        left = pool.size();
    }
    // Each value is handed out once, then forgotten.
    return std::exchange(pool[--left], 0);
}

// The loop's SQLite connection never checkpoints; a thread of the store does (sqlite/checkpointer.h).
std::unique_ptr<Store> open_configured_store(const ServerConfig& config) {
    // A cluster node's store knows its id: it writes only the games it owns (game_ownership.h).
    const StoreLocation where = config.postgres.empty()
                                    ? StoreLocation(SqliteLocation{config.db, true})
                                    : StoreLocation(PostgresLocation{config.postgres, config.cluster ? config.cluster->id : ""});
    auto store = open_store(where);
    if (!store) throw std::runtime_error("cannot open the database: " + store.error().message);
    return std::move(*store);
}


}  // namespace

Server::Server(asio::io_context& io, ServerConfig config)
    : io_(io),
      config_(std::move(config)),
      store_(open_configured_store(config_)),
      flag_timer_(io),
      sweep_timer_(io),
      count_timer_(io),
      // Each finished hash comes back to the loop thread through asio::post.
      passwords_(std::make_unique<PasswordPool>(config_.password_threads, config_.password_queue,
                                                [&io](std::function<void()> done) { asio::post(io, std::move(done)); })),
      dispatcher_(DispatchConfig{config_.name, config_.spectator_count_interval, config_.grace, config_.first_move,
                                 config_.rate, config_.computer_key, config_.max_waiting_per_group,
                                 config_.join_codes, config_.accounts, config_.session_lifetime,
                                 config_.password_cost, config_.address_backoff, config_.account_backoff,
                                 config_.registrations_per_hour, config_.leaderboard_min_games},
                  *store_, *this, secure_random, passwords_.get()),
      site_(config_.web_root ? std::make_unique<web::Site>(*config_.web_root) : nullptr),
      listener_(io, config_.listen, config_.connections, config_.session, *this, config_.tls, site_.get()) {
    dispatcher_.recover();
    if (config_.cluster)
        // A node that lost its lease may find its games taken over: it stops, and its clients
        // reconnect to another node.
    {
        auto* ownership = dynamic_cast<GameOwnership*>(store_.get());
        if (!ownership) throw std::runtime_error("a cluster node needs the PostgreSQL store (--postgres)");
        node_ = std::make_unique<node::ClusterNode>(io.get_executor(), dispatcher_, *ownership, *config_.cluster,
                                                    [this] { stop(); });
    }
    if (config_.discovery) {
        discovery_.emplace(io, udp::endpoint(config_.listen.address(), *config_.discovery), [this] {
            return proto::DiscoveryReply{config_.name, listener_.port(),
                                         static_cast<std::uint32_t>(lobby().open_games(0).size()),
                                         static_cast<std::uint32_t>(lobby().live_games(0).size()),
                                         proto::kProtocolVersion, config_.fingerprint};
        });
    }
}

Server::~Server() {
    node_.reset();
    passwords_.reset();  // joins the workers; their posted completions check the dispatcher is alive
    dispatcher_.release();
}

void Server::start() {
    listener_.start();
    if (node_) node_->start();
    if (discovery_) discovery_->start();
    arm_sweep();
    dispatcher_.arm_clocks();  // restored games' clocks
    log(LogLevel::Info, "listening on ", config_.listen.address().to_string(), ":", listener_.port(),
        config_.tls ? " (TLS)" : " (plain TCP, unencrypted)",
        discovery_ ? ", discovery on UDP " + std::to_string(discovery_->port()) : std::string(),
        site_ ? ", the watch page from " + site_->root().string() : std::string());
    // Said at start, not only at the first browser's request: an operator reads this line.
    if (site_ && !std::filesystem::exists(site_->root() / "index.html"))
        log(LogLevel::Warn, "no watch page at ", (site_->root() / "index.html").string(),
            ": browsers get a 404 page saying it is not built (./xq build, or --web-root DIR)");
}

void Server::stop() {
    listener_.stop();
    if (discovery_) discovery_->stop();
    flag_timer_.cancel();
    count_timer_.cancel();
    sweep_timer_.cancel();
    for (auto& peer : dispatcher_.peers()) peer->close(CloseReason::ByServer);
    dispatcher_.release();  // what finished reaches the archive
    if (node_) node_->stop();
}

std::optional<std::uint16_t> Server::discovery_port() const {
    if (!discovery_) return std::nullopt;
    return discovery_->port();
}

void Server::on_frame(const std::shared_ptr<Session>& session, std::string_view payload) {
    dispatcher_.on_frame(session, payload);
}

void Server::on_bad_frame(const std::shared_ptr<Session>& session, const proto::DecodeError& error) {
    dispatcher_.on_bad_frame(session, error);
}

void Server::on_closed(const std::shared_ptr<Session>& session, CloseReason reason) {
    listener_.released(*session);
    log(LogLevel::Debug, "session ", session->id(), " closed: ", to_string(reason));
    dispatcher_.on_closed(*session);
    if (node_) node_->session_closed(*session);
}

void Server::post_release() {
    asio::post(io_, [this] { dispatcher_.release(); });
}

void Server::arm_flag_timer(TimePoint at) {
    flag_timer_.expires_at(at);  // cancels the wait armed before
    flag_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) dispatcher_.on_flag_timer();
    });
}

void Server::arm_count_timer(TimePoint at) {
    count_timer_.expires_at(at);
    count_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) dispatcher_.on_count_timer();  // else stopped
    });
}

void Server::arm_sweep() {
    dispatcher_.sweep_finished_rooms();
    sweep_timer_.expires_after(config_.sweep_period);
    sweep_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) arm_sweep();
    });
}

}  // namespace xq::server
