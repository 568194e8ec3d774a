#pragma once
// A throw-away redis-server for tests: no persistence (--save '' --appendonly no), a Unix socket
// in a short temporary directory (Redis cannot take port 0) and a TCP port on 127.0.0.1 found by
// binding port 0. It is the test's own child, started through `setpriv --pdeathsig TERM` so it
// dies with a test that is killed, and reaped with waitpid. stop()/kill()/pause() and restart()
// on the same addresses make the failure tests. Directories of killed tests are removed by the
// next one.

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace xq::test {

class TempRedis {
public:
    // Starts the server and waits (up to 20 s) until it answers PING; throws if it cannot.
    TempRedis();
    ~TempRedis();
    TempRedis(const TempRedis&) = delete;
    TempRedis& operator=(const TempRedis&) = delete;

    // Addresses in the form of the node's --redis flag (server/cluster/redis_address.h).
    std::string unix_address() const { return "unix:" + socket_.string(); }
    std::string tcp_address() const { return "127.0.0.1:" + std::to_string(port_); }
    const std::filesystem::path& socket_path() const { return socket_; }
    std::uint16_t port() const { return port_; }
    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0; }

    void stop();     // SIGTERM, and wait until it has exited
    void kill();     // SIGKILL (a crash), and reap it
    void pause();    // SIGSTOP: connections stay open and nothing answers
    void resume();   // SIGCONT
    void restart();  // stop() if running, then start again on the same socket and port, empty

    // One command through a fresh blocking connection (the test's view, not the client under
    // test's): the raw RESP2 reply bytes. Throws on a connection failure.
    std::string raw_command(const std::string& resp) const;

private:
    void start();
    void wait_ready();

    std::filesystem::path dir_;
    std::filesystem::path socket_;
    std::uint16_t port_ = 0;
    pid_t pid_ = -1;
};

}  // namespace xq::test
