#include "client/net/local_server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

namespace xq::client {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kStartTimeout = 10s;
constexpr auto kStopGrace = 2s;
constexpr std::string_view kReadyMarker = "listening on ";

bool is_executable(const fs::path& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

// The port of a "listening on ADDR:PORT[, ...]" line in `log`, if a whole such line is there.
std::optional<std::uint16_t> ready_port(const std::string& log) {
    const auto at = log.find(kReadyMarker);
    if (at == std::string::npos) return std::nullopt;
    const auto line_end = log.find('\n', at);
    if (line_end == std::string::npos) return std::nullopt;
    std::string address = log.substr(at + kReadyMarker.size(), line_end - at - kReadyMarker.size());
    address = address.substr(0, address.find_first_of(", \r"));
    const auto colon = address.rfind(':');
    if (colon == std::string::npos) return std::nullopt;
    const std::string digits = address.substr(colon + 1);
    char* end = nullptr;
    const long port = std::strtol(digits.c_str(), &end, 10);
    if (digits.empty() || *end != '\0' || port <= 0 || port > 65535) return std::nullopt;
    return static_cast<std::uint16_t>(port);
}

// The certificate fingerprint the server logs before its ready line ("" when it serves plain TCP).
std::string logged_fingerprint(const std::string& log) {
    constexpr std::string_view kMarker = "TLS certificate fingerprint sha256:";
    const auto at = log.find(kMarker);
    if (at == std::string::npos) return {};
    return log.substr(at + kMarker.size(), 64);
}

// The last part of the child's output, for an error message.
std::string tail(const std::string& log) {
    constexpr std::size_t kMax = 2000;
    std::string text = log.size() > kMax ? "..." + log.substr(log.size() - kMax) : log;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text.empty() ? "(no output)" : text;
}

std::string describe_status(int status) {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return std::string("was killed by signal ") + std::to_string(WTERMSIG(status));
    return "stopped";
}

}  // namespace

struct LocalServer::Child {
    pid_t pid = -1;
    std::uint16_t port = 0;
    std::string fingerprint;
    int output = -1;  // read end of the pipe holding the child's stdout and stderr
    std::thread drain;
    std::optional<int> status;  // once reaped

    ~Child() { stop(); }

    // Reaps the child if it has exited, waiting up to `within`.
    bool reap(std::chrono::milliseconds within) {
        const auto until = Clock::now() + within;
        for (;;) {
            int raw = 0;
            const pid_t done = ::waitpid(pid, &raw, WNOHANG);
            if (done == pid || (done < 0 && errno != EINTR)) {
                status = done == pid ? raw : 0;
                pid = -1;
                return true;
            }
            if (Clock::now() >= until) return false;
            std::this_thread::sleep_for(10ms);
        }
    }

    void stop() {
        if (pid > 0) {
            ::kill(pid, SIGTERM);
            if (!reap(std::chrono::duration_cast<std::chrono::milliseconds>(kStopGrace))) {
                ::kill(pid, SIGKILL);
                reap(std::chrono::milliseconds(5000));
            }
        }
        if (drain.joinable()) drain.join();
        if (output >= 0) ::close(output);
        output = -1;
    }

    // Keeps reading the child's output so it never blocks on a full pipe; writes it to `log_path`.
    void start_drain(std::string so_far, fs::path log_path) {
        drain = std::thread([fd = output, so_far = std::move(so_far), log_path = std::move(log_path)] {
            std::ofstream log;
            if (!log_path.empty()) log.open(log_path, std::ios::app);
            if (log) log << so_far << std::flush;
            char buffer[4096];
            for (;;) {
                const ssize_t n = ::read(fd, buffer, sizeof buffer);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) return;
                if (log) log.write(buffer, n).flush();
            }
        });
    }
};

LocalServer::LocalServer(std::unique_ptr<Child> child) : child_(std::move(child)) {}
LocalServer::LocalServer(LocalServer&&) noexcept = default;
LocalServer& LocalServer::operator=(LocalServer&&) noexcept = default;
LocalServer::~LocalServer() = default;

std::uint16_t LocalServer::port() const { return child_ ? child_->port : 0; }

std::string LocalServer::fingerprint() const { return child_ ? child_->fingerprint : std::string(); }
pid_t LocalServer::pid() const { return child_ ? child_->pid : -1; }

