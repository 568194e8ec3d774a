// loadgen: plays G games between random-move bots with S spectators each against a running
// xiangqi-server (or, with --relay, bench/relay) over real TCP for T seconds, checks that every
// participant of every game saw the same moves and result, and prints one line of JSON.
//
// Timeline: open every connection (Hello each), start every game, then measure for T seconds
// from the moment every first game has started. At the end no new move is sent; the run waits
// (up to 10 s) for the moves in flight and for every live game's participants to agree on its
// length, compares those games too, reads the server's memory, and closes.

#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <iostream>

#include "loadgen.h"

namespace xq::loadgen {
namespace {

constexpr const char* kUsage =
    "usage: loadgen --server ADDR:PORT[,ADDR:PORT...] [--games G] [--spectators S] [--move-interval-ms I] [--seconds T]\n"
    "               [--max-plies N] [--server-pid PID] [--relay] [--seed N] [--connect-window N]\n"
    "               [--reconnect] [--plain] [--rated] [--web-watchers N] [--stuck-after-s S]\n"
    "               [--spread-spectators] [--game-file FILE | --watch FILE]\n"
    "TLS 1.3 to the server unless --plain (the relay is always plain).\n";

template <class T>
bool parse_number(std::string_view text, T& out) {
    if constexpr (std::is_floating_point_v<T>) {
        char* end = nullptr;
        const std::string copy(text);
        out = static_cast<T>(std::strtod(copy.c_str(), &end));
        return end && *end == '\0' && !copy.empty();
    } else {
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        return ec == std::errc() && ptr == text.data() + text.size();
    }
}

std::optional<tcp::endpoint> parse_endpoint(const std::string& text) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) return std::nullopt;
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(colon == 0 ? "127.0.0.1" : text.substr(0, colon), ec);
    std::uint16_t port = 0;
    if (ec || !parse_number(std::string_view(text).substr(colon + 1), port)) return std::nullopt;
    return tcp::endpoint(address, port);
}

std::optional<Options> parse_options(int argc, char** argv) {
    Options o;
    bool have_server = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool has_value = i + 1 < argc;
        const std::string_view value = has_value ? argv[i + 1] : "";
        bool ok = has_value;
        if (arg == "--reconnect") {
            o.reconnect = true;
            continue;
        }
        if (arg == "--rated") {
            o.rated = true;
            continue;
        }
        if (arg == "--plain") {
            o.plain = true;
            continue;
        }
        if (arg == "--spread-spectators") {
            o.spread_spectators = true;
            continue;
        }
        if (arg == "--relay") {
            o.relay = true;
            continue;
        } else if (arg == "--server") {
            o.servers.clear();
            for (std::string_view rest = value; ok && !rest.empty();) {
                const auto comma = rest.find(',');
                const auto ep = parse_endpoint(std::string(rest.substr(0, comma)));
                ok = ok && ep;
                if (ep) o.servers.push_back(*ep);
                rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
            }
            ok = ok && !o.servers.empty();
            if (ok) o.server = o.servers.front(), have_server = true;
        } else if (arg == "--games") ok = ok && parse_number(value, o.games) && o.games > 0;
        else if (arg == "--spectators") ok = ok && parse_number(value, o.spectators) && o.spectators >= 0;
        else if (arg == "--move-interval-ms") ok = ok && parse_number(value, o.move_interval_ms) && o.move_interval_ms >= 0;
        else if (arg == "--seconds") ok = ok && parse_number(value, o.seconds) && o.seconds > 0;
        else if (arg == "--max-plies") ok = ok && parse_number(value, o.max_plies) && o.max_plies > 0;
        else if (arg == "--server-pid") ok = ok && parse_number(value, o.server_pid);
        else if (arg == "--seed") ok = ok && parse_number(value, o.seed);
        else if (arg == "--web-watchers") ok = ok && parse_number(value, o.web_watchers) && o.web_watchers >= 0;
        else if (arg == "--stuck-after-s") ok = ok && parse_number(value, o.stuck_after_s) && o.stuck_after_s > 0;
        else if (arg == "--game-file") o.game_file = value;
        else if (arg == "--watch") o.watch_file = value;
        else if (arg == "--connect-window") ok = ok && parse_number(value, o.connect_window) && o.connect_window > 0;
        else ok = false;
        if (!ok) {
            std::cerr << "loadgen: bad or unknown option '" << arg << "'\n" << kUsage;
            return std::nullopt;
        }
        ++i;
    }
    if (o.web_watchers > 0 && (!o.plain || o.relay)) {
        std::cerr << "loadgen: --web-watchers needs --plain (a server started with --plain)\n";
        return std::nullopt;
    }
    if (!o.game_file.empty() && (o.games != 1 || o.relay || !o.watch_file.empty())) {
        std::cerr << "loadgen: --game-file plays one game (--games 1), not with --relay or --watch\n";
        return std::nullopt;
    }
    if (!o.watch_file.empty()) o.games = 1;  // the one game watched: the window opens when it starts
    if (!have_server) {
        std::cerr << "loadgen: --server ADDR:PORT is required\n" << kUsage;
        return std::nullopt;
    }
    return o;
}

