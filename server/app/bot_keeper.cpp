#include "server/app/bot_keeper.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string_view>
#include <thread>
#include <utility>

#include "server/log/log.h"

extern char** environ;

namespace xq::server {

namespace fs = std::filesystem;

BotKeeper::BotKeeper(asio::io_context& io, fs::path binary, std::string server, std::vector<BotSpec> bots,
                     std::string computer_key, std::string fingerprint)
    : timer_(io), binary_(std::move(binary)), server_(std::move(server)), fingerprint_(std::move(fingerprint)) {
    for (auto& spec : bots) {
        Bot& bot = bots_.emplace_back();
        bot.spec = std::move(spec);
    }
    for (char** e = environ; *e; ++e)
        if (!std::string_view(*e).starts_with("XQ_COMPUTER_KEY=")) environment_.emplace_back(*e);
    environment_.push_back("XQ_COMPUTER_KEY=" + computer_key);
}

BotKeeper::~BotKeeper() { stop(); }

void BotKeeper::start() {
    if (stopped_) return;
    keeping_ = true;
    for (auto& bot : bots_)
        if (bot.pid < 0) {
            bot.pause = std::chrono::seconds(1);
            spawn(bot);
        }
    if (!armed_) arm();
}

void BotKeeper::stand_down() {
    keeping_ = false;
    const auto kill_at = std::chrono::steady_clock::now() + kKillAfter;
    for (auto& bot : bots_)
        if (bot.pid > 0 && !bot.kill_at) {
            ::kill(bot.pid, SIGTERM);
            bot.kill_at = kill_at;
        }
}

void BotKeeper::spawn(Bot& bot) {
    const std::string level = std::to_string(bot.spec.level);
    std::vector<std::string> args = {binary_.string(), "--server", server_, "--level", level,
                                     "--time-control", bot.spec.time_control};
    // A bot outlives no server: not even one SIGKILLed, whose successor starts bots of the same names.
    args.insert(args.end(), {"--parent-pid", std::to_string(::getpid())});
    if (fingerprint_.empty()) args.push_back("--plain");
    else args.insert(args.end(), {"--fingerprint", fingerprint_});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // The bots' own output (one JSON line per game) is theirs; the server's log says what matters.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    // The listening socket and every player's connection stay the server's: a bot holding them
    // would keep the port after the server ended.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    pid_t pid = -1;
    std::vector<char*> envp;
    for (auto& e : environment_) envp.push_back(e.data());
    envp.push_back(nullptr);
    const int rc = ::posix_spawn(&pid, binary_.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    bot.started = std::chrono::steady_clock::now();
    if (rc != 0) {
        log(LogLevel::Warn, "could not start the level ", level, " bot (", binary_.string(), "): ", std::strerror(rc));
        bot.pid = -1;
        bot.next_start = bot.started + bot.pause;
        bot.pause = std::min(bot.pause * 2, std::chrono::seconds(60));
        return;
    }
    bot.pid = pid;
    log(LogLevel::Info, "started a level ", level, " bot (pid ", pid, ")");
}

void BotKeeper::check() {
    const auto now = std::chrono::steady_clock::now();
    for (auto& bot : bots_) {
        if (bot.pid > 0) {
            int status = 0;
            if (::waitpid(bot.pid, &status, WNOHANG) != bot.pid) {
                if (bot.kill_at && now >= *bot.kill_at) ::kill(bot.pid, SIGKILL);  // reaped next time
                continue;
            }
            const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            const pid_t pid = std::exchange(bot.pid, -1);
            if (bot.kill_at) {  // stood down, as asked
                log(LogLevel::Info, "the level ", bot.spec.level, " bot (pid ", pid, ") has stopped (status ", code, ")");
                bot.kill_at.reset();
                bot.next_start = now;
                continue;
            }
            log(LogLevel::Warn, "the level ", bot.spec.level, " bot (pid ", pid, ") exited with status ", code);
            // A bot that ran a good while gets a quick restart; one that keeps dying, longer pauses.
            if (now - bot.started > std::chrono::minutes(1)) bot.pause = std::chrono::seconds(1);
            bot.next_start = now + bot.pause;
            bot.pause = std::min(bot.pause * 2, std::chrono::seconds(60));
        }
        if (keeping_ && bot.pid < 0 && now >= bot.next_start) spawn(bot);
    }
}

void BotKeeper::arm() {
    if (stopped_) return;
    armed_ = true;
    timer_.expires_after(std::chrono::seconds(1));
    timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec) return;  // cancelled: the keeper may be gone
        armed_ = false;
        if (stopped_) return;
        check();
        arm();
    });
}

void BotKeeper::stop() {
    if (stopped_) return;
    stopped_ = true;
    keeping_ = false;
    timer_.cancel();
    for (auto& bot : bots_)
        if (bot.pid > 0) ::kill(bot.pid, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    for (auto& bot : bots_) {
        while (bot.pid > 0) {
            if (::waitpid(bot.pid, nullptr, WNOHANG) == bot.pid) {
                bot.pid = -1;
            } else if (std::chrono::steady_clock::now() > deadline) {
                ::kill(bot.pid, SIGKILL);
                ::waitpid(bot.pid, nullptr, 0);
                bot.pid = -1;
            } else {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        }
    }
}

std::optional<fs::path> find_bot_binary() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path beside = self.parent_path().parent_path() / "bot" / "xiangqi-bot";
        if (::access(beside.c_str(), X_OK) == 0) return beside;
    }
    if (const char* path = std::getenv("PATH")) {
        std::istringstream dirs(path);
        for (std::string dir; std::getline(dirs, dir, ':');) {
            const fs::path candidate = fs::path(dir) / "xiangqi-bot";
            if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
        }
    }
    return std::nullopt;
}

std::optional<std::vector<int>> parse_levels(const std::string& text) {
    std::vector<int> levels;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        char* end = nullptr;
        const long level = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || level < 1 || level > 8) return std::nullopt;
        levels.push_back(static_cast<int>(level));
    }
    if (levels.empty()) return std::nullopt;
    return levels;
}

}  // namespace xq::server
