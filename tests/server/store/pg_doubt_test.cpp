// PostgreSQL: a COMMIT whose answer never comes. A proxy between the store and the server cuts
// the connection at the turn's COMMIT, either after the server answered it (the turn is stored,
// its moves were refused) or before passing it on (nothing stored). The store refuses the turn
// (Io), and on reconnect settles it: a stored turn is undone, so the database holds what the
// rooms hold; and the same records then commit as a new turn. Also: a database that is gone makes
// every commit fail at once, and the store comes back by itself when it returns.

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "server/store/postgres/pg_store.h"
#include "support/temp_dir.h"
#include "support/temp_postgres.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

// A Unix-socket proxy in front of the test postgres. Armed, it cuts the first connection that
// sends a COMMIT: kAfterAnswer passes the COMMIT on and swallows the server's answer; kBefore
// never passes it on.
class CuttingProxy {
public:
    enum class Cut { kNone, kAfterAnswer, kBefore };

    CuttingProxy(std::string upstream) : upstream_(std::move(upstream)) {
        listener_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
        const sockaddr_un addr = address(dir_.path().string() + "/.s.PGSQL.5432");
        if (::bind(listener_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listener_, 8) != 0)
            throw std::runtime_error("proxy: bind/listen failed");
        thread_ = std::thread([this] { accept_loop(); });
    }
    ~CuttingProxy() {
        stopping_ = true;
        ::shutdown(listener_, SHUT_RDWR);
        thread_.join();
        for (std::thread& t : pumps_) t.join();
        ::close(listener_);
    }
    std::string host() const { return dir_.path().string(); }
    void arm(Cut cut) { cut_ = cut; }
    bool cut_done() const { return cut_ == Cut::kNone; }

private:
    static sockaddr_un address(const std::string& path) {
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
        return addr;
    }
    void accept_loop() {
        while (!stopping_) {
            const int client = ::accept(listener_, nullptr, nullptr);
            if (client < 0) return;
            const int server = ::socket(AF_UNIX, SOCK_STREAM, 0);
            const sockaddr_un addr = address(upstream_);
            if (::connect(server, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
                ::close(client);
                ::close(server);
                continue;
            }
            pumps_.emplace_back([this, client, server] { pump(client, server); });
        }
    }
    void pump(int client, int server) {
        static const std::string kCommit("COMMIT\0", 7);
        bool swallow_answer = false;
        char buffer[65536];
        while (!stopping_) {
            pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
            if (::poll(fds, 2, 100) <= 0) continue;
            if (fds[0].revents) {
                const ssize_t n = ::read(client, buffer, sizeof buffer);
                if (n <= 0) break;
                const std::string chunk(buffer, static_cast<std::size_t>(n));
                if (cut_ != Cut::kNone && chunk.find(kCommit) != std::string::npos) {
                    if (cut_ == Cut::kBefore) {
                        cut_ = Cut::kNone;
                        break;
                    }
                    swallow_answer = true;
                }
                if (::write(server, buffer, static_cast<std::size_t>(n)) != n) break;
            }
            if (fds[1].revents) {
                const ssize_t n = ::read(server, buffer, sizeof buffer);
                if (n <= 0) break;
                if (swallow_answer) {  // the COMMIT's answer: it committed, and the client never hears it
                    cut_ = Cut::kNone;
                    break;
                }
                if (::write(client, buffer, static_cast<std::size_t>(n)) != n) break;
            }
        }
        ::close(client);
        ::close(server);
    }

    test::TempDir dir_{"xqpx"};
    std::string upstream_;
    int listener_ = -1;
    std::atomic<bool> stopping_ = false;
    std::atomic<Cut> cut_ = Cut::kNone;
    std::thread thread_;
    std::vector<std::thread> pumps_;
};

LiveGameRecord live(std::string id, std::int64_t created_at) {
    return LiveGameRecord{std::move(id), "alice", "bob", "t-red", "t-black", {300, 5, 0},
                          "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", created_at};
}
JournalRecord start(std::string id, std::int64_t created_at) { return JournalStart{live(std::move(id), created_at), "", 1}; }
JournalRecord move(const std::string& game, int ply, std::string iccs) {
    return JournalAppend{{game, ply, std::move(iccs), ply, 1000, 1000, 1'700'000'000'000 + ply},
                         static_cast<std::uint64_t>(ply + 1)};
}

// What the database holds: game id -> its moves, read on a connection of its own.
std::vector<std::pair<std::string, std::vector<std::string>>> stored(const std::string& conninfo) {
    auto store = PgStore::open(conninfo);
    EXPECT_TRUE(store) << store.error().message;
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    if (!store) return out;
    auto games = (*store)->load_recoverable_games();
    EXPECT_TRUE(games) << games.error().message;
    if (games)
        for (const RecoverableGame& g : *games) {
            out.emplace_back(g.game.record.id, std::vector<std::string>{});
            for (const JournalMove& m : g.game.moves) out.back().second.push_back(m.iccs);
        }
    return out;
}

// Calls maintain() until the store has reconnected and settled (the backoff is at most 2 s).
bool reconnect(PgStore& store) {
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < deadline) {
        (void)store.maintain();
        if (store.connected() && !store.turn_in_doubt()) return true;
        std::this_thread::sleep_for(20ms);  // the pace of retries, as the server's turns would be
    }
    return false;
}

