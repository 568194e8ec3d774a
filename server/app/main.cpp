// xiangqi-server: the authoritative game server. See --help.

#include <boost/program_options.hpp>
#include <csignal>
#include <expected>
#include <functional>
#include <iostream>
#include <malloc.h>
#include <sqlite3.h>
#include <sys/random.h>
#include <unistd.h>

#include "server/accounts/secret.h"
#include "server/app/bot_keeper.h"
#include "server/app/bot_lease.h"
#include "server/cluster/lease.h"
#include "server/cluster/redis_address.h"
#include "server/log/log.h"
#include "server/net/server.h"
#include "server/store/store_location.h"
#include "tls/certificate.h"
#include "tls/context.h"

namespace po = boost::program_options;
using namespace xq::server;

namespace {

// "ADDR:PORT", "[v6]:PORT" or ":PORT".
std::optional<tcp::endpoint> parse_endpoint(const std::string& text) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) return std::nullopt;
    std::string host = text.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    if (host.empty()) host = "0.0.0.0";
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(host, ec);
    char* end = nullptr;
    const long port = std::strtol(text.c_str() + colon + 1, &end, 10);
    if (ec || *end != '\0' || port < 0 || port > 65535) return std::nullopt;
    return tcp::endpoint(address, static_cast<std::uint16_t>(port));
}

