#pragma once
// The cluster tests' nodes (issue 20, docs/cluster.md): a Node is a Server with --postgres and
// --redis on a loop thread of its own in the test process, a NodeProcess a xiangqi-server process
// that can be killed as processes die; ClusterNodeTest gives each test one real redis-server and a
// fresh schema on the shared real PostgreSQL.

#include <gtest/gtest.h>

#include <fcntl.h>
#include <filesystem>
#include <future>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>

#include "server/net/server.h"
#include "support/server_fixture.h"
#include "support/temp_postgres.h"
#include "support/temp_redis.h"
#include "support/test_client.h"

extern char** environ;

namespace xq::node_test {

using namespace proto;
using namespace std::chrono_literals;
using test::as;
using test::error_of;

// One node: a Server with --postgres and --redis, on a loop thread of its own.
class Node {
public:
    // `web_root`: the node also serves the watch page's WebSocket (issue 23). `accounts`: optional
    // accounts, hashed cheaply, registrations unlimited (rated quick match needs accounts).
    Node(const std::string& id, const std::string& conninfo, const std::string& redis, const std::filesystem::path& dir,
         std::optional<std::filesystem::path> web_root = std::nullopt, bool accounts = false) {
        server::ServerConfig config;
        config.listen = server::tcp::endpoint(server::asio::ip::make_address("127.0.0.1"), 0);
        config.db = dir / (id + ".db");  // unused with postgres: where a certificate would go
        config.postgres = conninfo;
        config.name = id;
        config.accounts = accounts ? AccountsMode::Optional : AccountsMode::Off;
        config.password_cost = server::minimal_cost();
        config.registrations_per_hour = 1000;
        server::node::NodeOptions node;
        node.redis = *cluster::parse_redis_address(redis);
        node.id = id;
        config.cluster = node;
        config.web_root = web_root;
        server_ = std::make_unique<server::Server>(io_, config);
        server_->start();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~Node() {
        server::asio::post(io_, [this] {
            server_->stop();
            io_.stop();
        });
        thread_.join();
        server_.reset();
    }
    std::uint16_t port() const { return server_->port(); }
    // `read` of the cluster node, run on the node's loop thread.
    template <class Read>
    auto on_loop(Read read) {
        std::promise<decltype(read(*server_->cluster_node()))> result;
        server::asio::post(io_, [&] { result.set_value(read(*server_->cluster_node())); });
        return result.get_future().get();
    }
    // The node's counters, read on its loop thread.
    server::node::NodeStats stats() {
        return on_loop([](const server::node::ClusterNode& node) { return node.stats(); });
    }
    bool is_matcher() {
        return on_loop([](const server::node::ClusterNode& node) { return node.is_matcher(); });
    }
    // Waits (up to 20 s) until the node holds its lease: its Redis connection is up, so a seek
    // is not answered TRY_LATER. The node itself, for chaining.
    Node& ready() {
        for (const auto end = std::chrono::steady_clock::now() + 20s; std::chrono::steady_clock::now() < end;
             std::this_thread::sleep_for(20ms))
            if (on_loop([](const server::node::ClusterNode& node) { return node.holds_lease(); })) return *this;
        ADD_FAILURE() << "a node never took its lease";
        return *this;
    }
    std::unique_ptr<test::TestClient> client(const std::string& name) {
        auto c = std::make_unique<test::TestClient>(port(), 20s);
        c->hello(name);
        return c;
    }

private:
    server::asio::io_context io_{1};
    std::unique_ptr<server::Server> server_;
    std::thread thread_;
};

class ClusterNodeTest : public ::testing::Test {
protected:
    ClusterNodeTest() {
        dir_ = std::filesystem::temp_directory_path() / ("xq-cluster-node-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
    }
    ~ClusterNodeTest() override {
        nodes_.clear();
        std::filesystem::remove_all(dir_);
    }
    Node& start(const std::string& id, std::optional<std::filesystem::path> web_root = std::nullopt, bool accounts = false) {
        return *nodes_.emplace_back(std::make_unique<Node>(id, conninfo_, redis_.unix_address(), dir_, web_root, accounts));
    }
    // Polls ListGames on `c` until `game` is listed (in `open` or `live` as asked).
    static bool listed(test::TestClient& c, GameId game, bool live) {
        const auto end = std::chrono::steady_clock::now() + 20s;
        while (std::chrono::steady_clock::now() < end) {
            const auto list = as<GameList>(c.call(ListGames{}));
            for (const auto& g : live ? list.live : list.open)
                if (g.game_id == game) return true;
            std::this_thread::sleep_for(50ms);
        }
        return false;
    }

    test::TempRedis redis_;
    test::TempPostgres& pg_ = test::TempPostgres::shared();
    std::string conninfo_ = pg_.fresh_schema();
    std::filesystem::path dir_;
    std::vector<std::unique_ptr<Node>> nodes_;
};

// A node as its own xiangqi-server process, so that it can die as processes do (SIGKILL: no
// goodbye, its lease left to expire). It dies with the test too (--parent-pid).
class NodeProcess {
public:
    NodeProcess(const std::string& id, const std::string& conninfo, const std::string& redis, const std::filesystem::path& dir) {
        port_ = free_port();
        const std::string log = (dir / (id + ".log")).string();
        std::vector<std::string> args = {XQ_SERVER_BIN_PATH, "--plain", "--listen", "127.0.0.1:" + std::to_string(port_),
                                         "--postgres", conninfo, "--redis", redis, "--node-id", id, "--discovery-port", "0",
                                         "--accounts", "off", "--parent-pid", std::to_string(::getpid()), "--log-level", "info"};
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
                test::TestClient probe(port_, 2s);
                probe.hello("probe");
                return;
            } catch (const std::exception&) {
                std::this_thread::sleep_for(100ms);
            }
        }
        ADD_FAILURE() << "node " << id << " did not start; see " << log;
    }
    ~NodeProcess() { kill(); }
    void kill() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }
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

}  // namespace xq::node_test
