#pragma once
// Cluster nodes for the tests of server/node (docs/cluster.md): in-process nodes sharing one real
// PostgreSQL and one real redis-server (node processes that can be SIGKILLed: node_process.h).

#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <memory>
#include <thread>

#include "node_process.h"
#include "server/net/server.h"
#include "support/temp_postgres.h"
#include "support/temp_redis.h"
#include "support/server_fixture.h"
#include "support/test_client.h"

namespace xq::test {

using namespace std::chrono_literals;

inline const proto::TimeControl kClusterBlitz{5, 3, std::nullopt};

// One node: a Server with --postgres and --redis, on a loop thread of its own.
class Node {
public:
    // `web_root`: the node also serves the watch page's WebSocket (issue 23).
    // `accounts`: optional accounts, hashed cheaply, registrations unlimited (rated quick match
    // needs accounts).
    Node(const std::string& id, const std::string& conninfo, const std::string& redis, const std::filesystem::path& dir,
         std::optional<std::filesystem::path> web_root = std::nullopt, bool accounts = false) {
        server::ServerConfig config;
        config.listen = server::tcp::endpoint(server::asio::ip::make_address("127.0.0.1"), 0);
        config.db = dir / (id + ".db");  // unused with postgres: where a certificate would go
        config.postgres = conninfo;
        config.name = id;
        config.accounts = accounts ? proto::AccountsMode::Optional : proto::AccountsMode::Off;
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
    // Whether the node holds its lease now (false too when its loop no longer runs: a node that
    // stopped must fail the test, not hang it).
    bool holds_lease() {
        auto read = std::make_shared<std::promise<bool>>();
        server::asio::post(io_, [this, read] { read->set_value(server_->cluster_node()->holds_lease()); });
        auto answer = read->get_future();
        return answer.wait_for(10s) == std::future_status::ready && answer.get();
    }
    // Waits (up to 20 s) until the node holds its lease: its Redis connection is up, so a seek
    // is not answered TRY_LATER. The node itself, for chaining.
    Node& ready() {
        for (const auto end = std::chrono::steady_clock::now() + 20s; std::chrono::steady_clock::now() < end;
             std::this_thread::sleep_for(20ms))
            if (holds_lease()) return *this;
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
    static bool listed(test::TestClient& c, proto::GameId game, bool live) {
        const auto end = std::chrono::steady_clock::now() + 20s;
        while (std::chrono::steady_clock::now() < end) {
            const auto list = as<proto::GameList>(c.call(proto::ListGames{}));
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

// Resume until the seat is back: while the game's owner is dead and not yet replaced, the
// request waits on the node (or is answered TRY_LATER after a long wait).
inline std::unique_ptr<test::TestClient> resume(std::uint16_t port, const std::string& name, proto::GameId game, const std::string& token) {
    const auto end = std::chrono::steady_clock::now() + 40s;
    while (std::chrono::steady_clock::now() < end) {
        try {
            auto c = std::make_unique<test::TestClient>(port, 30s);
            c->hello(name);
            const auto reply = c->call(proto::Resume{game, token, 0});
            if (!std::holds_alternative<proto::Error>(reply.body)) return c;
            EXPECT_EQ(error_of(reply), proto::ErrorCode::TryLater) << std::get<proto::Error>(reply.body).message;
        } catch (const std::exception&) {
            // Sent to the dead owner before the node knew: the node closes such sessions when it
            // finds the owner dead, and the client connects again, as a real one does.
        }
        std::this_thread::sleep_for(500ms);
    }
    return nullptr;
}

}  // namespace xq::test