using Games = std::vector<std::pair<std::string, std::vector<std::string>>>;

class PgDoubtTest : public ::testing::Test {
protected:
    test::TempPostgres& pg_ = test::TempPostgres::shared();
    std::string direct_ = pg_.fresh_schema();
    CuttingProxy proxy_{pg_.dir() + "/.s.PGSQL.5432"};
    std::string proxied_ = "host=" + proxy_.host() + direct_.substr(direct_.find(' '));
};

TEST_F(PgDoubtTest, ACommitThatLandedWithoutAnAnswerIsUndoneOnReconnect) {
    auto store = PgStore::open(proxied_);
    ASSERT_TRUE(store) << store.error().message;
    const std::vector<JournalRecord> first{start("g", 1), move("g", 1, "h2e2")};
    ASSERT_TRUE((*store)->commit_journal(first));

    proxy_.arm(CuttingProxy::Cut::kAfterAnswer);
    const std::vector<JournalRecord> second{move("g", 2, "h9g7"), start("h", 2), move("h", 1, "b2e2")};
    auto refused = (*store)->commit_journal(second);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, StoreErrorCode::Io) << refused.error().message;
    EXPECT_TRUE(proxy_.cut_done());
    EXPECT_TRUE((*store)->turn_in_doubt());
    // It did land: the database holds moves nobody was told of.
    EXPECT_EQ(stored(direct_), (Games{{"g", {"h2e2", "h9g7"}}, {"h", {"b2e2"}}}));
    // Meanwhile recovery answers with what was acknowledged.
    auto mirrored = (*store)->load_recoverable_games();
    ASSERT_TRUE(mirrored);
    ASSERT_EQ(mirrored->size(), 1u);
    EXPECT_EQ((*mirrored)[0].game.moves.size(), 1u);

    ASSERT_TRUE(reconnect(**store));
    EXPECT_EQ(stored(direct_), (Games{{"g", {"h2e2"}}}));
    // The same turn again is a new turn, and stands.
    auto again = (*store)->commit_journal(second);
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_TRUE(again->empty());
    EXPECT_EQ(stored(direct_), (Games{{"g", {"h2e2", "h9g7"}}, {"h", {"b2e2"}}}));
}

TEST_F(PgDoubtTest, ACommitThatNeverArrivedLeavesNothingToUndo) {
    auto store = PgStore::open(proxied_);
    ASSERT_TRUE(store) << store.error().message;
    ASSERT_TRUE((*store)->commit_journal(std::vector<JournalRecord>{start("g", 1), move("g", 1, "h2e2")}));
    proxy_.arm(CuttingProxy::Cut::kBefore);
    const std::vector<JournalRecord> second{move("g", 2, "h9g7")};
    ASSERT_FALSE((*store)->commit_journal(second));
    EXPECT_TRUE((*store)->turn_in_doubt());
    EXPECT_EQ(stored(direct_), (Games{{"g", {"h2e2"}}}));
    ASSERT_TRUE(reconnect(**store));
    EXPECT_EQ(stored(direct_), (Games{{"g", {"h2e2"}}}));
    ASSERT_TRUE((*store)->commit_journal(second));
    EXPECT_EQ(stored(direct_), (Games{{"g", {"h2e2", "h9g7"}}}));
}

// The server stopped: each commit fails at once (Io), and the store is back after a restart.
TEST_F(PgDoubtTest, ADeadDatabaseFailsEveryCommitAndTheStoreComesBackWithIt) {
    auto store = PgStore::open(direct_);
    ASSERT_TRUE(store) << store.error().message;
    ASSERT_TRUE((*store)->commit_journal(std::vector<JournalRecord>{start("g", 1), move("g", 1, "h2e2")}));
    pg_.stop(SIGINT);
    for (int ply = 2; ply <= 4; ++ply) {
        auto refused = (*store)->commit_journal(std::vector<JournalRecord>{move("g", 2, "h9g7")});
        ASSERT_FALSE(refused);
        EXPECT_EQ(refused.error().code, StoreErrorCode::Io) << refused.error().message;
    }
    pg_.start();
    ASSERT_TRUE(reconnect(**store));
    ASSERT_TRUE((*store)->commit_journal(std::vector<JournalRecord>{move("g", 2, "h9g7")}));
    EXPECT_EQ(stored(direct_), (Games{{"g", {"h2e2", "h9g7"}}}));
}

}  // namespace
}  // namespace xq::server
