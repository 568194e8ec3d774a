// Durable games: the store's turn journal (commit_journal, load_recoverable_games), and the real
// server binary killed with SIGKILL mid-game and restarted on the same port and database, its
// players resuming with their tokens. A journal that cannot be written answers INTERNAL and
// changes nothing (in-process server, a trigger makes the store refuse).

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "server/net/server.h"
#include "server/store/sqlite/sqlite_store.h"
#include "support/raw_sqlite.h"
#include "support/test_client.h"

namespace xq {
namespace {

namespace fs = std::filesystem;
using namespace proto;
using test::raw_exec;
using test::TestClient;

fs::path fresh_dir(const std::string& what) {
    static int counter = 0;
    fs::path dir = fs::temp_directory_path() /
                   ("xq-recovery-" + what + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// ---- The store ----

server::LiveGameRecord live(std::string id) {
    return {std::move(id), "ann", "bob", "tok-r", "tok-b", {300, 3, 0},
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 1};
}
server::JournalRecord append(const std::string& id, int ply, std::string iccs, std::uint64_t version) {
    return server::JournalAppend{{id, ply, std::move(iccs), 100 + ply, 300'000 - ply, 299'000 - ply, 5}, version};
}

TEST(JournalStore, TurnsCommitAndReloadWithVersionsTakebacksAndEndings) {
    const fs::path dir = fresh_dir("store");
    auto store = server::SqliteStore::open(dir / "j.db");
    ASSERT_TRUE(store) << store.error().message;
    std::vector<server::JournalRecord> turn1 = {server::JournalStart{live("g1"), "", 1},
                                                server::JournalStart{live("g2"), "CODE42", 1},
                                                server::JournalStart{live("g3"), "", 1},
                                                append("g1", 1, "h2e2", 2), append("g1", 2, "h9g7", 3),
                                                append("g1", 3, "h0g2", 4), append("g2", 1, "b2e2", 2)};
    auto done = store->commit_journal(turn1);
    ASSERT_TRUE(done) << done.error().message;
    EXPECT_TRUE(done->empty());
    // A refused record (a gap) is undone alone; the rest of the turn stands.
    std::vector<server::JournalRecord> turn2 = {server::JournalTakeback{"g1", 1, 6}, append("g2", 3, "h9g7", 3),
                                                server::JournalAbort{"g3"}};
    done = store->commit_journal(turn2);
    ASSERT_TRUE(done);
    ASSERT_EQ(done->size(), 1u);
    EXPECT_EQ((*done)[0].index, 1u);

    auto games = store->load_recoverable_games();
    ASSERT_TRUE(games) << games.error().message;
    ASSERT_EQ(games->size(), 2u);  // g3 aborted: gone
    const auto& g1 = (*games)[0];
    EXPECT_EQ(g1.game.record.id, "g1");
    ASSERT_EQ(g1.game.moves.size(), 1u);
    EXPECT_EQ(g1.version, 6u);
    EXPECT_EQ(g1.move_versions, (std::vector<std::uint64_t>{2}));
    EXPECT_EQ((*games)[1].join_code, "CODE42");
    EXPECT_EQ((*games)[1].move_versions, (std::vector<std::uint64_t>{2}));

    // Finishing turns the live row into the archive entry.
    server::ArchivedGame a;
    a.id = "g1";
    a.red_name = "ann";
    a.black_name = "bob";
    a.time_control = {300, 3, 0};
    a.start_fen = live("g1").start_fen;
    a.moves = "h2e2";
    a.result = Result::RedWins;
    a.reason = Reason::Resignation;
    a.explanation = "Black resigns.";
    a.pgn = "[Event \"x\"]\n";
    a.started_at_ms = 1;
    a.ended_at_ms = 2;
    done = store->commit_journal(std::vector<server::JournalRecord>{server::JournalFinish{a}});
    ASSERT_TRUE(done);
    EXPECT_TRUE(done->empty());
    EXPECT_EQ(store->load_recoverable_games()->size(), 1u);
    auto archived = store->fetch_archived("g1");
    ASSERT_TRUE(archived);
    EXPECT_EQ(archived->moves, "h2e2");
    fs::remove_all(dir);
}

// ---- The real binary, killed and restarted ----

std::uint16_t free_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor a(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return a.local_endpoint().port();
}

class ServerProcess {
public:
    // `accounts`: the server's --accounts mode.
    ServerProcess(fs::path db, std::uint16_t port, std::string accounts = "off")
        : db_(std::move(db)), port_(port), accounts_(std::move(accounts)) {
        start();
    }
    ~ServerProcess() { kill(SIGTERM); }
    void start() {
        pid_ = fork();
        if (pid_ == 0) {
            const std::string listen = "127.0.0.1:" + std::to_string(port_);
            execl(XQ_SERVER_PATH, XQ_SERVER_PATH, "--listen", listen.c_str(), "--db", db_.c_str(),
                  "--discovery-port", "0", "--log-level", "warn", "--plain", "--accounts", accounts_.c_str(),
                  // What is tested here is durability, not Argon2id: a full-cost hash beside a
                  // parallel suite on two cores can outlast a reply's timeout.
                  "--password-cost", "minimal", static_cast<char*>(nullptr));
            _exit(127);
        }
        for (int i = 0; i < 200; ++i) {
            try {
                boost::asio::io_context io;
                boost::asio::ip::tcp::socket s(io);
                s.connect({boost::asio::ip::make_address("127.0.0.1"), port_});
                return;
            } catch (const std::exception&) {
                std::this_thread::sleep_for(std::chrono::milliseconds(25));
            }
        }
        FAIL() << "the server did not start";
    }
    void kill(int signal) {
        if (pid_ <= 0) return;
        ::kill(pid_, signal);
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
    }

private:
    fs::path db_;
    std::uint16_t port_;
    std::string accounts_;
    pid_t pid_ = -1;
};

TEST(CrashRecovery, KilledServerRestoresLiveGamesAndPlayersResumeWithTokens) {
    const fs::path dir = fresh_dir("kill");
    const std::uint16_t port = free_port();
    ServerProcess server(dir / "games.db", port);

    auto ann = std::make_unique<TestClient>(port);
    auto bob = std::make_unique<TestClient>(port);
    ann->hello("ann");
    bob->hello("bob");
    const auto seated = std::get<Seated>(ann->call(CreateGame{{5, 3, std::nullopt}, ColorChoice::Red, true}).body);
    const auto joined = std::get<Seated>(bob->call(JoinGame{seated.game_id, seated.join_code}).body);
    // A second game, finished before the crash: it must stay archived, not come back live.
    auto cat = std::make_unique<TestClient>(port);
    auto dan = std::make_unique<TestClient>(port);
    cat->hello("cat");
    dan->hello("dan");
    const auto other = std::get<Seated>(cat->call(CreateGame{{5, 0, std::nullopt}, ColorChoice::Red, false}).body);
    dan->call(JoinGame{other.game_id, ""});
    ASSERT_TRUE(std::holds_alternative<GameEnded>(dan->call(Resign{other.game_id}).body));

    const GameId game = seated.game_id;
    const std::vector<std::string> moves = {"h2e2", "h9g7", "h0g2", "i9h9"};
    MoveMade last{};
    for (std::size_t i = 0; i < moves.size(); ++i) {
        TestClient& mover = i % 2 == 0 ? *ann : *bob;
        const auto reply = mover.call(MakeMove{game, moves[i], 10 + i, static_cast<std::uint32_t>(i)});
        ASSERT_TRUE(std::holds_alternative<MoveMade>(reply.body)) << i;
        last = std::get<MoveMade>(reply.body);
    }
    server.kill(SIGKILL);
    ann.reset();
    bob.reset();
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // downtime the clocks must not charge
    server.start();

    ann = std::make_unique<TestClient>(port);
    ann->hello("ann");
    const auto resumed = ann->call(Resume{game, seated.resume_token, 0});
    ASSERT_TRUE(std::holds_alternative<Snapshot>(resumed.body));
    const auto& snap = std::get<Snapshot>(resumed.body);
    EXPECT_EQ(snap.moves, moves);
    EXPECT_EQ(snap.version, last.version);
    EXPECT_EQ(snap.status, GameStatus::Playing);
    EXPECT_EQ(snap.red.name, "ann");
    EXPECT_EQ(snap.black.name, "bob");
    EXPECT_TRUE(snap.is_private);
    EXPECT_EQ(snap.time_control, (TimeControl{5, 3, std::nullopt}));
    EXPECT_EQ(snap.your_side, Side::Red);
    EXPECT_EQ(snap.clock.black_ms, last.clock.black_ms);
    EXPECT_EQ(snap.clock.running, Side::Red);
    EXPECT_GT(snap.clock.red_ms, last.clock.red_ms - 1000);  // paused while the server was down
    // Bob has not come back yet: away, with a full grace period counted from the restart.
    EXPECT_FALSE(snap.black.connected);
    ASSERT_TRUE(snap.black.grace_ms.has_value());
    EXPECT_GT(*snap.black.grace_ms, 50'000);

    // A retry of a move journaled before the crash: the original acknowledgement, nothing played.
    const auto retry = ann->call(MakeMove{game, "h0g2", 12, 2});
    ASSERT_TRUE(std::holds_alternative<MoveMade>(retry.body));
    EXPECT_EQ(std::get<MoveMade>(retry.body).ply, 3u);

    bob = std::make_unique<TestClient>(port);
    bob->hello("bob");
    const auto bob_back = bob->call(Resume{game, joined.resume_token, last.version});
    ASSERT_TRUE(std::holds_alternative<Resumed>(bob_back.body));
    EXPECT_TRUE(std::get<Resumed>(bob_back.body).events.empty());
    // Bob's token was replaced; the replacement is journaled, so it outlives the next crash.
    const auto bob_token = bob->wait_for<ResumeToken>();
    ASSERT_TRUE(bob_token);
    EXPECT_EQ(std::get<Error>(bob->call(Resume{game, "not-a-token", 0}).body).code, ErrorCode::BadToken);

    // Play goes on, with the numbering the clients know.
    const auto next = ann->call(MakeMove{game, "i0h0", 20, 4});
    ASSERT_TRUE(std::holds_alternative<MoveMade>(next.body));
    EXPECT_EQ(std::get<MoveMade>(next.body).version, last.version + 1);
    const auto seen = bob->wait_for<MoveMade>();
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->move, "i0h0");

    // The finished game is archived and not live.
    const auto list = std::get<GameList>(ann->call(ListGames{}).body);
    EXPECT_EQ(list.live.size(), 1u);
    const auto archived = ann->call(GetArchived{other.game_id});
    ASSERT_TRUE(std::holds_alternative<proto::ArchivedGame>(archived.body));

    // Once more: a kill right after the move, and the move is still there.
    server.kill(SIGKILL);
    server.start();
    auto again = std::make_unique<TestClient>(port);
    again->hello("bob");
    const auto snap2 = again->call(Resume{game, bob_token->resume_token, 0});
    ASSERT_TRUE(std::holds_alternative<Snapshot>(snap2.body));
    EXPECT_EQ(std::get<Snapshot>(snap2.body).moves.size(), 5u);
    // The rotated token, used, retired the one it replaced (kept until then, in case it was lost).
    EXPECT_EQ(std::get<Error>(again->call(Resume{game, joined.resume_token, 0}).body).code, ErrorCode::BadToken);
    fs::remove_all(dir);
}

// ---- A journal that cannot be written ----

// A rated game's new ratings are written in the transaction that archives it: a kill right after
// the end (the players have heard the change, so it was committed) and a restart show it applied
// once, and a second restart does not apply it again.
TEST(CrashRecovery, ARatedResultKilledRightAfterItsEndCountsOnce) {
    const fs::path dir = fresh_dir("rated-kill");
    const std::uint16_t port = free_port();
    ServerProcess server(dir / "games.db", port, "optional");
    auto ann = std::make_unique<TestClient>(port, std::chrono::seconds(20));
    auto bob = std::make_unique<TestClient>(port, std::chrono::seconds(20));
    ann->hello("ann");
    bob->hello("bob");
    ASSERT_TRUE(std::holds_alternative<LoggedIn>(ann->call(Register{"ann", "correct horse"}).body));
    ASSERT_TRUE(std::holds_alternative<LoggedIn>(bob->call(Register{"bob", "correct horse"}).body));
    const auto seated = std::get<Seated>(ann->call(CreateGame{{5, 3, std::nullopt}, ColorChoice::Red, false, 0, true}).body);
    ASSERT_TRUE(std::holds_alternative<Seated>(bob->call(JoinGame{seated.game_id, ""}).body));
    const std::vector<std::string> moves = {"h2e2", "h9g7", "h0g2", "i9h9"};
    for (std::size_t i = 0; i < moves.size(); ++i) {
        TestClient& mover = i % 2 == 0 ? *ann : *bob;
        ASSERT_TRUE(std::holds_alternative<MoveMade>(
            mover.call(MakeMove{seated.game_id, moves[i], 10 + i, static_cast<std::uint32_t>(i)}).body));
    }
    const auto ended = bob->call(Resign{seated.game_id});
    ASSERT_TRUE(std::holds_alternative<GameEnded>(ended.body));
    EXPECT_EQ(std::get<GameEnded>(ended.body).red_change, (RatingChange{1500, 1662, true}));
    server.kill(SIGKILL);
    ann.reset();
    bob.reset();

    for (int restart = 0; restart < 2; ++restart) {
        SCOPED_TRACE(restart);
        server.start();
        auto c = std::make_unique<TestClient>(port, std::chrono::seconds(20));
        c->hello("carl");
        const auto profile = c->call(GetProfile{"ann"});
        ASSERT_TRUE(std::holds_alternative<Profile>(profile.body));
        const SpeedRecord& blitz = std::get<Profile>(profile.body).speeds.at(static_cast<std::size_t>(Speed::Blitz));
        EXPECT_EQ(blitz.games, 1u);
        EXPECT_EQ(blitz.rating.rating, 1662);
        EXPECT_EQ(blitz.history.size(), 1u);
        const auto list = c->call(ListArchive{0, 0, "bob"});
        ASSERT_TRUE(std::holds_alternative<ArchiveList>(list.body));
        ASSERT_EQ(std::get<ArchiveList>(list.body).games.size(), 1u);
        EXPECT_EQ(std::get<ArchiveList>(list.body).games[0].black_change, (RatingChange{1500, 1338, true}));
        c.reset();
        server.kill(SIGKILL);
    }
}

TEST(JournalFailure, RefusedMoveIsAnsweredInternalAndChangesNothing) {
    const fs::path dir = fresh_dir("fail");
    server::asio::io_context io;
    server::ServerConfig config;
    config.listen = server::tcp::endpoint(server::asio::ip::make_address("127.0.0.1"), 0);
    config.db = dir / "f.db";
    config.discovery = std::nullopt;
    auto srv = std::make_unique<server::Server>(io, config);
    srv->start();
    std::thread thread([&] { io.run(); });

    TestClient ann(srv->port()), bob(srv->port());
    ann.hello("ann");
    bob.hello("bob");
    const auto seated = std::get<Seated>(ann.call(CreateGame{{5, 0, std::nullopt}, ColorChoice::Red, false}).body);
    bob.call(JoinGame{seated.game_id, ""});
    ASSERT_TRUE(std::holds_alternative<MoveMade>(ann.call(MakeMove{seated.game_id, "h2e2", 1, 0}).body));

    raw_exec(config.db, "CREATE TRIGGER refuse BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'disk says no'); END;");
    const auto refused = bob.call(MakeMove{seated.game_id, "h9g7", 1, 1});
    ASSERT_TRUE(std::holds_alternative<Error>(refused.body));
    EXPECT_EQ(std::get<Error>(refused.body).code, ErrorCode::Internal);
    raw_exec(config.db, "DROP TRIGGER refuse;");
    // Nothing changed: the same move (same id) is played now, at the same ply.
    const auto played = bob.call(MakeMove{seated.game_id, "h9g7", 1, 1});
    ASSERT_TRUE(std::holds_alternative<MoveMade>(played.body));
    EXPECT_EQ(std::get<MoveMade>(played.body).ply, 2u);
    const auto snap = std::get<Snapshot>(ann.call(WatchGame{seated.game_id, ""}).body);
    EXPECT_EQ(snap.moves, (std::vector<std::string>{"h2e2", "h9g7"}));

    server::asio::post(io, [&] {
        srv->stop();
        io.stop();
    });
    thread.join();
    srv.reset();
    fs::remove_all(dir);
}

}  // namespace
}  // namespace xq
