// xiangqi-server: the authoritative game server. See --help.

#include <boost/program_options.hpp>
#include <csignal>
#include <iostream>
#include <malloc.h>
#include <sqlite3.h>
#include <unistd.h>

#include "server/app/bot_keeper.h"
#include "server/log/log.h"
#include "server/net/server.h"

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

std::string host_name() {
    char name[256] = {};
    return gethostname(name, sizeof name - 1) == 0 && name[0] ? name : "xiangqi";
}

}  // namespace

int main(int argc, char** argv) {
    // glibc hands freed memory at the top of the heap back (brk) past 128 KiB, and SQLite's
    // journal compaction frees that much every few turns: keep up to 16 MiB for reuse instead.
    mallopt(M_TRIM_THRESHOLD, 16 << 20);
    // SQLite's allocation statistics take a global mutex on every allocation; nothing reads them.
    // Must come before SQLite initialises, i.e. before the first database is opened.
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    std::string listen = "0.0.0.0:7777", db, level = "info", name = host_name();
    int discovery_port = xq::proto::kDiscoveryPort;
    std::size_t per_address = 64;
    int bots = 0;
    int grace_seconds = 60;
    double rate_per_second = 20, rate_burst = 40;
    std::string bot_levels = "2,4,6", bot_time_control = "5+3";
    po::options_description options("xiangqi-server options");
    options.add_options()("help", "show this help")(
        "listen", po::value(&listen)->default_value(listen), "TCP address and port to serve games on")(
        "db", po::value(&db), "SQLite file for the game archive (default: $XDG_DATA_HOME/xiangqi/xiangqi.db)")(
        "log-level", po::value(&level)->default_value(level), "debug, info, warn, error or off")(
        "name", po::value(&name)->default_value(name), "the server's name in LAN discovery and Welcome")(
        "discovery-port", po::value(&discovery_port)->default_value(discovery_port),
        "UDP port answering LAN discovery; 0 turns discovery off")(
        "max-connections-per-address", po::value(&per_address)->default_value(per_address),
        "connections allowed from one client address")(
        "grace-seconds", po::value(&grace_seconds)->default_value(grace_seconds),
        "how long a dropped player may take to resume before the opponent may claim the game")(
        "rate-limit", po::value(&rate_per_second)->default_value(rate_per_second),
        "requests per second each connection may make (pings are free); 0 turns the limit off")(
        "rate-burst", po::value(&rate_burst)->default_value(rate_burst), "requests a quiet connection may make at once")(
        "bots", po::value(&bots)->default_value(bots), "keep this many computer opponents (xiangqi-bot) in the lobby")(
        "bot-levels", po::value(&bot_levels)->default_value(bot_levels), "their levels 1-8, given to the bots in turn")(
        "bot-time-control", po::value(&bot_time_control)->default_value(bot_time_control),
        "the time control of the bots' games, MINUTES+INCREMENT[/MOVE_CAP]");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "xiangqi-server: " << e.what() << "\n" << options;
        return 2;
    }
    if (vm.count("help")) {
        std::cout << "usage: xiangqi-server [options]\n" << options;
        return 0;
    }
    LogLevel log_level_value;
    if (!parse_log_level(level, log_level_value)) {
        std::cerr << "xiangqi-server: unknown log level '" << level << "'\n";
        return 2;
    }
    set_log_level(log_level_value);
    ServerConfig config;
    const auto endpoint = parse_endpoint(listen);
    if (!endpoint) {
        std::cerr << "xiangqi-server: --listen wants ADDR:PORT, got '" << listen << "'\n";
        return 2;
    }
    config.listen = *endpoint;
    if (db.empty()) {
        const auto path = default_db_path();
        if (!path) {
            std::cerr << "xiangqi-server: no default database path (" << path.error().message << "); pass --db\n";
            return 2;
        }
        std::error_code ec;
        std::filesystem::create_directories(path->parent_path(), ec);
        config.db = *path;
    } else {
        config.db = db;
    }
    config.name = name;
    if (discovery_port < 0 || discovery_port > 65535) {
        std::cerr << "xiangqi-server: --discovery-port must be 0 to 65535\n";
        return 2;
    }
    if (discovery_port > 0) config.discovery = static_cast<std::uint16_t>(discovery_port);
    config.connections.max_per_address = per_address;
    if (grace_seconds < 0 || grace_seconds > 86400 || rate_per_second < 0 || rate_burst < 1) {
        std::cerr << "xiangqi-server: --grace-seconds must be 0 to 86400, --rate-limit at least 0, --rate-burst at least 1\n";
        return 2;
    }
    config.grace = std::chrono::seconds(grace_seconds);
    config.rate.per_second = rate_per_second;
    config.rate.burst = rate_burst;
    std::vector<BotSpec> bot_specs;
    std::optional<std::filesystem::path> bot_binary;
    if (bots < 0 || bots > 64) {
        std::cerr << "xiangqi-server: --bots must be 0 to 64\n";
        return 2;
    }
    if (bots > 0) {
        const auto levels = parse_levels(bot_levels);
        if (!levels) {
            std::cerr << "xiangqi-server: --bot-levels wants levels 1-8 separated by commas, got '" << bot_levels << "'\n";
            return 2;
        }
        bot_binary = find_bot_binary();
        if (!bot_binary) {
            std::cerr << "xiangqi-server: --bots needs xiangqi-bot (beside the server, or on PATH)\n";
            return 2;
        }
        for (int i = 0; i < bots; ++i)
            bot_specs.push_back({(*levels)[static_cast<std::size_t>(i) % levels->size()], bot_time_control});
    }
    try {
        asio::io_context io(1);
        Server server(io, config);
        std::optional<BotKeeper> keeper;
        asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&](const boost::system::error_code&, int) {
            log(LogLevel::Info, "shutting down");
            if (keeper) keeper->stop();
            server.stop();
            io.stop();
        });
        std::signal(SIGPIPE, SIG_IGN);
        server.start();
        // The bots reach the server the way a local client would: over loopback unless it listens
        // on one specific address.
        const auto address = config.listen.address();
        const std::string host = address.is_unspecified() ? (address.is_v6() ? "[::1]" : "127.0.0.1")
                                 : address.is_v6()        ? "[" + address.to_string() + "]"
                                                          : address.to_string();
        if (!bot_specs.empty()) {
            keeper.emplace(io, *bot_binary, host + ":" + std::to_string(server.port()), bot_specs);
            keeper->start();
        }
        io.run();
    } catch (const std::exception& e) {
        std::cerr << "xiangqi-server: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