// VmRSS of a process in KiB; 0 when it cannot be read.
long rss_kb(int pid) {
    if (pid <= 0) return 0;
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
    return 0;
}

// 15,000 connections need more descriptors than the usual soft limit of 1,024.
void raise_file_limit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

std::uint32_t percentile(const std::vector<std::uint32_t>& sorted, double p) {
    if (sorted.empty()) return 0;
    const auto rank = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
    return sorted[std::min(rank, sorted.size() - 1)];
}

asio::awaitable<void> sleep_for(asio::io_context& io, Clock::duration d) {
    asio::steady_timer timer(io, d);
    boost::system::error_code ec;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

struct Report {
    std::string failure;  // setup failed
    double setup_s = 0;
    double window_s = 0;
    long rss_idle_kb = 0;
    long rss_kb = 0;
};

asio::awaitable<void> drive(Run& run, Driver& driver, Report& report) {
    const auto t_setup = Clock::now();
    report.rss_idle_kb = rss_kb(run.options.server_pid);
    report.failure = co_await driver.setup();
    if (!report.failure.empty()) {
        driver.finish();
        co_return;
    }
    driver.start();
    // The window opens once every game is under way (or after 60 s, whatever has started by then).
    const auto games = static_cast<std::size_t>(run.options.games);
    for (const auto give_up = Clock::now() + std::chrono::seconds(60);
         driver.started() < games && Clock::now() < give_up && run.stats.errors == 0;)
        co_await sleep_for(run.io, std::chrono::milliseconds(5));
    report.setup_s = std::chrono::duration<double>(Clock::now() - t_setup).count();
    run.window_start = Clock::now();
    run.measuring = true;
    co_await sleep_for(run.io, std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(run.options.seconds)));
    run.stopping = true;
    report.window_s = std::chrono::duration<double>(Clock::now() - run.window_start).count();
    driver.stop();
    report.rss_kb = rss_kb(run.options.server_pid);
    for (const auto give_up = Clock::now() + std::chrono::seconds(10); !driver.unsettled().empty() && Clock::now() < give_up;)
        co_await sleep_for(run.io, std::chrono::milliseconds(20));
    if (const std::string open = driver.unsettled(); !open.empty())
        run.stats.error("the run did not settle within 10 s of the end: " + open);
    driver.finish();
}

