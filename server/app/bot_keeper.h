#pragma once
// Keeps computer opponents in the lobby: K xiangqi-bot processes that connect to this server like
// any client and host open games at their levels; a player who asks for the computer at another
// time control takes an idle bot of that level from its open game (server/dispatch/
// computer_games.cpp), so one bot per level serves every time control. A bot that exits is started
// again (after a growing pause if it keeps dying), and all are stopped with the server. In a
// cluster they run only while this node holds the bots' lease (bot_lease.h): stand_down() when
// it is lost, start() again when it is won back.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "server/net/asio.h"

namespace xq::server {

struct BotSpec {
    int level = 3;
    std::string time_control = "5+3";  // MINUTES+INCREMENT[/CAP], as xiangqi-bot takes it
};

class BotKeeper {
public:
    // `computer_key`: given to each bot in its environment (XQ_COMPUTER_KEY, not on its command line,
    // which every user of the machine can read), so that it may say it is this server's computer.
    // `fingerprint`: of this server's TLS certificate, which the bots pin; empty: plain TCP (--plain).
    BotKeeper(asio::io_context& io, std::filesystem::path binary, std::string server, std::vector<BotSpec> bots,
              std::string computer_key, std::string fingerprint = {});
    ~BotKeeper();
    // Starts the bots that are not running (again after stand_down()) and keeps them running.
    void start();
    // SIGTERM to every bot without waiting: they leave as a bot's disconnect does, and are reaped
    // (SIGKILL after kKillAfter) by the timer; none is started again until start().
    void stand_down();
    void stop();  // SIGTERM, a short wait, then SIGKILL; every child reaped

    static constexpr std::chrono::seconds kKillAfter{2};

private:
    struct Bot {
        BotSpec spec;
        pid_t pid = -1;
        std::chrono::steady_clock::time_point started{};
        std::chrono::steady_clock::time_point next_start{};
        std::chrono::seconds pause{1};  // before the next start; doubles while the bot dies young
        std::optional<std::chrono::steady_clock::time_point> kill_at;  // stood down: SIGKILL then
    };
    void spawn(Bot& bot);
    void check();
    void arm();

    asio::steady_timer timer_;
    std::filesystem::path binary_;
    std::string server_;
    std::vector<std::string> environment_;  // this process's, and XQ_COMPUTER_KEY
    std::vector<Bot> bots_;
    std::string fingerprint_;
    bool keeping_ = false;  // between start() and stand_down(): bots that exit are started again
    bool armed_ = false;
    bool stopped_ = false;
};

// xiangqi-bot beside this server (../bot/xiangqi-bot from the server's folder, as built), or on PATH.
std::optional<std::filesystem::path> find_bot_binary();

// "1,3,5" → levels; nullopt when a level is not 1-8 or the list is malformed.
std::optional<std::vector<int>> parse_levels(const std::string& text);

}  // namespace xq::server
