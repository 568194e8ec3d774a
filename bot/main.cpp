// xiangqi-bot: a computer player that connects to a server like any client and plays with
// fairy-stockfish. See bot/policy.h for when it resigns and agrees to draws.

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <iostream>
#include <thread>

#include <boost/program_options.hpp>

#include "bot/options.h"
#include "bot/player.h"

namespace po = boost::program_options;

namespace {

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop.store(true); }

// Stops the bot (as SIGTERM does) once `parent` is no longer its parent: the server that started
// it has ended, even by SIGKILL. Polled, as the server's own --parent-pid is.
void watch_parent(pid_t parent) {
    std::thread([parent] {
        while (!g_stop.load() && ::getppid() == parent) std::this_thread::sleep_for(std::chrono::milliseconds(250));
        g_stop.store(true);
    }).detach();
}

}  // namespace

int main(int argc, char** argv) {
    using namespace xq;
    bot::BotOptions options;
    std::string server = "127.0.0.1:7777", time_control = "5+3", color = "random", engine_path;
    int max_think = 0, parent_pid = 0;
    bool plain = false;
    std::string fingerprint;
    po::options_description described("xiangqi-bot options");
    described.add_options()("help", "show this help")(
        "server", po::value(&server)->default_value(server), "the server, HOST[:PORT]")(
        "level", po::value(&options.level)->default_value(options.level), "strength 1-8 (engine/levels.h)")(
        "name", po::value(&options.name), "display name (default \"bot level N\")")(
        "quick-match", po::bool_switch(&options.quick_match), "quick-match --games games in a row, then exit")(
        "games", po::value(&options.games)->default_value(options.games), "games to play with --quick-match")(
        "time-control", po::value(&time_control)->default_value(time_control),
        "MINUTES+INCREMENT_SECONDS[/MOVE_CAP_SECONDS], e.g. 5+3 or 10+0/60")(
        "color", po::value(&color)->default_value(color), "the colour of hosted games: red, black or random")(
        "max-think-ms", po::value(&max_think), "cap the level's think time per move (fast matches, tests)")(
        "engine", po::value(&engine_path), "the fairy-stockfish binary (default: PATH, then /usr/games)")(
        "verbose", po::bool_switch(&options.verbose), "log every move with its think time and evaluation to stderr")(
        "plain", po::bool_switch(&plain), "plain TCP without TLS (a server started with --plain)")(
        "fingerprint", po::value(&fingerprint),
        "the server's certificate fingerprint (hex SHA-256): anything else is refused; default: trust on first use")(
        "parent-pid", po::value(&parent_pid)->default_value(parent_pid),
        "stop once process PID is no longer this bot's parent (the server that started it); 0: never");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, described), vm);
        po::notify(vm);
    } catch (const std::exception& e) {
        std::cerr << "xiangqi-bot: " << e.what() << "\n" << described;
        return 2;
    }
    if (vm.count("help")) {
        std::cout << "usage: xiangqi-bot --server HOST:PORT --level N [--quick-match --games K]\n"
                     "In the lobby (default) it hosts an open game and plays whoever joins, again and again.\n"
                     "Prints one JSON line per finished game: result, reason, moves (plies), level, side.\n\n"
                  << described;
        return 0;
    }
    auto endpoint = client::parse_endpoint(server);
    auto tc = bot::parse_time_control(time_control);
    std::string problem;
    if (!endpoint) problem = "--server must be HOST[:PORT]";
    else if (!tc) problem = "--time-control must look like 5+3 or 5+3/30";
    else if (options.level < engine::kMinLevel || options.level > engine::kMaxLevel) problem = "--level must be 1 to 8";
    else if (options.games < 1) problem = "--games must be at least 1";
    else if (color != "red" && color != "black" && color != "random") problem = "--color must be red, black or random";
    else if (vm.count("max-think-ms") && max_think < 1) problem = "--max-think-ms must be positive";
    else if (parent_pid < 0) problem = "--parent-pid must be a process id, or 0";
    if (!problem.empty()) {
        std::cerr << "xiangqi-bot: " << problem << "\n";
        return 2;
    }
    options.server = *endpoint;
    options.time_control = *tc;
    options.color = color == "red" ? proto::ColorChoice::Red
                    : color == "black" ? proto::ColorChoice::Black
                                       : proto::ColorChoice::Random;
    if (max_think > 0) options.max_think_ms = max_think;
    if (!engine_path.empty()) options.engine.binary = engine_path;
    options.security.plain = plain;
    options.security.expected = fingerprint;
    if (!fingerprint.empty()) options.security.accept_new = false;

    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    if (parent_pid > 0) watch_parent(static_cast<pid_t>(parent_pid));
    bot::Player player(options);
    return player.run([](const bot::GameReport& report) { std::cout << report.to_json() << std::endl; }, g_stop);
}
