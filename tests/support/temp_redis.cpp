#include "support/temp_redis.h"

#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <random>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

namespace xq::test {
namespace {

// A TCP port on 127.0.0.1 that is free now, below the ephemeral range (32768-60999 here): a port
// found by binding port 0 lies inside it, and a client socket of a parallel test can take it
// before redis-server binds it. Another process may still bind it first; start() then retries.
std::uint16_t free_port() {
    static std::mt19937 random(std::random_device{}());
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const auto port = static_cast<std::uint16_t>(std::uniform_int_distribution<int>(20000, 32000)(random));
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) break;
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(port);
        const bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
        ::close(fd);
        if (free) return port;
    }
    throw std::runtime_error("cannot find a free port");
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int connect_unix(const std::filesystem::path& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return fd;
    if (fd >= 0) ::close(fd);
    return -1;
}

// Sends `request` and reads until the reply is complete by `complete` (or the peer closes).
std::string exchange(int fd, const std::string& request) {
    timeval tv{20, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) return {};
    std::string reply;
    char buffer[4096];
    // The test's commands have one-line replies or bulk strings: read until a line end and, for
    // a bulk string, its body.
    for (;;) {
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0) return reply;
        reply.append(buffer, static_cast<std::size_t>(n));
        const auto eol = reply.find("\r\n");
        if (eol == std::string::npos) continue;
        if (reply[0] != '$') return reply;
        const long body = std::strtol(reply.c_str() + 1, nullptr, 10);
        if (body < 0 || reply.size() >= eol + 2 + static_cast<std::size_t>(body) + 2) return reply;
    }
}

// Directories left by tests that were killed (their destructor never ran; their redis-server
// died with them): no server answers on the socket and nothing changed there for ten minutes.
// A directory a test is creating right now is younger than that.
void remove_stale_dirs() {
    std::error_code ec;
    const auto now = std::filesystem::file_time_type::clock::now();
    for (const auto& entry : std::filesystem::directory_iterator("/tmp", ec)) {
        if (!entry.path().filename().string().starts_with("xq-redis-") || !entry.is_directory(ec)) continue;
        const auto changed = std::filesystem::last_write_time(entry.path(), ec);
        if (ec || now - changed < std::chrono::minutes(10)) continue;
        const int fd = connect_unix(entry.path() / "r.sock");
        if (fd >= 0) {
            ::close(fd);
            continue;
        }
        std::filesystem::remove_all(entry.path(), ec);
    }
}

}  // namespace

TempRedis::TempRedis() {
    remove_stale_dirs();
    // Short: a Unix socket path holds at most 107 bytes.
    char pattern[] = "/tmp/xq-redis-XXXXXX";
    if (!::mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    socket_ = dir_ / "r.sock";
    try {
        // A port taken between free_port() and redis-server's bind makes it exit: another port.
        for (int attempt = 1;; ++attempt) {
            port_ = free_port();
            try {
                start();
                break;
            } catch (const std::runtime_error&) {
                if (pid_ > 0 || attempt == 5) throw;
            }
        }
    } catch (...) {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
        throw;
    }
}

TempRedis::~TempRedis() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);  // a paused (SIGSTOPped) server dies of it too
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

void TempRedis::start() {
    const std::string port = std::to_string(port_);
    const std::string log = (dir_ / "redis.log").string();
    std::vector<std::string> args = {"setpriv", "--pdeathsig", "TERM", "--", "redis-server",
                                     "--port", port, "--bind", "127.0.0.1", "--unixsocket", socket_.string(),
                                     "--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--dir", dir_.string(),
                                     "--daemonize", "no", "--logfile", log};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(nullptr);  // else the child would write the parent's buffered output again
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
        ::execvp("setpriv", argv.data());
        std::_Exit(127);
    }
    wait_ready();
}

void TempRedis::wait_ready() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            throw std::runtime_error("redis-server exited at start (is it installed?): " + read_file(dir_ / "redis.log"));
        }
        const int fd = connect_unix(socket_);
        if (fd >= 0) {
            const std::string reply = exchange(fd, "*1\r\n$4\r\nPING\r\n");
            ::close(fd);
            if (reply == "+PONG\r\n") return;
        }
        if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("redis-server did not answer PING within 20 s");
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

void TempRedis::stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGCONT);
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
}

void TempRedis::kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
}

void TempRedis::pause() {
    if (pid_ > 0) ::kill(pid_, SIGSTOP);
}

void TempRedis::resume() {
    if (pid_ > 0) ::kill(pid_, SIGCONT);
}

void TempRedis::restart() {
    stop();
    start();
}

std::string TempRedis::raw_command(const std::string& resp) const {
    const int fd = connect_unix(socket_);
    if (fd < 0) throw std::runtime_error("cannot connect to " + socket_.string());
    std::string reply = exchange(fd, resp);
    ::close(fd);
    return reply;
}

}  // namespace xq::test
