// The computer opponents of a cluster are kept once (issue 20, docs/cluster.md): three node
// processes, all started with --bots, on a real PostgreSQL and a real redis-server. Only the
// holder of `xq:lease:bots` runs its bots, so each bot's open game is listed once in the shared
// lobby, on every node; the holder SIGKILLed, its bots end with it and another node takes the
// lease once it expires and starts them again: listed once, as new games. The lease taken away
// from its holder (deleted in Redis), the holder stands its bots down and they come back once.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "node_process.h"
#include "support/server_fixture.h"
#include "support/temp_postgres.h"
#include "support/temp_redis.h"
#include "support/test_client.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::as;

// The bots' open games as `c`'s node lists them: game ids by host ("bot level N").
std::map<std::string, std::set<GameId>> bot_games(test::TestClient& c) {
    std::map<std::string, std::set<GameId>> games;
    for (const auto& g : as<GameList>(c.call(ListGames{})).open)
        if (g.host.starts_with("bot level ")) games[g.host].insert(g.game_id);
    return games;
}

// The node id holding the bots' lease ("node|token" in Redis), "" when nobody does.
std::string bots_holder(const test::TempRedis& redis) {
    const std::string reply = redis.raw_command("*2\r\n$3\r\nGET\r\n$13\r\nxq:lease:bots\r\n");
    if (!reply.starts_with("$") || reply.starts_with("$-1")) return {};
    const auto body = reply.find("\r\n") + 2;
    return reply.substr(body, reply.find('|', body) - body);
}

// Running xiangqi-bot processes told to use port `port` (their command lines, from /proc).
std::size_t bot_processes_of(std::uint16_t port) {
    const std::string server = std::string("--server") + '\0' + "127.0.0.1:" + std::to_string(port) + '\0';
    std::size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        const std::string cmdline((std::istreambuf_iterator<char>(in)), {});
        if (cmdline.find("xiangqi-bot") != std::string::npos && cmdline.find(server) != std::string::npos) ++count;
    }
    return count;
}

// The game ids of `games`.
std::set<GameId> ids_of(const std::map<std::string, GameId>& games) {
    std::set<GameId> ids;
    for (const auto& [host, id] : games) ids.insert(id);
    return ids;
}

