#pragma once
// A child process spoken to line by line over one socket pair (its stdin and stdout). Every read
// waits at most until a deadline; writes never raise SIGPIPE. Not thread-safe: one owner.

#include <sys/types.h>

#include <chrono>
#include <expected>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine_error.h"

namespace xq::engine {

using Clock = std::chrono::steady_clock;

class Process {
public:
    // Spawns `binary` with stderr to /dev/null.
    static std::expected<Process, EngineError> spawn(const std::filesystem::path& binary,
                                                     const std::vector<std::string>& args = {});

    Process(Process&& other) noexcept;
    Process& operator=(Process&& other) noexcept;
    ~Process();  // kill() unless already ended

    // Writes all of `text` (Died if the child is gone, Timeout if it stops reading until deadline).
    std::expected<void, EngineError> write(std::string_view text, Clock::time_point deadline);
    // The next line without its newline ("\r" dropped too). When `interrupt_fd` (optional)
    // becomes readable first, Cancelled (the byte is left for its owner to drain).
    std::expected<std::string, EngineError> read_line(Clock::time_point deadline, int interrupt_fd = -1);

    // Asks the child to end with `quit_command`, waits up to `grace`, then SIGKILLs it; reaps it.
    void stop(std::string_view quit_command, std::chrono::milliseconds grace);
    // SIGKILL and reap (works on a stopped child too). Idempotent.
    void kill();

    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0; }

private:
    Process(pid_t pid, int fd) : pid_(pid), fd_(fd) {}
    void close_fd();

    pid_t pid_ = -1;
    int fd_ = -1;
    std::string buffer_;  // bytes read past the last returned line
};

}  // namespace xq::engine