std::expected<LocalServer, std::string> LocalServer::start(const LocalServerOptions& options) {
    if (options.binary.empty() || !fs::exists(options.binary))
        return std::unexpected("the server program was not found at '" + options.binary.string() + "'");
    if (!is_executable(options.binary))
        return std::unexpected("the server program '" + options.binary.string() + "' is not an executable file");

    const std::string host = options.listen_address.find(':') != std::string::npos
                                 ? "[" + options.listen_address + "]"
                                 : options.listen_address;
    std::vector<std::string> args = {options.binary.string(),
                                     "--listen", host + ":" + std::to_string(options.port),
                                     "--name", options.name,
                                     "--discovery-port", std::to_string(options.discovery_port.value_or(0)),
                                     "--log-level", "info",  // the ready line is logged at info
                                     // A server on this machine for its LAN: names as typed, no
                                     // accounts (a LAN party), as before accounts existed.
                                     "--accounts", options.accounts,
                                     // It ends with this client, however the client ends.
                                     "--parent-pid", std::to_string(::getpid())};
    if (!options.db.empty()) {
        args.push_back("--db");
        args.push_back(options.db.string());
    }
    std::vector<char*> argv;
    if (options.plain) args.push_back("--plain");
    args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);

    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return std::unexpected(std::string("pipe: ") + std::strerror(errno));
    auto child = std::make_unique<Child>();
    child->output = pipe_fds[0];

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
    // Nothing else of ours: the window's sockets and files are not the server's to hold.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    // A clean slate for signals: the server relies on SIGTERM, whatever this process blocks or ignores.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int signal : {SIGTERM, SIGINT, SIGPIPE, SIGCHLD}) sigaddset(&defaults, signal);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(pipe_fds[1]);
    if (spawned != 0)
        return std::unexpected("cannot start '" + options.binary.string() + "': " + std::strerror(spawned));
    child->pid = pid;

    // Read the child's output until the ready line, its exit, or the deadline.
    std::string log;
    const auto deadline = Clock::now() + kStartTimeout;
    for (;;) {
        if (const auto port = ready_port(log)) {
            child->port = *port;
            child->fingerprint = logged_fingerprint(log);
            fs::path log_path;
            if (!options.db.empty()) {
                const fs::path folder = options.db.parent_path();
                log_path = (folder.empty() ? fs::path(".") : folder) / "xiangqi-server.log";
            }
            child->start_drain(std::move(log), std::move(log_path));
            return LocalServer(std::move(child));
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left <= 0ms) {
            child->stop();
            return std::unexpected("the server did not report 'listening on' within 10 s: " + tail(log));
        }
        pollfd ready{child->output, POLLIN, 0};
        const int polled = ::poll(&ready, 1, static_cast<int>(left.count()));
        if (polled < 0 && errno != EINTR) {
            child->stop();
            return std::unexpected(std::string("poll: ") + std::strerror(errno));
        }
        if (polled <= 0) continue;
        char buffer[4096];
        const ssize_t n = ::read(child->output, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {  // its output closed: it has exited (or is about to)
            std::string how = "closed its output";
            if (child->reap(1000ms)) how = describe_status(*child->status);
            child->stop();
            return std::unexpected("the server " + how + ": " + tail(log));
        }
        log.append(buffer, static_cast<std::size_t>(n));
    }
}

std::optional<std::filesystem::path> find_server_binary() {
    if (const char* from_env = std::getenv("XQ_SERVER_BIN"); from_env && *from_env && is_executable(from_env))
        return fs::path(from_env);
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path beside = (self.parent_path() / ".." / "server" / "xiangqi-server").lexically_normal();
        if (is_executable(beside)) return beside;
    }
    if (const char* path = std::getenv("PATH")) {
        std::string_view dirs = path;
        while (!dirs.empty()) {
            const auto colon = dirs.find(':');
            const std::string_view dir = dirs.substr(0, colon);
            if (!dir.empty() && is_executable(fs::path(dir) / "xiangqi-server")) return fs::path(dir) / "xiangqi-server";
            dirs = colon == std::string_view::npos ? std::string_view{} : dirs.substr(colon + 1);
        }
    }
    return std::nullopt;
}

}  // namespace xq::client