class ClusterBotsTest : public ::testing::Test {
protected:
    ClusterBotsTest() {
        dir_ = std::filesystem::temp_directory_path() / ("xq-cluster-bots-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
    }
    ~ClusterBotsTest() override {
        nodes_.clear();
        std::filesystem::remove_all(dir_);
    }
    test::NodeProcess& start(const std::string& id) {
        // Two bots, levels 2 and 5: "bot level 2" and "bot level 5" in the lobby.
        return *nodes_.emplace_back(std::make_unique<test::NodeProcess>(
            id, conninfo_, redis_.unix_address(), dir_, std::vector<std::string>{"--bots", "2", "--bot-levels", "2,5"}));
    }
    // Polls `c` until every bot is listed with exactly one game that is not in `old` (20 s), every
    // poll checking that no bot ever has two new games listed; the games found, or nullopt.
    static std::optional<std::map<std::string, GameId>> once_each(test::TestClient& c, const std::set<GameId>& old) {
        const auto end = std::chrono::steady_clock::now() + 20s;
        while (std::chrono::steady_clock::now() < end) {
            std::map<std::string, GameId> fresh;
            for (const auto& [host, ids] : bot_games(c)) {
                std::set<GameId> news;
                for (auto id : ids)
                    if (!old.contains(id)) news.insert(id);
                EXPECT_LE(news.size(), 1u) << host << " is in the lobby more than once";
                if (news.size() == 1) fresh[host] = *news.begin();
            }
            if (fresh.size() == 2) return fresh;
            std::this_thread::sleep_for(100ms);
        }
        return std::nullopt;
    }
    // For `span` (more than a lease's TTL: time for a wrongly elected second keeper to show), each
    // bot is listed on `c` with exactly the games in `games`.
    static void stays(test::TestClient& c, const std::map<std::string, GameId>& games, std::chrono::milliseconds span) {
        const auto end = std::chrono::steady_clock::now() + span;
        while (std::chrono::steady_clock::now() < end) {
            for (const auto& [host, ids] : bot_games(c)) {
                ASSERT_TRUE(games.contains(host)) << "an unexpected bot " << host;
                ASSERT_EQ(ids, std::set<GameId>{games.at(host)}) << host << " is listed " << ids.size() << " times";
            }
            std::this_thread::sleep_for(200ms);
        }
    }

    test::TempRedis redis_;
    test::TempPostgres& pg_ = test::TempPostgres::shared();
    std::string conninfo_ = pg_.fresh_schema();
    std::filesystem::path dir_;
    std::vector<std::unique_ptr<test::NodeProcess>> nodes_;
};

TEST_F(ClusterBotsTest, TheBotsAreKeptByOneNodeAndComeBackOnceWhenItIsKilled) {
    const std::vector<std::string> ids = {"node-a", "node-b", "node-c"};
    for (const auto& id : ids) start(id);
    std::vector<std::unique_ptr<test::TestClient>> lookers;
    for (auto& node : nodes_) {
        lookers.push_back(std::make_unique<test::TestClient>(node->port(), 20s));
        lookers.back()->hello("looker");
    }

    // Every node lists each bot once: the holder's, whichever node that is.
    const auto first = once_each(*lookers[0], {});
    ASSERT_TRUE(first) << "the bots never showed up once each in the lobby";
    for (auto& looker : lookers) ASSERT_EQ(once_each(*looker, {}), first);
    stays(*lookers[1], *first, 4s);
    const std::string holder = bots_holder(redis_);
    ASSERT_FALSE(holder.empty()) << "nobody holds xq:lease:bots";

    // The holder dies without a goodbye: its bots end with it (--parent-pid), its lease expires
    // (3 s) and a survivor starts the bots.
    std::size_t dead = 0;
    while (ids[dead] != holder) ++dead;
    EXPECT_EQ(bot_processes_of(nodes_[dead]->port()), 2u);
    nodes_[dead]->kill();
    const std::size_t survivor = (dead + 1) % ids.size();
    const auto second = once_each(*lookers[survivor], ids_of(*first));
    ASSERT_TRUE(second) << "the bots did not come back once each after their node was killed";
    const std::string successor = bots_holder(redis_);
    EXPECT_NE(successor, holder);
    EXPECT_FALSE(successor.empty());
    // Once the dead node's entries are forgotten, its bots' old games are gone from every survivor.
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i == dead) continue;
        const auto end = std::chrono::steady_clock::now() + 20s;
        std::map<std::string, std::set<GameId>> listed;
        while (std::chrono::steady_clock::now() < end) {
            listed = bot_games(*lookers[i]);
            if (listed.size() == 2 && listed["bot level 2"].size() == 1 && listed["bot level 5"].size() == 1) break;
            std::this_thread::sleep_for(100ms);
        }
        EXPECT_EQ(listed["bot level 2"], std::set<GameId>{second->at("bot level 2")}) << "on " << ids[i];
        EXPECT_EQ(listed["bot level 5"], std::set<GameId>{second->at("bot level 5")}) << "on " << ids[i];
    }
    stays(*lookers[survivor], *second, 4s);
    for (int i = 0; i < 200 && bot_processes_of(nodes_[dead]->port()) > 0; ++i) std::this_thread::sleep_for(100ms);
    EXPECT_EQ(bot_processes_of(nodes_[dead]->port()), 0u) << "the killed node's bots outlived it";

    // The lease taken from its holder (here: deleted, as a Redis restart would): the holder stands
    // its bots down at its next renewal and stands again; whoever takes the lease starts them, and
    // each bot is listed once again, with a new game.
    std::set<GameId> before = ids_of(*first);
    before.merge(ids_of(*second));
    redis_.raw_command("*2\r\n$3\r\nDEL\r\n$13\r\nxq:lease:bots\r\n");
    std::map<std::string, std::set<GameId>> listed;
    const auto end = std::chrono::steady_clock::now() + 20s;
    auto settled = [&] {
        if (listed.size() != 2) return false;
        for (const auto& [host, games] : listed)
            if (games.size() != 1 || before.contains(*games.begin())) return false;
        return true;
    };
    while (std::chrono::steady_clock::now() < end && !(listed = bot_games(*lookers[survivor]), settled()))
        std::this_thread::sleep_for(100ms);
    EXPECT_TRUE(settled()) << "the bots were not listed once each, anew, after their lease was taken away";
    EXPECT_FALSE(bots_holder(redis_).empty());
}

}  // namespace
}  // namespace xq
