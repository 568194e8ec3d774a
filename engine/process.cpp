#include "engine/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

extern char** environ;

namespace xq::engine {
namespace {

EngineError error(EngineErrorCode code, std::string message) { return EngineError{code, std::move(message)}; }

// Milliseconds left until the deadline, for poll(); 0 once it has passed.
int millis_until(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return 0;
    return left > 1'000'000 ? 1'000'000 : static_cast<int>(left);
}

}  // namespace

std::expected<Process, EngineError> Process::spawn(const std::filesystem::path& binary,
                                                   const std::vector<std::string>& args) {
    int fds[2];
    // CLOEXEC on both ends: the child gets its end only through the dup2 below, and no other
    // child spawned meanwhile (another engine, a server) inherits either end.
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return std::unexpected(error(EngineErrorCode::SpawnFailed, std::string("socketpair: ") + std::strerror(errno)));

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);  // the engine gets its pipe and nothing else

    std::string path = binary.string();
    std::vector<std::string> storage{path};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : storage) argv.push_back(a.data());
    argv.push_back(nullptr);

    pid_t pid = -1;
    const int rc = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        return std::unexpected(error(EngineErrorCode::SpawnFailed, "cannot start " + path + ": " + std::strerror(rc)));
    }
    return Process(pid, fds[0]);
}

Process::Process(Process&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), fd_(std::exchange(other.fd_, -1)), buffer_(std::move(other.buffer_)) {}

Process& Process::operator=(Process&& other) noexcept {
    if (this != &other) {
        kill();
        pid_ = std::exchange(other.pid_, -1);
        fd_ = std::exchange(other.fd_, -1);
        buffer_ = std::move(other.buffer_);
    }
    return *this;
}

Process::~Process() { kill(); }

void Process::close_fd() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    buffer_.clear();
}

std::expected<void, EngineError> Process::write(std::string_view text, Clock::time_point deadline) {
    if (fd_ < 0) return std::unexpected(error(EngineErrorCode::Died, "the engine is not running"));
    while (!text.empty()) {
        pollfd p{fd_, POLLOUT, 0};
        const int ready = ::poll(&p, 1, millis_until(deadline));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) return std::unexpected(error(EngineErrorCode::Timeout, "the engine stopped reading its input"));
        const ssize_t n = ::send(fd_, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return std::unexpected(error(EngineErrorCode::Died, std::string("the engine's input is closed: ") + std::strerror(errno)));
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return {};
}

std::expected<std::string, EngineError> Process::read_line(Clock::time_point deadline, int interrupt_fd) {
    if (fd_ < 0) return std::unexpected(error(EngineErrorCode::Died, "the engine is not running"));
    for (;;) {
        if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        // A line longer than any UCI line we expect is garbage, not something to buffer forever.
        if (buffer_.size() > 1 << 20) return std::unexpected(error(EngineErrorCode::Protocol, "an endless line from the engine"));
        pollfd p[2] = {{fd_, POLLIN, 0}, {interrupt_fd, POLLIN, 0}};
        const int ready = ::poll(p, interrupt_fd >= 0 ? 2 : 1, millis_until(deadline));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) return std::unexpected(error(EngineErrorCode::Timeout, "no answer from the engine in time"));
        if (interrupt_fd >= 0 && (p[1].revents & POLLIN))
            return std::unexpected(error(EngineErrorCode::Cancelled, "the search was cancelled"));
        char chunk[4096];
        const ssize_t n = ::recv(fd_, chunk, sizeof chunk, MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return std::unexpected(error(EngineErrorCode::Died, "the engine closed its output (it exited)"));
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

void Process::stop(std::string_view quit_command, std::chrono::milliseconds grace) {
    if (pid_ <= 0) return;
    if (fd_ >= 0) (void)::send(fd_, quit_command.data(), quit_command.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    const auto until = Clock::now() + grace;
    while (Clock::now() < until) {
        if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
            pid_ = -1;
            close_fd();
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill();
}

void Process::kill() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
        }
        pid_ = -1;
    }
    close_fd();
}

}  // namespace xq::engine