void tune_allocators() {
    // glibc hands freed memory at the top of the heap back (brk) past 128 KiB, and SQLite's
    // journal compaction frees that much every few turns: keep up to 16 MiB for reuse instead.
    mallopt(M_TRIM_THRESHOLD, 16 << 20);
    // SQLite's allocation statistics take a global mutex on every allocation; nothing reads them.
    // Must come before SQLite initialises, i.e. before the first database is opened.
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// The command line as typed; server_config and bot_setup check it.
struct CommandLine {
    bool help = false;
    // The name is the operator's choice, never the machine's host name: discovery answers with it.
    std::string listen = "0.0.0.0:7777", db, level = "info", name = "xiangqi";
    std::string tls_cert, tls_key;
    std::string postgres;  // a libpq connection string: the PostgreSQL store instead of --db
    std::string redis, node_id;  // a cluster node (server/node)
    bool plain = false;
    int discovery_port = xq::proto::kDiscoveryPort;
    std::size_t per_address = 64;
    std::size_t waiting_per_address = 2;
    int bots = 0;
    int grace_seconds = 60;
    int first_move_seconds = 30;
    int parent_pid = 0;
    double rate_per_second = 20, rate_burst = 40;
    std::string bot_levels = "2,4,6", bot_time_control = "5+3";
    std::string accounts = "optional";
    int session_days = 30;
    int registrations_per_hour = 5;
    std::string password_cost = "interactive";
    std::string web_root = XQ_WEB_ROOT;  // the build's web/dist (server/app/CMakeLists.txt)
};

po::options_description describe(CommandLine& line) {
    po::options_description options("xiangqi-server options");
    options.add_options()("help", "show this help")(
        "listen", po::value(&line.listen)->default_value(line.listen),
        "TCP address and port to serve games on")(
        "db", po::value(&line.db),
        "SQLite file for the game archive (default: $XDG_DATA_HOME/xiangqi/xiangqi.db)")(
        "postgres", po::value(&line.postgres),
        "keep everything in PostgreSQL instead of a SQLite file: a libpq connection string "
        "(\"host=/run/pg dbname=xq\" or postgresql://...); not with --db")(
        "redis", po::value(&line.redis),
        "join a cluster of nodes through this Redis (HOST:PORT or unix:/PATH); needs --postgres (docs/cluster.md)")(
        "node-id", po::value(&line.node_id),
        "this node's id in the cluster, 1-64 of A-Z a-z 0-9 _ - (default: a random one)")(
        "log-level", po::value(&line.level)->default_value(line.level),
        "debug, info, warn, error or off")(
        "name", po::value(&line.name)->default_value(line.name),
        "the server's name in LAN discovery and Welcome")(
        "tls-cert", po::value(&line.tls_cert),
        "PEM certificate chain for TLS (with --tls-key); default: a self-signed one made on first start "
        "and kept beside the database (DB.cert.pem, DB.key.pem)")(
        "tls-key", po::value(&line.tls_key), "PEM private key of --tls-cert")(
        "plain", po::bool_switch(&line.plain),
        "serve plain TCP without TLS (tests, old clients): everything, tokens included, crosses the network in clear")(
        "web-root", po::value(&line.web_root)->default_value(line.web_root),
        "folder of the built watch page (index.html, assets/), served to browsers on the game port with its "
        "WebSocket (docs/web.md)")(
        "discovery-port", po::value(&line.discovery_port)->default_value(line.discovery_port),
        "UDP port answering LAN discovery; 0 turns discovery off")(
        "max-connections-per-address",
        po::value(&line.per_address)->default_value(line.per_address),
        "connections allowed from one client address (an IPv6 address counts by its /64)")(
        "max-waiting-games-per-address",
        po::value(&line.waiting_per_address)->default_value(line.waiting_per_address),
        "games waiting for an opponent that one client address may host at once; 0: no limit")(
        "grace-seconds", po::value(&line.grace_seconds)->default_value(line.grace_seconds),
        "how long a dropped player may take to resume before the opponent may claim the game")(
        "first-move-seconds", po::value(&line.first_move_seconds)->default_value(line.first_move_seconds),
        "how long each side may take over its first move before the game is aborted (no clock runs until "
        "both have moved)")(
        "rate-limit", po::value(&line.rate_per_second)->default_value(line.rate_per_second),
        "requests per second each connection may make (pings are free); 0 turns this limit and the "
        "request and chat limits per address off")(
        "rate-burst", po::value(&line.rate_burst)->default_value(line.rate_burst),
        "requests a quiet connection may make at once")(
        "parent-pid", po::value(&line.parent_pid)->default_value(line.parent_pid),
        "stop (as on SIGTERM) once process PID is no longer this server's parent: the client that "
        "started it has ended, however it ended; 0: never")(
        "bots", po::value(&line.bots)->default_value(line.bots),
        "keep this many computer opponents (xiangqi-bot) in the lobby; in a cluster, run by one node with "
        "--bots at a time (the holder of xq:lease:bots)")(
        "bot-levels", po::value(&line.bot_levels)->default_value(line.bot_levels),
        "their levels 1-8, given to the bots in turn")(
        "bot-time-control", po::value(&line.bot_time_control)->default_value(line.bot_time_control),
        "the time control of the bots' games, MINUTES+INCREMENT[/MOVE_CAP]")(
        "accounts", po::value(&line.accounts)->default_value(line.accounts),
        "optional: guests (their names marked \" (guest)\") and accounts; required: log in before "
        "playing; off: no accounts, names as typed (a LAN party)")(
        "session-days", po::value(&line.session_days)->default_value(line.session_days),
        "how long a login's session token stays valid, in days (1 to 365)")(
        "registrations-per-hour", po::value(&line.registrations_per_hour)->default_value(line.registrations_per_hour),
        "accounts one client address may register an hour (0 to 1000000)")(
        "password-cost", po::value(&line.password_cost)->default_value(line.password_cost),
        "Argon2id cost of password hashes: interactive, or minimal (benchmarks only: cheap to crack)");
    return options;
}

// Throws po::error for an unknown option or a value of the wrong type.
void read(int argc, char** argv, const po::options_description& options, CommandLine& line) {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
    line.help = vm.count("help") > 0;
}

// The checked configuration, or what is wrong with the first bad option. Creates the folder of
// the default database.
std::expected<ServerConfig, std::string> server_config(const CommandLine& line) {
    ServerConfig config;
    const auto endpoint = parse_endpoint(line.listen);
    if (!endpoint) return std::unexpected("--listen wants ADDR:PORT, got '" + line.listen + "'");
    config.listen = *endpoint;
    if (!line.postgres.empty() && !line.db.empty())
        return std::unexpected("--db and --postgres choose the store: give one of them, not both");
    config.postgres = line.postgres;
    if (!line.redis.empty()) {
        if (line.postgres.empty())
            return std::unexpected("--redis needs --postgres: the nodes of a cluster keep their games in one database");
        const auto address = xq::cluster::parse_redis_address(line.redis);
        if (!address) return std::unexpected("--redis: " + address.error());
        xq::server::node::NodeOptions node;
        node.redis = *address;
        // "node-" and 12 random hex digits: unique enough among a cluster's nodes, readable in logs.
        node.id = line.node_id.empty() ? "node-" + xq::server::random_hex(6) : line.node_id;
        if (!xq::cluster::valid_node_id(node.id))
            return std::unexpected("--node-id must be 1-64 of A-Z a-z 0-9 _ -, got '" + line.node_id + "'");
        config.cluster = node;
    } else if (!line.node_id.empty()) {
        return std::unexpected("--node-id goes with --redis");
    }
    // With --postgres the default path still says where a self-signed certificate is kept.
    if (line.db.empty()) {
        const auto path = default_db_path();
        if (!path)
            return std::unexpected("no default database path (" + path.error().message +
                                   "); pass --db");
        std::error_code ec;
        std::filesystem::create_directories(path->parent_path(), ec);
        config.db = *path;
    } else {
        config.db = line.db;
    }
    config.name = line.name;
    if (line.plain && !(line.tls_cert.empty() && line.tls_key.empty()))
        return std::unexpected("--plain cannot go with --tls-cert or --tls-key");
    if (line.tls_cert.empty() != line.tls_key.empty()) return std::unexpected("--tls-cert and --tls-key go together");
    if (!line.plain) {
        auto files = xq::tls::files_beside(config.db);
        if (!line.tls_cert.empty()) {
            files = {line.tls_cert, line.tls_key};
        } else if (auto made = xq::tls::ensure_self_signed(files, line.name); !made) {
            return std::unexpected("cannot make the self-signed TLS certificate: " + made.error());
        } else if (!*made) {
            log(LogLevel::Info, "made a self-signed TLS certificate: ", files.cert.string());
        }
        auto context = xq::tls::server_context(files);
        if (!context) return std::unexpected(context.error());
        const auto fingerprint = xq::tls::fingerprint_of_file(files.cert);
        if (!fingerprint) return std::unexpected(fingerprint.error());
        config.tls = std::move(*context);
        config.fingerprint = *fingerprint;
        // Clients that cannot check the certificate against a CA compare this (LocalServer reads it).
        log(LogLevel::Info, "TLS certificate fingerprint sha256:", *fingerprint);
    }
    if (line.discovery_port < 0 || line.discovery_port > 65535)
        return std::unexpected("--discovery-port must be 0 to 65535");
    if (line.discovery_port > 0) config.discovery = static_cast<std::uint16_t>(line.discovery_port);
    config.web_root = line.web_root;
    config.connections.max_per_address = line.per_address;
    config.max_waiting_per_group = line.waiting_per_address;
    if (line.grace_seconds < 0 || line.grace_seconds > 86400 || line.rate_per_second < 0 ||
        line.rate_burst < 1)
        return std::unexpected(
            "--grace-seconds must be 0 to 86400, --rate-limit at least 0, --rate-burst at least 1");
    config.grace = std::chrono::seconds(line.grace_seconds);
    if (line.first_move_seconds < 1 || line.first_move_seconds > 3600)
        return std::unexpected("--first-move-seconds must be 1 to 3600");
    config.first_move = std::chrono::seconds(line.first_move_seconds);
    config.rate.per_second = line.rate_per_second;
    config.rate.burst = line.rate_burst;
    if (line.accounts == "optional") config.accounts = xq::proto::AccountsMode::Optional;
    else if (line.accounts == "required") config.accounts = xq::proto::AccountsMode::Required;
    else if (line.accounts == "off") config.accounts = xq::proto::AccountsMode::Off;
    else return std::unexpected("--accounts must be required, optional or off, got '" + line.accounts + "'");
    if (line.session_days < 1 || line.session_days > 365) return std::unexpected("--session-days must be 1 to 365");
    config.session_lifetime = std::chrono::hours(24 * line.session_days);
    if (line.registrations_per_hour < 0 || line.registrations_per_hour > 1'000'000)
        return std::unexpected("--registrations-per-hour must be 0 to 1000000");
    config.registrations_per_hour = static_cast<std::size_t>(line.registrations_per_hour);
    if (line.password_cost == "interactive") config.password_cost = xq::server::interactive_cost();
    else if (line.password_cost == "minimal") config.password_cost = xq::server::minimal_cost();
    else return std::unexpected("--password-cost must be interactive or minimal, got '" + line.password_cost + "'");
    return config;
}

// The computer opponents to keep in the lobby, and the program they run (when there are any).
struct Bots {
    std::vector<BotSpec> specs;
    std::optional<std::filesystem::path> binary;
};

std::expected<Bots, std::string> bot_setup(const CommandLine& line) {
    Bots bots;
    if (line.bots < 0 || line.bots > 64) return std::unexpected("--bots must be 0 to 64");
    if (line.bots == 0) return bots;
    const auto levels = parse_levels(line.bot_levels);
    if (!levels)
        return std::unexpected("--bot-levels wants levels 1-8 separated by commas, got '" +
                               line.bot_levels + "'");
    bots.binary = find_bot_binary();
    if (!bots.binary)
        return std::unexpected("--bots needs xiangqi-bot (beside the server, or on PATH)");
    for (int i = 0; i < line.bots; ++i)
        bots.specs.push_back(
            {(*levels)[static_cast<std::size_t>(i) % levels->size()], line.bot_time_control});
    return bots;
}

// The bots reach the server the way a local client would: over loopback unless it listens on
// one specific address.
std::string bot_host(const asio::ip::address& listen) {
    return listen.is_unspecified() ? (listen.is_v6() ? "[::1]" : "127.0.0.1")
           : listen.is_v6()        ? "[" + listen.to_string() + "]"
                                   : listen.to_string();
}

// Calls `gone` once process `parent` is no longer ours (it ended and we were handed to another).
// Polled: a child cannot be told of its parent's death reliably otherwise (PR_SET_PDEATHSIG fires
// when the spawning thread ends, not the process).
void watch_parent(asio::steady_timer& timer, pid_t parent, std::function<void()> gone) {
    if (::getppid() != parent) return gone();
    timer.expires_after(std::chrono::milliseconds(250));
    timer.async_wait([&timer, parent, gone = std::move(gone)](const boost::system::error_code& ec) mutable {
        if (!ec) watch_parent(timer, parent, std::move(gone));
    });
}

// 128 random bits as hex (libsodium's CSPRNG): the key this server gives the bots it starts.
std::string fresh_computer_key() { return xq::server::random_hex(16); }

// Serves until SIGINT or SIGTERM, or until `parent` (when not 0) has ended: 0 then, 1 when the
// server fails to start or run.
int serve(const ServerConfig& config, const Bots& bots, pid_t parent) {
    try {
        asio::io_context io(1);
        Server server(io, config);
        std::optional<BotKeeper> keeper;
        std::shared_ptr<BotLease> bot_lease;  // a cluster node's bots run while it holds their lease
        asio::signal_set signals(io, SIGINT, SIGTERM);
        asio::steady_timer parent_timer(io);
        const auto shut_down = [&](const char* why) {
            log(LogLevel::Info, "shutting down: ", why);
            if (bot_lease) bot_lease->stop();
            if (keeper) keeper->stop();
            server.stop();
            signals.cancel();
            parent_timer.cancel();
            io.stop();
        };
        signals.async_wait([&](const boost::system::error_code& ec, int) {
            if (!ec) shut_down("a signal");
        });
        std::signal(SIGPIPE, SIG_IGN);
        server.start();
        if (!bots.specs.empty()) {
            const std::string port = std::to_string(server.port());
            keeper.emplace(io, *bots.binary, bot_host(config.listen.address()) + ":" + port,
                           bots.specs, config.computer_key, config.fingerprint);
            if (const auto* node = server.cluster_node()) {
                bot_lease = BotLease::create(io.get_executor(), node->leases(), node->id(), *keeper,
                                             [node] { return node->holds_lease(); });
                bot_lease->start();
            } else {
                keeper->start();
            }
        }
        if (parent != 0) watch_parent(parent_timer, parent, [&] { shut_down("the parent process has ended"); });
        io.run();
    } catch (const std::exception& e) {
        std::cerr << "xiangqi-server: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

int bad_option(const std::string& why) {
    std::cerr << "xiangqi-server: " << why << "\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    tune_allocators();
    CommandLine line;
    const po::options_description options = describe(line);
    try {
        read(argc, argv, options, line);
    } catch (const po::error& e) {
        std::cerr << "xiangqi-server: " << e.what() << "\n" << options;
        return 2;
    }
    if (line.help) {
        std::cout << "usage: xiangqi-server [options]\n" << options;
        return 0;
    }
    LogLevel log_level;
    if (!parse_log_level(line.level, log_level))
        return bad_option("unknown log level '" + line.level + "'");
    set_log_level(log_level);
    auto config = server_config(line);
    if (!config) return bad_option(config.error());
    const auto bots = bot_setup(line);
    if (!bots) return bad_option(bots.error());
    if (!bots->specs.empty()) config->computer_key = fresh_computer_key();
    if (line.parent_pid < 0) return bad_option("--parent-pid must be a process id, or 0");
    return serve(*config, *bots, static_cast<pid_t>(line.parent_pid));
}
