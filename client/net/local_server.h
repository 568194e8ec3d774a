#pragma once
// A xiangqi-server child process on this machine: the client's --host mode, and tests against the
// real binary. The child is stopped (SIGTERM, then SIGKILL) when the LocalServer goes away.

#include <sys/types.h>

#include <cstdint>
#include <expected>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace xq::client {

struct LocalServerOptions {
    std::filesystem::path binary;
    std::string listen_address = "127.0.0.1";
    std::uint16_t port = 0;  // 0: ephemeral
    std::filesystem::path db;  // empty: the server's default archive
    std::string name = "xiangqi";
    std::optional<std::uint16_t> discovery_port;  // none: --discovery-port 0 (no LAN discovery)
    std::vector<std::string> extra_args;          // more server options, e.g. {"--bots", "2"}
    bool plain = false;                           // --plain: no TLS
    std::string accounts = "off";                 // --accounts: off for a LAN party; tests of rated play use optional
};

class LocalServer {
public:
    // Spawns the binary and reads its stderr until it logs "listening on ADDR:PORT" (10 s at
    // most). The error says why it failed: binary missing, the child exited (with its stderr), or
    // no such line in time. After start, the child's output goes on to <db folder>/xiangqi-server.log
    // (discarded when there is no db path).
    static std::expected<LocalServer, std::string> start(const LocalServerOptions& options);

    LocalServer(LocalServer&&) noexcept;
    LocalServer& operator=(LocalServer&&) noexcept;
    ~LocalServer();  // SIGTERM, up to 2 s to exit, then SIGKILL; reaps the child

    std::uint16_t port() const;  // the port it actually listens on
    // Its TLS certificate's fingerprint (hex SHA-256), from its log: the client trusts its own
    // server without a question. Empty when it serves plain TCP.
    std::string fingerprint() const;
    pid_t pid() const;

private:
    struct Child;
    explicit LocalServer(std::unique_ptr<Child> child);
    std::unique_ptr<Child> child_;
};

// The server binary: $XQ_SERVER_BIN if set, else ../server/xiangqi-server beside the running
// executable's folder (/proc/self/exe), else "xiangqi-server" on PATH; nullopt if none exists.
std::optional<std::filesystem::path> find_server_binary();

}  // namespace xq::client