void print(const Run& run, const Report& report, std::vector<std::uint32_t> latencies) {
    std::sort(latencies.begin(), latencies.end());
    std::vector<std::uint32_t> desktop = run.stats.desktop_delivery_us, web = run.stats.web_delivery_us;
    std::sort(desktop.begin(), desktop.end());
    std::sort(web.begin(), web.end());
    const Options& o = run.options;
    const Stats& s = run.stats;
    const double per_s = report.window_s > 0 ? static_cast<double>(s.moves) / report.window_s : 0;
    std::printf(
        "{\"mode\":\"%s\",\"games\":%d,\"spectators\":%d,\"move_interval_ms\":%d,\"seconds\":%.1f,"
        "\"connections\":%d,\"games_started\":%llu,\"games_completed\":%llu,\"live_games_checked\":%llu,"
        "\"moves\":%llu,\"moves_per_s\":%.1f,\"p50_us\":%u,\"p99_us\":%u,\"p999_us\":%u,\"max_us\":%u,"
        "\"refused\":%llu,\"errors\":%llu,\"mismatches\":%llu,\"server_rss_idle_kb\":%ld,\"server_rss_kb\":%ld,"
        "\"setup_s\":%.2f,\"reconnects\":%llu,\"acked_moves_lost\":%llu,\"web_watchers\":%d,"
        "\"desktop_delivery_p50_us\":%u,\"desktop_delivery_p99_us\":%u,\"web_delivery_p50_us\":%u,"
        "\"web_delivery_p99_us\":%u,\"deliveries\":%zu,\"acks_total\":%llu,\"games_stuck\":%llu,",
        o.relay ? "relay" : "server", o.games, o.relay ? 0 : o.spectators, o.move_interval_ms, report.window_s,
        o.games * (o.relay ? 2 : 2 + o.spectators), static_cast<unsigned long long>(s.games_started),
        static_cast<unsigned long long>(s.games_completed), static_cast<unsigned long long>(s.checked_live),
        static_cast<unsigned long long>(s.moves), per_s, percentile(latencies, 0.5), percentile(latencies, 0.99),
        percentile(latencies, 0.999), latencies.empty() ? 0u : latencies.back(),
        static_cast<unsigned long long>(s.refused), static_cast<unsigned long long>(s.errors),
        static_cast<unsigned long long>(s.mismatches), report.rss_idle_kb, report.rss_kb, report.setup_s,
        static_cast<unsigned long long>(s.reconnects), static_cast<unsigned long long>(s.acked_moves_lost),
        o.web_watchers, percentile(desktop, 0.5), percentile(desktop, 0.99), percentile(web, 0.5), percentile(web, 0.99),
        desktop.size() + web.size(), static_cast<unsigned long long>(s.acks_total),
        static_cast<unsigned long long>(s.games_stuck));
    // Delivery per node of the spectator (--server's order).
    std::string p50 = "[", p99 = "[", count = "[";
    for (auto node : s.node_delivery_us) {
        std::sort(node.begin(), node.end());
        const char* comma = p50.size() > 1 ? "," : "";
        p50 += comma + std::to_string(percentile(node, 0.5));
        p99 += comma + std::to_string(percentile(node, 0.99));
        count += comma + std::to_string(node.size());
    }
    // The load generator's own CPU: beside a server on the same cores, how much of them it took.
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    const double cpu_s = static_cast<double>(self.ru_utime.tv_sec + self.ru_stime.tv_sec) +
                         static_cast<double>(self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6;
    std::printf("\"node_delivery_p50_us\":%s],\"node_delivery_p99_us\":%s],\"node_deliveries\":%s],\"loadgen_cpu_s\":%.2f}\n",
                p50.c_str(), p99.c_str(), count.c_str(), cpu_s);
    std::fflush(stdout);
}

}  // namespace
}  // namespace xq::loadgen

int main(int argc, char** argv) {
    using namespace xq::loadgen;
    auto options = parse_options(argc, argv);
    if (!options) return 2;
    raise_file_limit();
    std::signal(SIGPIPE, SIG_IGN);
    asio::io_context io(1);
    Run run(io, *options);
    auto driver = options->relay ? make_relay_driver(run)
                  : options->watch_file.empty() ? make_server_driver(run)
                                                : make_watch_file_driver(run);
    Report report;
    asio::co_spawn(io, drive(run, *driver, report), asio::detached);
    io.run();
    for (const auto& e : run.stats.error_samples) std::cerr << "loadgen: " << e << "\n";
    if (!report.failure.empty()) {
        std::cerr << "loadgen: " << report.failure << "\n";
        return 1;
    }
    print(run, report, std::move(run.stats.latencies_us));
    const Stats& s = run.stats;
    return s.errors == 0 && s.mismatches == 0 && s.acked_moves_lost == 0 && s.games_stuck == 0 ? 0 : 1;
}
