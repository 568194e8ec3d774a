// The online adapter (OnlineClient) over real loopback sockets: players and spectators, each with
// its own GameModel and LobbyModel, against the server started in-process on an ephemeral port.
// Every wait polls pump() with a deadline; nothing is asserted after a fixed sleep. Links are cut
// through a small TCP proxy in the test, which can also hold new connections, drop what the server
// says, and records every MakeMove the client sends (to check move ids on resends).

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/model/game_model.h"
#include "client/model/lobby_model.h"
#include "client/online/online_client.h"
#include "common/fen.h"
#include "common/iccs.h"
#include "common/pgn_record.h"
#include "proto/codec.h"
#include "proto/frame.h"
#include "server/net/server.h"
#include "server/store/sqlite/sqlite_store.h"

namespace xq::client {
namespace {

using namespace std::chrono_literals;
namespace sasio = server::asio;
using stcp = server::tcp;

constexpr auto kPatience = 10s;  // long enough for a loaded 2-core machine; only failures wait it out

Move mv(std::string_view text) { return *parse_iccs(text); }

std::filesystem::path fresh_dir() {
    static int counter = 0;
    auto dir = std::filesystem::temp_directory_path() /
               ("xq-client-online-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(dir);
    return dir;
}

// The real server in-process on its own io thread (as in client_net_test.cpp).
class InProcessServer {
public:
    explicit InProcessServer(const std::filesystem::path& db,
                             proto::AccountsMode accounts = proto::AccountsMode::Off /* names as typed */) {
        server::ServerConfig config;
        config.listen = stcp::endpoint(sasio::ip::make_address("127.0.0.1"), 0);
        config.db = db;
        config.accounts = accounts;
        config.password_cost = server::minimal_cost();  // behaviour, not cost (server/net/server.h)
        config.name = "online test server";
        config.discovery = std::nullopt;
        // Spectator counts at once, so a count never lags behind what a test waits for.
        config.spectator_count_interval = 0ms;
        server_ = std::make_unique<server::Server>(io_, config);
        server_->start();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~InProcessServer() {
        sasio::post(io_, [this] {
            server_->stop();
            io_.stop();
        });
        thread_.join();
    }
    std::uint16_t port() const { return server_->port(); }
    Endpoint endpoint() const { return {"127.0.0.1", port()}; }

private:
    sasio::io_context io_{1};
    std::unique_ptr<server::Server> server_;
    std::thread thread_;
};

// A TCP relay between one client and the server. cut() closes every relayed connection (the
// client sees the server go away; the server sees the client go away). While held, new
// connections wait unrelayed until release(). While deaf, what the server sends is dropped.
class CutProxy {
public:
    explicit CutProxy(std::uint16_t upstream)
        : upstream_(upstream), acceptor_(io_, stcp::endpoint(sasio::ip::make_address("127.0.0.1"), 0)) {
        accept();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~CutProxy() {
        run_here([this] {
            error_code_t ignored;
            acceptor_.close(ignored);
            close_all();
        });
        io_.stop();
        thread_.join();
    }

    Endpoint endpoint() const { return {"127.0.0.1", acceptor_.local_endpoint().port()}; }

    // Closes every relayed connection; with hold, connections made afterwards wait for release().
    void cut(bool hold) {
        run_here([this, hold] {
            held_ = hold;
            close_all();
        });
    }
    void release() {
        run_here([this] {
            held_ = false;
            auto waiting = std::move(waiting_);
            waiting_.clear();
            for (auto& pipe : waiting) relay(pipe);
        });
    }
    void set_deaf(bool deaf) { deaf_ = deaf; }

    std::vector<proto::MakeMove> moves_sent() const {
        std::lock_guard lock(mutex_);
        return moves_;
    }
    // Welcomes relayed to the client since the proxy started.
    int welcomes() const { return welcomes_; }

private:
    using error_code_t = boost::system::error_code;
    struct Pipe {
        explicit Pipe(sasio::io_context& io) : client(io), server(io) {}
        stcp::socket client;
        stcp::socket server;
        std::array<char, 4096> up{};
        std::array<char, 4096> down{};
        proto::FrameReader up_frames;
        proto::FrameReader down_frames;
        bool closed = false;
    };

    // Runs `f` on the proxy's thread and waits for it.
    void run_here(std::function<void()> f) {
        std::promise<void> done;
        sasio::post(io_, [&] {
            f();
            done.set_value();
        });
        done.get_future().wait();
    }

    void accept() {
        auto pipe = std::make_shared<Pipe>(io_);
        acceptor_.async_accept(pipe->client, [this, pipe](const error_code_t& ec) {
            if (ec) return;
            if (held_)
                waiting_.push_back(pipe);
            else
                relay(pipe);
            accept();
        });
    }

    void relay(const std::shared_ptr<Pipe>& pipe) {
        pipes_.push_back(pipe);
        pipe->server.async_connect(stcp::endpoint(sasio::ip::make_address("127.0.0.1"), upstream_),
                                   [this, pipe](const error_code_t& ec) {
                                       if (ec || pipe->closed) return close(*pipe);
                                       pump(pipe, true);
                                       pump(pipe, false);
                                   });
    }

    void pump(const std::shared_ptr<Pipe>& pipe, bool upward) {
        auto& from = upward ? pipe->client : pipe->server;
        auto& buffer = upward ? pipe->up : pipe->down;
        from.async_read_some(sasio::buffer(buffer), [this, pipe, upward](const error_code_t& ec, std::size_t n) {
            if (ec || pipe->closed) return close(*pipe);
            auto& data = upward ? pipe->up : pipe->down;
            const std::string_view bytes(data.data(), n);
            note(*pipe, bytes, upward);
            if (!upward && deaf_) return pump(pipe, upward);
            auto& to = upward ? pipe->server : pipe->client;
            sasio::async_write(to, sasio::buffer(data.data(), n), [this, pipe, upward](const error_code_t& wec, std::size_t) {
                if (wec || pipe->closed) return close(*pipe);
                pump(pipe, upward);
            });
        });
    }

    // Records the client's MakeMoves and counts the Welcomes that reach the client.
    void note(Pipe& pipe, std::string_view bytes, bool upward) {
        auto payloads = (upward ? pipe.up_frames : pipe.down_frames).feed(bytes);
        if (!payloads) return;
        for (const auto& payload : *payloads) {
            if (upward) {
                const auto message = proto::decode_client(payload);
                if (!message) continue;
                if (const auto* m = std::get_if<proto::MakeMove>(&message->body)) {
                    std::lock_guard lock(mutex_);
                    moves_.push_back(*m);
                }
            } else if (!deaf_) {
                const auto message = proto::decode_server(payload);
                if (message && std::holds_alternative<proto::Welcome>(message->body)) ++welcomes_;
            }
        }
    }

    void close(Pipe& pipe) {
        pipe.closed = true;
        error_code_t ignored;
        pipe.client.close(ignored);
        pipe.server.close(ignored);
    }
    void close_all() {
        for (auto& pipe : pipes_) close(*pipe);
        for (auto& pipe : waiting_) close(*pipe);
        pipes_.clear();
        waiting_.clear();
    }

    std::uint16_t upstream_;
    sasio::io_context io_{1};
    stcp::acceptor acceptor_;
    std::thread thread_;
    std::vector<std::shared_ptr<Pipe>> pipes_;    // proxy thread only
    std::vector<std::shared_ptr<Pipe>> waiting_;  // held connections, proxy thread only
    bool held_ = false;                           // proxy thread only
    std::atomic<bool> deaf_{false};
    std::atomic<int> welcomes_{0};
    mutable std::mutex mutex_;
    std::vector<proto::MakeMove> moves_;
};

// One person at the client: its models, its adapter, and every notice it was given; with a
// config folder, the profile where its seats are saved.
struct Person {
    explicit Person(std::string who, const std::optional<std::filesystem::path>& config = std::nullopt)
        : name(std::move(who)), store(config ? std::optional<ProfileStore>(std::in_place, *config) : std::nullopt) {
        online.set_security(Security{.plain = true, .expected = {}, .known_hosts = {}, .accept_new = false});
    }
    std::string name;
    std::optional<ProfileStore> store;
    GameModel game;
    LobbyModel lobby;
    OnlineClient online{game, lobby, store ? &*store : nullptr};
    std::vector<std::string> notices;

    void pump() {
        online.pump(SteadyClock::now());
        for (auto& n : online.take_notices()) notices.push_back(std::move(n));
    }
    bool noticed(const std::string& part) const {
        return std::any_of(notices.begin(), notices.end(), [&](const std::string& n) { return n.find(part) != std::string::npos; });
    }
    std::vector<std::string> chat_texts() const {
        std::vector<std::string> out;
        for (const auto& c : game.chat()) out.push_back(c.text);
        return out;
    }
};

class ClientOnline : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fresh_dir();
        server_ = std::make_unique<InProcessServer>(dir_ / "games.db");
    }
    void TearDown() override {
        people_.clear();
        proxies_.clear();
        server_.reset();
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }

    // Connects a new person (through `via` when given) and waits until it is in the lobby.
    Person& connect(const std::string& name, CutProxy* via = nullptr,
                    const std::optional<std::filesystem::path>& config = std::nullopt) {
        auto& p = *people_.emplace_back(std::make_unique<Person>(name, config));
        p.online.connect(via ? via->endpoint() : server_->endpoint(), name);
        EXPECT_EQ(p.online.status(), LinkStatus::Connecting);
        EXPECT_TRUE(eventually([&] { return p.online.status() == LinkStatus::Online; })) << p.online.status_text();
        EXPECT_EQ(p.online.screen(), Screen::Lobby);
        EXPECT_EQ(p.online.server_name(), "online test server");
        return p;
    }
    // The person's process ends without a word (its connection just closes), as in a crash.
    void crash(Person& p) {
        std::erase_if(people_, [&](const std::unique_ptr<Person>& q) { return q.get() == &p; });
    }
    CutProxy& proxy() { return *proxies_.emplace_back(std::make_unique<CutProxy>(server_->port())); }

    // Pumps everyone until `done` holds or the patience runs out.
    bool eventually(const std::function<bool()>& done, std::chrono::milliseconds patience = kPatience) {
        const auto until = SteadyClock::now() + patience;
        for (;;) {
            for (auto& p : people_) p->pump();
            if (done()) return true;
            if (SteadyClock::now() >= until) return false;
            std::this_thread::sleep_for(2ms);
        }
    }
    // Waits for the reply to a fresh ListGames: everything `p` asked before has been answered.
    bool settled(Person& p) {
        LobbyGame sentinel;
        sentinel.host = "sentinel";
        p.lobby.live.assign(1, sentinel);
        p.online.refresh();
        return eventually([&] { return p.lobby.live.empty() || p.lobby.live.front().host != "sentinel"; });
    }

    // `red` creates a game as Red, `black` finds it in its lobby and joins; both see it start.
    std::uint64_t start_game(Person& red, Person& black) {
        red.online.create(TimeControlChoice{10, 5, std::nullopt}, ColorPick::Red, false);
        EXPECT_TRUE(eventually([&] { return red.online.game_id().has_value(); }));
        const std::uint64_t id = red.online.game_id().value_or(0);
        EXPECT_TRUE(red.online.waiting_for_opponent());
        black.online.refresh();
        EXPECT_TRUE(eventually([&] {
            return std::any_of(black.lobby.open.begin(), black.lobby.open.end(), [&](const LobbyGame& g) { return g.id == id; });
        }));
        black.online.join(id);
        EXPECT_TRUE(eventually([&] {
            return red.game.phase() == Phase::Playing && black.game.phase() == Phase::Playing &&
                   red.online.screen() == Screen::Game && black.online.screen() == Screen::Game &&
                   !red.online.waiting_for_opponent() && black.online.game_id() == id;
        }));
        return id;
    }

    // `p` plays `text`; waits until every person in the game has it as their last ply.
    void play(Person& p, std::string_view text, const std::vector<Person*>& everyone) {
        const int ply = p.game.ply_count() + 1;
        ASSERT_TRUE(p.game.can_move()) << p.name << " cannot move before " << text;
        p.online.move(mv(text));
        ASSERT_TRUE(eventually([&] {
            return std::all_of(everyone.begin(), everyone.end(), [&](Person* q) {
                return q->game.ply_count() >= ply && q->game.moves()[static_cast<std::size_t>(ply - 1)] == mv(text);
            });
        })) << text;
    }

    std::filesystem::path dir_;
    std::unique_ptr<InProcessServer> server_;
    std::vector<std::unique_ptr<CutProxy>> proxies_;
    std::vector<std::unique_ptr<Person>> people_;
};

const std::vector<std::string> kMate = {"b2b4", "a6a5", "b4c4", "f9e8", "c4c9"};

TEST_F(ClientOnline, ConnectsToTheLobbyAndSeesAnotherPlayersGame) {
    Person& ann = connect("ann");
    Person& bob = connect("bob");
    EXPECT_TRUE(ann.lobby.open.empty());
    ann.online.create(TimeControlChoice{5, 3, std::nullopt}, ColorPick::Black, false);
    ASSERT_TRUE(eventually([&] { return ann.online.screen() == Screen::Game; }));
    EXPECT_EQ(ann.game.role(), Role::Black);
    EXPECT_EQ(ann.game.phase(), Phase::Waiting);
    EXPECT_TRUE(ann.online.waiting_for_opponent());
    EXPECT_EQ(ann.game.seat(Color::Black).name, "ann");
    const auto id = *ann.online.game_id();

    bob.online.refresh();
    ASSERT_TRUE(eventually([&] { return bob.lobby.open.size() == 1; }));
    const LobbyGame& row = bob.lobby.open.front();
    EXPECT_EQ(row.id, id);
    EXPECT_EQ(row.host, "ann");
    EXPECT_EQ(row.host_color, "black");
    EXPECT_EQ(row.time_control, (TimeControlChoice{5, 3, std::nullopt}));
    EXPECT_TRUE(bob.lobby.live.empty());
    EXPECT_TRUE(ann.notices.empty());
    EXPECT_TRUE(bob.notices.empty());
}

TEST_F(ClientOnline, CreateJoinPlayToMateWithASpectatorJoiningMidGame) {
    Person& red = connect("ann");
    Person& black = connect("bob");
    Person& fan = connect("cat");
    const auto id = start_game(red, black);

    EXPECT_EQ(red.game.role(), Role::Red);
    EXPECT_EQ(black.game.role(), Role::Black);
    for (Person* p : {&red, &black}) {
        EXPECT_EQ(p->game.seat(Color::Red).name, "ann");
        EXPECT_EQ(p->game.seat(Color::Black).name, "bob");
        EXPECT_TRUE(p->game.clock().known());
        EXPECT_FALSE(p->game.clock().running());  // the clocks wait for both first moves
        EXPECT_TRUE(p->game.clock().first_move_left(std::chrono::steady_clock::now()));
        EXPECT_EQ(p->game.ply_count(), 0);
    }
    EXPECT_TRUE(red.game.can_move());
    EXPECT_FALSE(black.game.can_move());

    // The live list shows the game once it runs.
    fan.online.refresh();
    ASSERT_TRUE(eventually([&] { return fan.lobby.live.size() == 1; }));
    EXPECT_EQ(fan.lobby.live.front().id, id);
    EXPECT_EQ(fan.lobby.live.front().red, "ann");
    EXPECT_EQ(fan.lobby.live.front().black, "bob");

    // The mover sees its move at once, pending, before the server has answered.
    red.online.move(mv(kMate[0]));
    ASSERT_TRUE(red.game.pending().has_value());
    EXPECT_EQ(red.game.pending()->move, mv(kMate[0]));
    EXPECT_TRUE(red.game.showing_pending());
    EXPECT_EQ(red.game.last_move_shown(), mv(kMate[0]));
    EXPECT_EQ(red.game.ply_count(), 0);
    EXPECT_FALSE(red.game.can_move());
    ASSERT_TRUE(eventually([&] { return red.game.ply_count() == 1 && black.game.ply_count() == 1; }));
    EXPECT_FALSE(red.game.pending().has_value());
    EXPECT_FALSE(red.game.clock().running());  // Black's first move is awaited
    play(black, kMate[1], {&red, &black});
    EXPECT_EQ(red.game.clock().running(), Color::Red);

    // The spectator arrives mid-game: a Snapshot with the two plies played so far.
    fan.online.watch(id);
    ASSERT_TRUE(eventually([&] { return fan.online.screen() == Screen::Game && fan.game.ply_count() == 2; }));
    EXPECT_EQ(fan.game.role(), Role::Spectator);
    EXPECT_EQ(fan.game.phase(), Phase::Playing);
    EXPECT_EQ(fan.game.seat(Color::Red).name, "ann");
    EXPECT_EQ(fan.game.seat(Color::Black).name, "bob");
    EXPECT_TRUE(fan.game.clock().known());
    EXPECT_FALSE(fan.game.can_move());
    ASSERT_TRUE(eventually([&] { return red.game.spectators() == 1 && black.game.spectators() == 1; }));

    // A spectator's move goes nowhere.
    fan.online.move(mv(kMate[2]));
    EXPECT_FALSE(fan.game.pending().has_value());

    const std::vector<Person*> all = {&red, &black, &fan};
    play(red, kMate[2], all);
    play(black, kMate[3], all);
    play(red, kMate[4], all);
    ASSERT_TRUE(eventually([&] { return std::all_of(all.begin(), all.end(), [](Person* p) { return p->game.result().has_value(); }); }));
    for (Person* p : all) {
        SCOPED_TRACE(p->name);
        ASSERT_EQ(p->game.moves().size(), kMate.size());
        for (std::size_t i = 0; i < kMate.size(); ++i) EXPECT_EQ(to_iccs(p->game.moves()[i]), kMate[i]);
        EXPECT_EQ(p->game.result()->result, Result::RedWins);
        EXPECT_EQ(p->game.result()->reason, "checkmate");
        EXPECT_FALSE(p->game.result()->explanation.empty());
        EXPECT_EQ(p->game.phase(), Phase::Over);
        EXPECT_FALSE(p->game.clock().running().has_value());
        EXPECT_TRUE(p->notices.empty()) << p->notices.front();
    }
}

// "Copy watch link" (issue 23): a public game's players and spectators get its page on this server's
// port, http:// on a plain connection; a private game's players and watchers get none.
TEST_F(ClientOnline, PublicGamesHaveAWatchLinkPrivateOnesNone) {
    Person& red = connect("ann");
    Person& black = connect("bob");
    Person& fan = connect("cat");
    const auto id = start_game(red, black);
    const std::string link = "http://127.0.0.1:" + std::to_string(server_->port()) + "/g/" + std::to_string(id);
    EXPECT_EQ(red.online.shown_game_watch_link(), link);
    EXPECT_EQ(black.online.shown_game_watch_link(), link);
    EXPECT_EQ(fan.online.watch_link(id), link);  // the lobby's "Copy link" on the live row
    fan.online.watch(id);
    ASSERT_TRUE(eventually([&] { return fan.game.role() == Role::Spectator; }));
    EXPECT_EQ(fan.online.shown_game_watch_link(), link);

    Person& host = connect("dan");
    Person& guest = connect("eve");
    host.online.create(TimeControlChoice{5, 3, std::nullopt}, ColorPick::Red, true);
    ASSERT_TRUE(eventually([&] { return !host.online.join_code().empty(); }));
    const auto hidden = *host.online.game_id();
    guest.online.join(hidden, host.online.join_code());
    ASSERT_TRUE(eventually([&] { return guest.game.phase() == Phase::Playing && guest.online.game_id() == hidden; }));
    EXPECT_EQ(host.online.shown_game_watch_link(), std::nullopt);
    EXPECT_EQ(guest.online.shown_game_watch_link(), std::nullopt);
    fan.online.watch(hidden, host.online.join_code());
    ASSERT_TRUE(eventually([&] { return fan.online.game_id() == hidden && fan.game.role() == Role::Spectator; }));
    EXPECT_EQ(fan.online.shown_game_watch_link(), std::nullopt);
}

TEST_F(ClientOnline, IllegalMoveIsRefusedAndTheBoardReturns) {
    Person& red = connect("ann");
    Person& black = connect("bob");
    start_game(red, black);
    // The board never offers a blocked chariot move, but the adapter does not judge: the server does.
    red.online.move(mv("a0a5"));
    ASSERT_TRUE(red.game.pending().has_value());
    EXPECT_NE(to_fen(red.game.shown_position()), to_fen(red.game.position_at(0)));
    ASSERT_TRUE(eventually([&] { return !red.game.pending().has_value(); }));
    EXPECT_EQ(red.game.ply_count(), 0);
    EXPECT_EQ(to_fen(red.game.shown_position()), to_fen(red.game.position_at(0)));
    EXPECT_NE(red.game.notice().find("a0a5"), std::string::npos) << red.game.notice();
    EXPECT_TRUE(red.notices.empty());  // the board shows a refusal; no second notice
    EXPECT_TRUE(red.game.can_move());
    // The game goes on from where it was.
    play(red, "h2e2", {&red, &black});
    EXPECT_TRUE(red.game.notice().empty());
    EXPECT_EQ(black.game.ply_count(), 1);
}

TEST_F(ClientOnline, MoveRacingATakebackIsRefusedAsStale) {
    Person& red = connect("ann");
    Person& black = connect("bob");
    start_game(red, black);
    play(red, "h2e2", {&red, &black});
    play(black, "h9g7", {&red, &black});
    // Red asks with Red to move: its last move and Black's reply, two plies.
    red.online.offer(OfferType::Takeback);
    ASSERT_TRUE(eventually([&] { return black.game.offer_by(OfferType::Takeback) == Color::Red; }));
    black.online.answer(OfferType::Takeback, true);
    // Only Black hears that the server took the plies back; Red, not pumped, still shows ply 2 and
    // moves there, so its move reaches the server for an outdated position.
    const auto until = SteadyClock::now() + kPatience;
    while (black.game.ply_count() != 0 && SteadyClock::now() < until) {
        black.pump();
        std::this_thread::sleep_for(2ms);
    }
    ASSERT_EQ(black.game.ply_count(), 0);
    ASSERT_TRUE(red.game.can_move());
    red.online.move(mv("h0g2"));
    ASSERT_TRUE(red.game.pending().has_value());
    ASSERT_TRUE(eventually([&] { return red.game.ply_count() == 0 && !red.game.notice().empty(); }))
        << red.game.ply_count() << " " << red.game.notice();
    EXPECT_FALSE(red.game.pending().has_value());
    EXPECT_EQ(to_fen(red.game.shown_position()), to_fen(red.game.position_at(0)));
    EXPECT_EQ(red.game.notice(), "the game is at ply 0, not 2");
    EXPECT_TRUE(red.notices.empty()) << red.notices.front();  // on the board, not a second time
    EXPECT_EQ(black.game.ply_count(), 0);
    // Red moves again in the position the server has.
    play(red, "h0g2", {&red, &black});
    EXPECT_TRUE(red.game.notice().empty());
}

TEST_F(ClientOnline, DrawOfferDeclinedThenAccepted) {
    Person& red = connect("ann");
    Person& black = connect("bob");
    start_game(red, black);
    play(red, "h2e2", {&red, &black});

    red.online.offer(OfferType::Draw);
    ASSERT_TRUE(eventually([&] { return black.game.offer_by(OfferType::Draw) == Color::Red; }));
    EXPECT_EQ(red.game.offer_by(OfferType::Draw), Color::Red);
    black.online.answer(OfferType::Draw, false);
    ASSERT_TRUE(eventually([&] { return !red.game.offer_by(OfferType::Draw) && red.noticed("declined"); }));
    EXPECT_FALSE(black.game.offer_by(OfferType::Draw).has_value());
    EXPECT_TRUE(red.noticed("Black declined the draw offer"));
    EXPECT_FALSE(red.game.result().has_value());

    black.online.offer(OfferType::Draw);
    ASSERT_TRUE(eventually([&] { return red.game.offer_by(OfferType::Draw) == Color::Black; }));
    red.online.answer(OfferType::Draw, true);
    ASSERT_TRUE(eventually([&] { return red.game.result() && black.game.result(); }));
    for (Person* p : {&red, &black}) {
        EXPECT_EQ(p->game.result()->result, Result::Draw);
        EXPECT_EQ(p->game.result()->reason, "agreement");
        EXPECT_EQ(p->game.phase(), Phase::Over);
        EXPECT_FALSE(p->game.offer_by(OfferType::Draw).has_value());
    }
}

TEST_F(ClientOnline, TakebackRemovesPliesInBothModels) {
    Person& red = connect("ann");
    Person& black = connect("bob");
    start_game(red, black);
    play(red, "h2e2", {&red, &black});
    play(black, "h9g7", {&red, &black});
    play(red, "h0g2", {&red, &black});
    // Red asks with Black to move: one ply back.
    red.online.offer(OfferType::Takeback);
    ASSERT_TRUE(eventually([&] { return black.game.offer_by(OfferType::Takeback) == Color::Red; }));
    black.online.answer(OfferType::Takeback, true);
    ASSERT_TRUE(eventually([&] { return red.game.ply_count() == 2 && black.game.ply_count() == 2; }));
    EXPECT_TRUE(red.game.can_move());
    EXPECT_FALSE(black.game.offer_by(OfferType::Takeback).has_value());
    EXPECT_EQ(red.game.seat(Color::Black).name, "bob");  // a takeback keeps the seats
    EXPECT_TRUE(red.game.clock().known());
    play(red, "h0g2", {&red, &black});
    // Now Black asks while it is Black's turn: its last move and Red's reply, two plies.
    black.online.offer(OfferType::Takeback);
    ASSERT_TRUE(eventually([&] { return red.game.offer_by(OfferType::Takeback) == Color::Black; }));
    red.online.answer(OfferType::Takeback, true);
    ASSERT_TRUE(eventually([&] { return red.game.ply_count() == 1 && black.game.ply_count() == 1; }));
    EXPECT_EQ(red.game.moves(), black.game.moves());
    EXPECT_EQ(to_iccs(red.game.moves()[0]), "h2e2");
    EXPECT_TRUE(black.game.can_move());
    play(black, "b9c7", {&red, &black});
}

TEST_F(ClientOnline, ChatReachesPlayersAndSpectatorsButSpectatorChatOnlySpectators) {
    Person& red = connect("ann");
    Person& black = connect("bob");
    Person& fan = connect("cat");
    Person& fan2 = connect("dan");
    const auto id = start_game(red, black);
    fan.online.watch(id);
    fan2.online.watch(id);
    ASSERT_TRUE(eventually([&] { return fan.online.screen() == Screen::Game && fan2.online.screen() == Screen::Game; }));

    red.online.chat("good luck");
    ASSERT_TRUE(eventually([&] {
        return std::all_of(people_.begin(), people_.end(), [](const auto& p) { return p->game.chat().size() == 1; });
    }));
    for (const auto& p : people_) {
        const ChatEntry& line = p->game.chat().front();
        EXPECT_EQ(line.text, "good luck");
        EXPECT_EQ(line.from, "ann");
        EXPECT_FALSE(line.spectators);
        EXPECT_EQ(line.side, Color::Red);
    }
    black.online.chat("thanks");
    ASSERT_TRUE(eventually([&] {
        return std::all_of(people_.begin(), people_.end(), [](const auto& p) { return p->game.chat().size() == 2; });
    }));

    fan.online.chat("central cannon!");
    ASSERT_TRUE(eventually([&] { return fan.game.chat().size() == 3 && fan2.game.chat().size() == 3; }));
    EXPECT_TRUE(fan2.game.chat().back().spectators);
    // The server names a spectator's line by participant ("spectator 7"), not by the name it gave.
    EXPECT_FALSE(fan2.game.chat().back().from.empty());
    EXPECT_FALSE(fan2.game.chat().back().side.has_value());
    // The server has handled the spectators' line; one more players' line shows it never reached them.
    red.online.chat("your move");
    ASSERT_TRUE(eventually([&] { return red.game.chat().size() == 3 && black.game.chat().size() == 3 && fan.game.chat().size() == 4; }));
    for (Person* p : {&red, &black})
        EXPECT_EQ(p->chat_texts(), (std::vector<std::string>{"good luck", "thanks", "your move"}));
    EXPECT_EQ(fan.chat_texts(), (std::vector<std::string>{"good luck", "thanks", "central cannon!", "your move"}));
    for (const auto& p : people_) EXPECT_TRUE(p->notices.empty()) << p->name << ": " << p->notices.front();
}

TEST_F(ClientOnline, ReconnectsCatchesUpAndResendsAPendingMoveOnce) {
    CutProxy& link = proxy();
    Person& red = connect("ann", &link);
    Person& black = connect("bob");
    Person& fan = connect("cat");
    const auto id = start_game(red, black);
    fan.online.watch(id);
    const std::vector<Person*> all = {&red, &black, &fan};
    ASSERT_TRUE(eventually([&] { return fan.game.phase() == Phase::Playing; }));
    play(red, "h2e2", all);

    // Red's link drops while Black is to move; Black moves while Red is away.
    link.cut(true);
    ASSERT_TRUE(eventually([&] { return red.online.status() == LinkStatus::Reconnecting; }));
    ASSERT_TRUE(eventually([&] { return !black.game.seat(Color::Red).connected; }));
    play(black, "h9g7", {&black, &fan});
    EXPECT_EQ(red.game.ply_count(), 1);
    link.release();
    ASSERT_TRUE(eventually([&] { return red.online.status() == LinkStatus::Online && red.game.ply_count() == 2; }));
    EXPECT_EQ(red.online.screen(), Screen::Game);
    EXPECT_EQ(red.game.moves(), black.game.moves());
    ASSERT_TRUE(eventually([&] { return black.game.seat(Color::Red).connected; }));
    EXPECT_TRUE(red.game.can_move());

    // Red's link drops again with Red to move: the move waits as pending and goes out once the
    // seat is resumed, with the move id it was given.
    const auto sent_before = link.moves_sent().size();
    link.cut(true);
    ASSERT_TRUE(eventually([&] { return red.online.status() == LinkStatus::Reconnecting; }));
    red.online.move(mv("h0g2"));
    ASSERT_TRUE(red.game.pending().has_value());
    const auto move_id = red.game.pending()->move_id;
    link.release();
    ASSERT_TRUE(eventually([&] {
        return red.online.status() == LinkStatus::Online &&
               std::all_of(all.begin(), all.end(), [](Person* p) { return p->game.ply_count() == 3; });
    }));
    EXPECT_FALSE(red.game.pending().has_value());
    const auto sent = link.moves_sent();
    ASSERT_EQ(sent.size(), sent_before + 1);  // none while down, one after the resume
    EXPECT_EQ(sent.back().move, "h0g2");
    EXPECT_EQ(sent.back().move_id, move_id);
    EXPECT_EQ(sent.back().ply, 2u);
    for (Person* p : all) EXPECT_EQ(p->game.moves(), red.game.moves()) << p->name;
    play(black, "b9c7", all);
    EXPECT_EQ(black.game.ply_count(), 4);
    EXPECT_TRUE(red.notices.empty()) << red.notices.front();
}

TEST_F(ClientOnline, MoveWhoseAcknowledgementWasLostIsPlayedOnce) {
    CutProxy& link = proxy();
    Person& red = connect("ann", &link);
    Person& black = connect("bob");
    start_game(red, black);

    // The server gets Red's move and plays it, but its answer never reaches Red.
    link.set_deaf(true);
    red.online.move(mv("h2e2"));
    ASSERT_TRUE(eventually([&] { return black.game.ply_count() == 1; }));
    ASSERT_TRUE(red.game.pending().has_value());
    link.cut(true);
    link.set_deaf(false);
    ASSERT_TRUE(eventually([&] { return red.online.status() == LinkStatus::Reconnecting; }));
    link.release();
    ASSERT_TRUE(eventually([&] { return red.online.status() == LinkStatus::Online && red.game.ply_count() == 1; }));
    EXPECT_FALSE(red.game.pending().has_value());
    EXPECT_EQ(red.game.moves(), black.game.moves());
    for (const auto& m : link.moves_sent()) EXPECT_EQ(m.move_id, link.moves_sent().front().move_id);
    play(black, "h9g7", {&red, &black});
    EXPECT_EQ(red.game.ply_count(), 2);
    EXPECT_TRUE(red.notices.empty()) << red.notices.front();
}

// The moment the link is back (welcomed) but before the adapter has seen it: a move made then must
// wait for the seat to be resumed rather than go out on a session that holds no seat.
TEST_F(ClientOnline, MoveJustAsTheLinkReturnsWaitsForTheResume) {
    CutProxy& link = proxy();
    Person& red = connect("ann", &link);
    Person& black = connect("bob");
    start_game(red, black);
    link.cut(true);
    ASSERT_TRUE(eventually([&] { return red.online.status() == LinkStatus::Reconnecting; }));
    const int welcomed = link.welcomes();
    link.release();
    // Wait for the Welcome without pumping Red (its adapter has not seen the link come back).
    const auto until = SteadyClock::now() + kPatience;
    while (link.welcomes() == welcomed && SteadyClock::now() < until) std::this_thread::sleep_for(2ms);
    ASSERT_GT(link.welcomes(), welcomed);
    std::this_thread::sleep_for(50ms);  // lets the link thread queue its LinkUp (not asserted on)
    red.online.move(mv("h2e2"));
    ASSERT_TRUE(eventually([&] {
        return red.online.status() == LinkStatus::Online && black.game.ply_count() == 1 && !red.game.pending().has_value();
    })) << red.game.notice();
    EXPECT_EQ(red.game.ply_count(), 1);
    EXPECT_TRUE(red.game.notice().empty()) << red.game.notice();
    EXPECT_TRUE(red.notices.empty()) << red.notices.front();
}

TEST_F(ClientOnline, FinishedGameIsInTheArchiveAndReplays) {
    Person& red = connect("ann");
    Person& black = connect("bob");
    start_game(red, black);
    for (std::size_t i = 0; i < kMate.size(); ++i) play(i % 2 == 0 ? red : black, kMate[i], {&red, &black});
    ASSERT_TRUE(eventually([&] { return red.game.result() && black.game.result(); }));
    const auto id = *red.online.game_id();

    // Saved from the board, the game has the archive's tags (common/pgn_record.h) and the server's name.
    const std::string today =
        pgn_date(std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()));
    const std::string pgn = black.online.record_pgn();
    for (const std::string& tag :
         {"[Event \"Online game " + std::to_string(id) + "\"]", std::string("[Site \"online test server\"]"),
          "[Date \"" + today + "\"]", std::string("[Red \"ann\"]"), std::string("[Black \"bob\"]"),
          std::string("[TimeControl \"600+5\"]"), std::string("[Termination \"checkmate\"]"),
          std::string("[Result \"1-0\"]")})
        EXPECT_NE(pgn.find(tag), std::string::npos) << tag << " in\n" << pgn;

    red.online.leave();
    EXPECT_EQ(red.online.screen(), Screen::Lobby);
    EXPECT_FALSE(red.online.game_id().has_value());
    ASSERT_TRUE(settled(red));
    EXPECT_TRUE(red.notices.empty()) << red.notices.front();

    red.online.list_archive();
    ASSERT_TRUE(eventually([&] { return red.lobby.archive.size() == 1; }));
    const ArchiveRow& row = red.lobby.archive.front();
    EXPECT_EQ(row.id, id);
    EXPECT_EQ(row.red, "ann");
    EXPECT_EQ(row.black, "bob");
    EXPECT_EQ(row.result, "1-0");
    EXPECT_EQ(row.reason, "checkmate");
    EXPECT_EQ(red.lobby.archive_total, 1u);
    EXPECT_EQ(archive_date(row), today);

    // Filtered by a player's name in another case, then by a name nobody has.
    red.online.list_archive("BOB");
    ASSERT_TRUE(settled(red));
    EXPECT_EQ(red.lobby.archive_player, "BOB");
    ASSERT_EQ(red.lobby.archive.size(), 1u);
    red.online.list_archive("nobody");
    ASSERT_TRUE(eventually([&] { return red.lobby.archive.empty(); }));
    EXPECT_EQ(red.lobby.archive_total, 0u);
    red.online.list_archive("");
    ASSERT_TRUE(eventually([&] { return red.lobby.archive.size() == 1; }));

    red.online.open_archived(id);
    ASSERT_TRUE(eventually([&] { return red.online.screen() == Screen::Game && red.game.role() == Role::Replay; }));
    EXPECT_EQ(red.online.game_id(), id);
    // The same link the live game had replays it in a browser.
    EXPECT_EQ(red.online.shown_game_watch_link(),
              "http://127.0.0.1:" + std::to_string(server_->port()) + "/g/" + std::to_string(id));
    ASSERT_EQ(red.game.ply_count(), static_cast<int>(kMate.size()));
    for (std::size_t i = 0; i < kMate.size(); ++i) EXPECT_EQ(to_iccs(red.game.moves()[i]), kMate[i]);
    ASSERT_TRUE(red.game.result().has_value());
    EXPECT_EQ(red.game.result()->result, Result::RedWins);
    EXPECT_EQ(red.game.result()->reason, "checkmate");
    EXPECT_EQ(red.game.view_ply(), 0);  // a replay opens at the start
    EXPECT_FALSE(red.game.can_move());
    EXPECT_FALSE(red.online.archived_pgn().empty());
    EXPECT_NE(red.online.archived_pgn().find("ann"), std::string::npos);
    red.online.leave();
    EXPECT_EQ(red.online.screen(), Screen::Lobby);
}

// The archive list pages by the server's key: "Older games" adds the next page after the rows
// shown, each game once, until the server says there is no more.
TEST_F(ClientOnline, TheArchiveListPagesOnByKey) {
    {  // 60 finished games, written beside the running server (SQLite lets both at the file)
        auto store = server::SqliteStore::open(dir_ / "games.db");
        ASSERT_TRUE(store) << store.error().message;
        for (int i = 0; i < 60; ++i) {
            server::ArchivedGame g;
            char id[13];
            std::snprintf(id, sizeof id, "%012x", i + 1);
            g.id = id;
            g.red_name = "ann";
            g.black_name = "bob";
            g.time_control = {600, 5, 0};
            g.start_fen = kStartFen;
            g.result = Result::Draw;
            g.reason = Reason::Agreement;
            g.started_at_ms = 1'700'000'000'000 + i * 1000;
            g.ended_at_ms = g.started_at_ms + 500;
            ASSERT_TRUE(store->archive_game(g));
        }
    }
    Person& red = connect("ann");
    red.online.list_archive();
    ASSERT_TRUE(eventually([&] { return red.lobby.archive.size() == 50; }));
    EXPECT_EQ(red.lobby.archive_total, 60u);
    EXPECT_FALSE(red.lobby.archive_next.empty());
    red.online.more_archive();
    ASSERT_TRUE(eventually([&] { return red.lobby.archive.size() == 60; }));
    EXPECT_TRUE(red.lobby.archive_next.empty());
    std::vector<std::uint64_t> ids;
    for (const ArchiveRow& row : red.lobby.archive) ids.push_back(row.id);
    EXPECT_EQ(ids.front(), 60u);  // newest first
    EXPECT_EQ(ids.back(), 1u);
    std::ranges::sort(ids);
    EXPECT_EQ(std::ranges::unique(ids).begin(), ids.end());
    red.online.more_archive();  // nothing more: the list stays
    ASSERT_TRUE(settled(red));
    EXPECT_EQ(red.lobby.archive.size(), 60u);
}

TEST_F(ClientOnline, LeaveReturnsToTheLobbyFromEveryKindOfRoom) {
    Person& red = connect("ann");
    Person& black = connect("bob");
    Person& fan = connect("cat");

    // A game still waiting for its opponent is cancelled.
    red.online.create(TimeControlChoice{10, 5, std::nullopt}, ColorPick::Red, false);
    ASSERT_TRUE(eventually([&] { return red.online.screen() == Screen::Game; }));
    red.online.leave();
    EXPECT_EQ(red.online.screen(), Screen::Lobby);
    ASSERT_TRUE(settled(red));
    black.online.refresh();
    ASSERT_TRUE(settled(black));
    EXPECT_TRUE(black.lobby.open.empty());

    // A spectator stops watching: the players' count goes back to zero.
    const auto id = start_game(red, black);
    fan.online.watch(id);
    ASSERT_TRUE(eventually([&] { return red.game.spectators() == 1; }));
    fan.online.leave();
    EXPECT_EQ(fan.online.screen(), Screen::Lobby);
    ASSERT_TRUE(eventually([&] { return red.game.spectators() == 0; }));
    play(red, "h2e2", {&red, &black});
    EXPECT_EQ(fan.game.ply_count(), 0);  // no longer following
    for (const auto& p : people_) EXPECT_TRUE(p->notices.empty()) << p->name << ": " << p->notices.front();
}

// ---- Seats saved in the profile (client/profile) ----

std::string server_key(const Endpoint& e) { return to_string(e); }

// A client that ends in the middle of a game and starts again with the same profile is back in
// its seat without asking: the board as it was, its turn, its move reaching the opponent.
TEST_F(ClientOnline, RestartedClientReturnsToItsSavedSeat) {
    const auto config = dir_ / "ann-config";
    Person& red = connect("ann", nullptr, config);
    Person& black = connect("bob");
    const auto id = start_game(red, black);
    play(red, "h2e2", {&red, &black});
    play(black, "h9g7", {&red, &black});
    {
        const Profile saved = ProfileStore(config).load();
        EXPECT_EQ(saved.last_server, server_key(server_->endpoint()));
        EXPECT_EQ(saved.last_name, "ann");
        const SavedSeat* seat = saved.seat_on(server_key(server_->endpoint()));
        ASSERT_NE(seat, nullptr);
        EXPECT_EQ(seat->game_id, id);
        EXPECT_EQ(seat->side, Color::Red);
        EXPECT_FALSE(seat->token.empty());
    }
    EXPECT_FALSE(black.online.held_seat()) << "bob has no profile";

    crash(red);
    ASSERT_TRUE(eventually([&] { return !black.game.seat(Color::Red).connected; }));
    Person& again = connect("ann", nullptr, config);
    ASSERT_TRUE(eventually([&] { return again.online.screen() == Screen::Game && again.game.ply_count() == 2; }));
    EXPECT_EQ(again.online.game_id(), id);
    EXPECT_EQ(again.game.role(), Role::Red);
    EXPECT_EQ(again.game.phase(), Phase::Playing);
    EXPECT_EQ(again.game.moves(), black.game.moves());
    EXPECT_TRUE(again.game.can_move());
    EXPECT_FALSE(again.online.held_seat()) << "the game on screen is not offered again";
    ASSERT_TRUE(eventually([&] { return black.game.seat(Color::Red).connected; }));
    play(again, "h0g2", {&again, &black});
    play(black, "b9c7", {&again, &black});
    ASSERT_EQ(again.notices.size(), 1u);
    EXPECT_TRUE(again.noticed("Back in your game")) << again.notices.front();

    // The game ends: the seat is no longer saved.
    again.online.resign();
    ASSERT_TRUE(eventually([&] { return again.game.phase() == Phase::Over; }));
    EXPECT_EQ(ProfileStore(config).load().seat_on(server_key(server_->endpoint())), nullptr);
}

// Leaving the screen of a live game keeps the seat: the lobby offers it, and returning to it
// brings the game back. A game left before it started is given up, and forgotten.
TEST_F(ClientOnline, LeftLiveGameIsOfferedInTheLobbyAndReturnedTo) {
    const auto config = dir_ / "ann-config";
    Person& red = connect("ann", nullptr, config);
    Person& black = connect("bob");
    red.online.create(TimeControlChoice{10, 5, std::nullopt}, ColorPick::Red, false);
    ASSERT_TRUE(eventually([&] { return red.online.game_id().has_value(); }));
    ASSERT_NE(ProfileStore(config).load().seat_on(server_key(server_->endpoint())), nullptr);
    red.online.leave();
    EXPECT_EQ(ProfileStore(config).load().seat_on(server_key(server_->endpoint())), nullptr);
    EXPECT_FALSE(red.online.held_seat());
    ASSERT_TRUE(settled(red));

    const auto id = start_game(red, black);
    play(red, "h2e2", {&red, &black});
    red.online.leave();
    EXPECT_EQ(red.online.screen(), Screen::Lobby);
    ASSERT_TRUE(red.online.held_seat());
    EXPECT_EQ(red.online.held_seat()->game_id, id);
    red.online.return_to_game();
    ASSERT_TRUE(eventually([&] { return red.online.screen() == Screen::Game && red.game.ply_count() == 1; }));
    EXPECT_EQ(red.game.role(), Role::Red);
    play(black, "h9g7", {&red, &black});
    play(red, "h0g2", {&red, &black});
    EXPECT_TRUE(red.noticed("Back in your game"));
    EXPECT_TRUE(black.notices.empty()) << black.notices.front();
}

// A saved seat the server no longer knows (the game is gone, or the token is not its seat's):
// the client says so, stays in the lobby and forgets the seat.
TEST_F(ClientOnline, SavedSeatTheServerRefusesIsDroppedWithANotice) {
    Person& red = connect("ann");
    Person& black = connect("bob");
    const auto id = start_game(red, black);
    const auto config = dir_ / "cat-config";
    ProfileStore(config).update([&](Profile& p) {
        p.put_seat({server_key(server_->endpoint()), 987654, "no-such-token", Color::Red, 0, 0});
    });
    Person& cat = connect("cat", nullptr, config);
    ASSERT_TRUE(eventually([&] { return cat.noticed("could not be resumed"); }));
    EXPECT_TRUE(cat.noticed("#987654"));
    EXPECT_EQ(cat.online.screen(), Screen::Lobby);
    EXPECT_FALSE(cat.online.game_id());
    EXPECT_FALSE(cat.online.held_seat());
    EXPECT_TRUE(ProfileStore(config).load().seats.empty());

    // A live game, but a token that holds no seat in it.
    ProfileStore(config).update([&](Profile& p) {
        p.put_seat({server_key(server_->endpoint()), id, "not-the-token", Color::Black, 0, 0});
    });
    cat.notices.clear();
    cat.online.refresh();
    ASSERT_TRUE(cat.online.held_seat());
    cat.online.return_to_game();
    ASSERT_TRUE(eventually([&] { return cat.noticed("could not be resumed"); })) << cat.notices.size();
    EXPECT_EQ(cat.online.screen(), Screen::Lobby);
    EXPECT_TRUE(ProfileStore(config).load().seats.empty());
    EXPECT_EQ(black.game.seat(Color::Black).name, "bob");  // bob's seat untouched
}

// Another running client of the same user holds the saved seat: connecting does not take it
// away, but the lobby offers it.
TEST_F(ClientOnline, SeatOfAnotherRunningClientIsOfferedNotTaken) {
    const auto config = dir_ / "ann-config";
    ProfileStore(config).update([&](Profile& p) {
        // pid 1 is always running, and never this test.
        p.put_seat({server_key(server_->endpoint()), 42, "token", Color::Red, 0, 1});
    });
    Person& ann = connect("ann", nullptr, config);
    ASSERT_TRUE(settled(ann));
    EXPECT_EQ(ann.online.screen(), Screen::Lobby);
    EXPECT_FALSE(ann.online.game_id());
    ASSERT_TRUE(ann.online.held_seat());
    EXPECT_EQ(ann.online.held_seat()->game_id, 42u);
    EXPECT_TRUE(ann.notices.empty());
}

// Accounts from the client's side, against a server with accounts optional: a registration's
// session token is kept in a 0600 file per server and logs the next run in by itself; the lobby
// line says who is logged in; logout forgets the token; a token the server no longer takes is
// forgotten with a notice; a second machine's login goes back into the account's game.
class ClientAccounts : public ClientOnline {
protected:
    void SetUp() override {
        dir_ = fresh_dir();
        server_ = std::make_unique<InProcessServer>(dir_ / "games.db", proto::AccountsMode::Optional);
    }
};

TEST_F(ClientAccounts, ATokenSavedAtRegistrationLogsTheNextRunIn) {
    const auto config = dir_ / "config";
    Person& first = connect("ann", nullptr, config);
    EXPECT_EQ(first.online.account_line(), "Playing as a guest: ann (guest)");
    first.online.register_account("Ann", "correct horse");
    ASSERT_TRUE(eventually([&] { return first.online.account() == "Ann"; })) << testing::PrintToString(first.notices);
    EXPECT_EQ(first.online.account_line(), "Logged in as Ann");
    const std::string key = to_string(server_->endpoint());
    const auto token = first.store->session_token(key);
    ASSERT_TRUE(token);
    EXPECT_EQ(token->size(), 64u);
    struct stat st {};
    ASSERT_EQ(::stat(first.store->session_file(key).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    ASSERT_EQ(::stat(first.store->session_file(key).parent_path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    crash(first);

    // The next run, same config folder: logged in by the saved token, no password typed.
    Person& again = connect("whatever", nullptr, config);
    ASSERT_TRUE(eventually([&] { return again.online.account() == "Ann"; }));
    // Logging out revokes the token on the server and forgets it here.
    again.online.log_out();
    ASSERT_TRUE(eventually([&] { return again.online.account().empty(); }));
    EXPECT_FALSE(again.store->session_token(key));
    EXPECT_EQ(again.online.account_line(), "Playing as a guest: whatever (guest)");
}

TEST_F(ClientAccounts, ARevokedTokenIsForgottenWithANotice) {
    const auto config = dir_ / "config";
    const std::string key = to_string(server_->endpoint());
    ProfileStore(config).save_session_token(key, std::string(64, 'a'));  // nobody's token
    Person& p = connect("ann", nullptr, config);
    ASSERT_TRUE(eventually([&] { return p.noticed("expired"); }));
    EXPECT_FALSE(p.store->session_token(key));
    EXPECT_TRUE(p.online.account().empty());
    p.online.log_in("nobody", "wrong password");
    ASSERT_TRUE(eventually([&] { return p.noticed("wrong name or password"); }));
}

TEST_F(ClientAccounts, LoggingInOnAnotherMachineGoesBackIntoTheAccountsGame) {
    Person& ann = connect("ann", nullptr, dir_ / "machine1");
    ann.online.register_account("ann", "correct horse");
    ASSERT_TRUE(eventually([&] { return ann.online.account() == "ann"; }));
    Person& bob = connect("bob");
    const auto id = start_game(ann, bob);
    play(ann, "h2e2", {&ann, &bob});

    // Another machine: its own config folder, nothing saved; a password login.
    auto& other = *people_.emplace_back(std::make_unique<Person>("ann", dir_ / "machine2"));
    other.online.log_in("ann", "correct horse");  // asked before the link is up: sent once it is
    other.online.connect(server_->endpoint(), "ann");
    ASSERT_TRUE(eventually([&] { return other.online.game_id() == id && other.game.ply_count() == 1; }));
    EXPECT_EQ(other.online.account(), "ann");
    EXPECT_EQ(other.online.screen(), Screen::Game);
    EXPECT_EQ(other.game.role(), Role::Red);
    play(bob, "h9g7", {&other, &bob});
    play(other, "h0g2", {&other, &bob});
}

// Rated play through the adapter: a rated game created from the lobby shows in another lobby as
// rated with its host's provisional rating, both seats carry ratings, a premove queued out of turn
// goes out with the opponent's move, the result gives each side its change, and the profile, the
// leaderboard and a password change come back into the client's models.
TEST_F(ClientAccounts, RatedGameProfileLeaderboardAndPassword) {
    Person& ann = connect("ann");
    ann.online.register_account("ann", "correct horse");
    Person& bob = connect("bob");
    bob.online.register_account("bob", "battery staple");
    ASSERT_TRUE(eventually([&] { return ann.online.account() == "ann" && bob.online.account() == "bob"; }));
    ann.online.create(TimeControlChoice{3, 2, std::nullopt}, ColorPick::Red, false, 0, true);
    ASSERT_TRUE(eventually([&] { return ann.online.game_id().has_value(); }));
    const auto id = *ann.online.game_id();
    bob.online.refresh();
    ASSERT_TRUE(eventually([&] { return !bob.lobby.open.empty() && bob.lobby.open.front().id == id; }));
    const LobbyGame listed = bob.lobby.open.front();
    EXPECT_TRUE(listed.rated);
    EXPECT_EQ(listed.speed, "Blitz");
    EXPECT_EQ(listed.host_rating, "1500?");
    bob.online.join(id);
    ASSERT_TRUE(eventually([&] { return ann.game.phase() == Phase::Playing && bob.game.phase() == Phase::Playing; }));
    EXPECT_TRUE(bob.game.rated());
    EXPECT_EQ(rating_text(bob.game.seat(Color::Red).rating), "1500?");
    // bob queues his answer before ann moves: it is played the moment her move arrives.
    bob.game.click(*parse_square("h9"));
    bob.game.click(*parse_square("g7"));
    ASSERT_EQ(bob.game.premove(), mv("h9g7"));
    play(ann, "h2e2", {&ann, &bob});
    ASSERT_TRUE(eventually([&] { return ann.game.ply_count() == 2 && bob.game.ply_count() == 2; }));
    EXPECT_EQ(ann.game.moves()[1], mv("h9g7"));
    // bob mutes the players' chat: ann's next line reaches her own screen, not his.
    bob.online.mute_chat(true);
    EXPECT_TRUE(bob.online.chat_muted());
    ASSERT_TRUE(settled(bob));  // the server has taken the Mute
    ann.online.chat("you will not hear this");
    play(ann, "h0g2", {&ann, &bob});
    const auto said = [](const Person& p) {
        return std::ranges::any_of(p.game.chat(), [](const ChatEntry& c) { return c.text == "you will not hear this"; });
    };
    ASSERT_TRUE(eventually([&] { return said(ann); }));
    play(bob, "b9c7", {&ann, &bob});
    EXPECT_FALSE(said(bob));
    ann.online.resign();
    ASSERT_TRUE(eventually([&] { return !ann.game.rating_change(Color::Red).empty() && !bob.game.rating_change(Color::Black).empty(); }));
    EXPECT_TRUE(ann.game.rating_change(Color::Red).starts_with("-"));
    EXPECT_TRUE(bob.game.rating_change(Color::Black).starts_with("+"));
    EXPECT_EQ(ann.game.rating_change(Color::Black), bob.game.rating_change(Color::Black));  // both see both
    EXPECT_GT(bob.game.seat(Color::Black).rating->rating, 1500);  // the seat shows the new rating

    ann.online.leave();
    ann.online.open_profile("bob");
    EXPECT_EQ(ann.online.screen(), Screen::Profile);
    ASSERT_TRUE(eventually([&] { return ann.online.ratings().profile.has_value() && !ann.lobby.archive.empty(); }));
    const ProfileView& profile = *ann.online.ratings().profile;
    EXPECT_EQ(profile.name, "bob");
    EXPECT_EQ(profile.wins, 1u);
    ASSERT_EQ(profile.speeds.size(), 4u);
    EXPECT_EQ(profile.speeds[1].speed, SpeedPool::Blitz);
    ASSERT_EQ(profile.speeds[1].history.size(), 1u);
    EXPECT_EQ(profile.speeds[1].history[0].game_id, id);
    EXPECT_EQ(ann.lobby.archive.front().id, id);  // the profile's games: ListArchive by player
    ann.online.open_profile("nobody-at-all");
    ASSERT_TRUE(eventually([&] { return !ann.online.ratings().profile_error.empty(); }));
    EXPECT_EQ(ann.online.ratings().profile_error, "No account is called nobody-at-all.");

    ann.online.open_leaderboard(SpeedPool::Rapid);
    EXPECT_EQ(ann.online.screen(), Screen::Leaderboard);
    ASSERT_TRUE(eventually([&] { return ann.online.ratings().leaderboard_loaded; }));
    EXPECT_EQ(ann.online.ratings().board_speed, SpeedPool::Rapid);
    EXPECT_TRUE(ann.online.ratings().leaderboard.empty());  // nobody has a settled rapid rating
    ann.online.close_page();
    EXPECT_EQ(ann.online.screen(), Screen::Lobby);

    ann.online.change_password("wrong", "new password here");
    ASSERT_TRUE(eventually([&] { return !ann.online.password_status().pending; }));
    EXPECT_FALSE(ann.online.password_status().ok);
    EXPECT_FALSE(ann.online.password_status().text.empty());
    ann.online.change_password("correct horse", "new password here");
    ASSERT_TRUE(eventually([&] { return !ann.online.password_status().pending; }));
    EXPECT_TRUE(ann.online.password_status().ok) << ann.online.password_status().text;
    EXPECT_EQ(ann.online.password_status().text, "Password changed.");
}

}  // namespace
}  // namespace xq::client
