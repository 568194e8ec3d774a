#pragma once
// A node as its own xiangqi-server process, so that it can die as processes do (SIGKILL: no
// goodbye, its lease left to expire). It dies with the test too (--parent-pid). The test target
// defines XQ_SERVER_BIN_PATH.

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "server/net/asio.h"
#include "support/test_client.h"

extern char** environ;

namespace xq::test {

class NodeProcess {
public:
    // `extra`: more options for the node (--bots 2, say).
    NodeProcess(const std::string& id, const std::string& conninfo, const std::string& redis, const std::filesystem::path& dir,
                const std::vector<std::string>& extra = {}) {
        using namespace std::chrono_literals;
        port_ = free_port();
        const std::string log = (dir / (id + ".log")).string();
        std::vector<std::string> args = {XQ_SERVER_BIN_PATH, "--plain", "--listen", "127.0.0.1:" + std::to_string(port_),
                                         "--postgres", conninfo, "--redis", redis, "--node-id", id, "--discovery-port", "0",
                                         "--accounts", "off", "--parent-pid", std::to_string(::getpid()), "--log-level", "info"};
        args.insert(args.end(), extra.begin(), extra.end());
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t files;
        ::posix_spawn_file_actions_init(&files);
        ::posix_spawn_file_actions_addopen(&files, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        EXPECT_EQ(::posix_spawn(&pid_, XQ_SERVER_BIN_PATH, &files, nullptr, argv.data(), environ), 0);
        ::posix_spawn_file_actions_destroy(&files);
        // Ready when it accepts a connection and answers Hello.
        const auto end = std::chrono::steady_clock::now() + 20s;
        while (std::chrono::steady_clock::now() < end) {
            try {
                TestClient probe(port_, 2s);
                probe.hello("probe");
                return;
            } catch (const std::exception&) {
                std::this_thread::sleep_for(100ms);
            }
        }
        ADD_FAILURE() << "node " << id << " did not start; see " << log;
    }
    ~NodeProcess() { kill(); }
    NodeProcess(const NodeProcess&) = delete;
    NodeProcess& operator=(const NodeProcess&) = delete;
    void kill() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }
    bool running() const { return pid_ > 0; }
    std::uint16_t port() const { return port_; }

private:
    static std::uint16_t free_port() {
        server::asio::io_context io;
        server::tcp::acceptor probe(io, server::tcp::endpoint(server::asio::ip::make_address("127.0.0.1"), 0));
        return probe.local_endpoint().port();
    }
    std::uint16_t port_ = 0;
    pid_t pid_ = -1;
};

}  // namespace xq::test
