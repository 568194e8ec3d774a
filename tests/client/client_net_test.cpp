// The client's network adapter over real loopback sockets: Connection against the server started
// in-process on an ephemeral port (and against small fake servers for the hostile cases), LAN
// discovery against the server's responder, and LocalServer with the real xiangqi-server binary.

#include <gtest/gtest.h>

#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <thread>

#include "client/net/connection.h"
#include "client/net/discovery_browser.h"
#include "client/net/endpoint.h"
#include "client/net/local_server.h"
#include "proto/frame.h"
#include "server/net/server.h"

namespace xq {
namespace {

using namespace std::chrono_literals;
using client::Connection;
using client::Endpoint;
using client::Incoming;
using client::LinkDown;
using client::LinkState;
using client::LinkUp;
using client::NetEvent;
namespace asio = server::asio;
using server::tcp;

constexpr auto kPatience = 10s;  // long enough for a loaded 2-core machine; only failures wait it out

// Polls `done` until it holds or the patience runs out.
bool eventually(const std::function<bool()>& done, std::chrono::milliseconds patience = kPatience) {
    const auto until = std::chrono::steady_clock::now() + patience;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

// Everything a Connection reported, and waiting for the next event of a kind.
class Events {
public:
    explicit Events(Connection& connection) : connection_(connection) {}

    // The first event after the last one taken that is a T and satisfies `match`.
    template <class T>
    std::optional<T> next(const std::function<bool(const T&)>& match = [](const T&) { return true; }) {
        std::optional<T> found;
        eventually([&] {
            for (auto& event : connection_.poll()) seen_.push_back(std::move(event));
            for (; cursor_ < seen_.size(); ++cursor_)
                if (const T* e = std::get_if<T>(&seen_[cursor_]); e && match(*e)) {
                    found = *e;
                    ++cursor_;
                    return true;
                }
            return false;
        });
        return found;
    }

    // The reply to request `id` (a body of kind Body).
    template <class Body>
    std::optional<Body> reply(std::uint64_t id) {
        const auto in = next<Incoming>([&](const Incoming& i) { return i.message.request_id == id; });
        if (!in) return std::nullopt;
        const Body* body = std::get_if<Body>(&in->message.body);
        if (!body) {
            ADD_FAILURE() << "reply " << id << " is of kind " << in->message.body.index();
            return std::nullopt;
        }
        return *body;
    }

    template <class Body>
    std::optional<Body> pushed() {
        const auto in = next<Incoming>([](const Incoming& i) { return std::holds_alternative<Body>(i.message.body); });
        if (!in) return std::nullopt;
        return std::get<Body>(in->message.body);
    }

    const std::vector<NetEvent>& all() {
        for (auto& event : connection_.poll()) seen_.push_back(std::move(event));
        return seen_;
    }

private:
    Connection& connection_;
    std::vector<NetEvent> seen_;
    std::size_t cursor_ = 0;
};

// A port nobody listens on (bound, then released).
std::uint16_t closed_port() {
    asio::io_context io;
    tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    return acceptor.local_endpoint().port();
}

std::filesystem::path fresh_dir(const std::string& what) {
    static int counter = 0;
    auto dir = std::filesystem::temp_directory_path() /
               ("xq-client-net-" + what + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(dir);
    return dir;
}

// The real server in-process on its own io thread; stop() and start() again reuse its port.
class InProcessServer {
public:
    explicit InProcessServer(const std::filesystem::path& db, std::uint16_t port = 0) { start(db, port); }
    ~InProcessServer() { stop(); }

    void start(const std::filesystem::path& db, std::uint16_t port) {
        server::ServerConfig config;
        config.listen = tcp::endpoint(asio::ip::make_address("127.0.0.1"), port);
        config.db = db;
        config.accounts = proto::AccountsMode::Off;  // names as typed
        config.name = "test server";
        config.discovery = 0;  // an ephemeral UDP port
        // A fresh io_context each time: the stopped one may still hold the old server's handlers.
        io_ = std::make_unique<asio::io_context>(1);
        server_ = std::make_unique<server::Server>(*io_, config);
        server_->start();
        thread_ = std::thread([this] { io_->run(); });
    }
    void stop() {
        if (!server_) return;
        asio::post(*io_, [this] {
            server_->stop();
            io_->stop();
        });
        thread_.join();
        server_.reset();
        io_.reset();
    }
    std::uint16_t port() const { return server_->port(); }
    std::uint16_t discovery_port() const { return server_->discovery_port().value_or(0); }
    Endpoint endpoint() const { return {"127.0.0.1", port()}; }

private:
    std::unique_ptr<asio::io_context> io_;
    std::unique_ptr<server::Server> server_;
    std::thread thread_;
};

class ClientNetServer : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fresh_dir("test");
        server_ = std::make_unique<InProcessServer>(dir_ / "test.db");
    }
    void TearDown() override {
        server_.reset();
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }

    std::filesystem::path dir_;
    std::unique_ptr<InProcessServer> server_;
};

const proto::TimeControl kBlitz{5, 3, std::nullopt};

TEST(ClientNetEndpoint, ParsesHostsPortsAndIpv6) {
    using client::parse_endpoint;
    EXPECT_EQ(parse_endpoint("localhost"), (Endpoint{"localhost", 7777}));
    EXPECT_EQ(parse_endpoint("example.org:9000"), (Endpoint{"example.org", 9000}));
    EXPECT_EQ(parse_endpoint(" 192.168.1.20:7000 \n"), (Endpoint{"192.168.1.20", 7000}));
    EXPECT_EQ(parse_endpoint("[::1]:8000"), (Endpoint{"::1", 8000}));
    EXPECT_EQ(parse_endpoint("[fe80::1]"), (Endpoint{"fe80::1", 7777}));
    EXPECT_EQ(parse_endpoint("::1"), (Endpoint{"::1", 7777}));
    EXPECT_EQ(parse_endpoint("host", 9999), (Endpoint{"host", 9999}));
    EXPECT_EQ(parse_endpoint("host:65535"), (Endpoint{"host", 65535}));
    for (const char* bad : {"", "   ", ":7777", "host:", "host:0", "host:65536", "host:70000", "host:12ab", "host:-1",
                            "[::1", "[::1]7777", "[::1]:", "[]:7777", "[]"})
        EXPECT_FALSE(parse_endpoint(bad).has_value()) << '"' << bad << '"';
}

TEST(ClientNetEndpoint, PrintsWithBracketsForIpv6) {
    EXPECT_EQ(client::to_string(Endpoint{"::1", 7777}), "[::1]:7777");
    EXPECT_EQ(client::to_string(Endpoint{"example.org", 9000}), "example.org:9000");
    for (const Endpoint& e : {Endpoint{"::1", 1}, Endpoint{"10.0.0.2", 7777}, Endpoint{"a-host", 65535}})
        EXPECT_EQ(client::parse_endpoint(client::to_string(e)), e);
}

TEST_F(ClientNetServer, ConnectsAndMatchesRepliesToRequestIds) {
    std::atomic<int> wakes{0};
    Connection connection([&] { ++wakes; });
    EXPECT_EQ(connection.state(), LinkState::Idle);
    connection.open(server_->endpoint(), "Ann");
    Events events(connection);
    const auto up = events.next<LinkUp>();
    ASSERT_TRUE(up);
    EXPECT_EQ(up->server_name, "test server");
    EXPECT_EQ(up->attempt, 0);
    EXPECT_EQ(connection.state(), LinkState::Online);
    EXPECT_GT(wakes.load(), 0);

    const auto first = connection.send(proto::ListGames{});
    const auto second = connection.send(proto::ListGames{});
    EXPECT_EQ(first, 1u);
    EXPECT_EQ(second, 2u);
    const auto list = events.reply<proto::GameList>(first);
    ASSERT_TRUE(list);
    EXPECT_TRUE(list->open.empty());
    EXPECT_TRUE(events.reply<proto::GameList>(second));
    // Refused requests come back as errors with their id, like any reply.
    const auto bad = connection.send(proto::JoinGame{999, ""});
    const auto error = events.reply<proto::Error>(bad);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code, proto::ErrorCode::NoSuchGame);
    for (const auto& event : events.all())  // the link's own Welcome and Pongs never reach the UI
        if (const auto* in = std::get_if<Incoming>(&event)) {
            EXPECT_FALSE(std::holds_alternative<proto::Welcome>(in->message.body));
            EXPECT_FALSE(std::holds_alternative<proto::Pong>(in->message.body));
        }
}

TEST_F(ClientNetServer, TwoConnectionsPlayOneGame) {
    Connection red, black;
    red.open(server_->endpoint(), "Red");
    black.open(server_->endpoint(), "Black");
    Events red_events(red), black_events(black);
    ASSERT_TRUE(red_events.next<LinkUp>());
    ASSERT_TRUE(black_events.next<LinkUp>());

    const auto created = red_events.reply<proto::Seated>(red.send(proto::CreateGame{kBlitz, proto::ColorChoice::Red, false}));
    ASSERT_TRUE(created);
    EXPECT_EQ(created->side, proto::Side::Red);
    const auto joined = black_events.reply<proto::Seated>(black.send(proto::JoinGame{created->game_id, ""}));
    ASSERT_TRUE(joined);
    EXPECT_EQ(joined->side, proto::Side::Black);
    const auto red_start = red_events.pushed<proto::GameStarted>();
    const auto black_start = black_events.pushed<proto::GameStarted>();
    ASSERT_TRUE(red_start);
    ASSERT_TRUE(black_start);
    EXPECT_EQ(red_start->game_id, created->game_id);
    EXPECT_EQ(red_start->red, "Red");
    EXPECT_EQ(black_start->black, "Black");

    const auto move = red.send(proto::MakeMove{created->game_id, "h2e2", 1, 0});
    const auto made = red_events.reply<proto::MoveMade>(move);
    ASSERT_TRUE(made);
    EXPECT_EQ(made->ply, 1u);
    const auto seen = black_events.pushed<proto::MoveMade>();
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->move, "h2e2");
}

TEST_F(ClientNetServer, ReconnectsWhenTheServerComesBackOnTheSamePort) {
    Connection connection;
    connection.open(server_->endpoint(), "Ann");
    Events events(connection);
    ASSERT_TRUE(events.next<LinkUp>());
    const std::uint16_t port = server_->port();

    server_->stop();
    const auto down = events.next<LinkDown>();
    ASSERT_TRUE(down);
    EXPECT_TRUE(down->retrying);
    EXPECT_FALSE(down->reason.empty());
    EXPECT_NE(connection.state(), LinkState::Online);
    EXPECT_EQ(connection.send(proto::ListGames{}), 0u);

    server_->start(dir_ / "test.db", port);
    const auto up = events.next<LinkUp>();
    ASSERT_TRUE(up);
    EXPECT_GE(up->attempt, 1);
    EXPECT_EQ(up->server_name, "test server");
    const auto id = connection.send(proto::ListGames{});
    EXPECT_NE(id, 0u);
    EXPECT_TRUE(events.reply<proto::GameList>(id));
}

TEST(ClientNet, RetriesAClosedPortUntilClosed) {
    Connection connection;
    EXPECT_EQ(connection.send(proto::ListGames{}), 0u);  // never opened
    connection.open(Endpoint{"127.0.0.1", closed_port()}, "Ann");
    Events events(connection);
    const auto refused = events.next<LinkDown>();
    ASSERT_TRUE(refused);
    EXPECT_TRUE(refused->retrying);
    EXPECT_NE(refused->reason.find("refused"), std::string::npos) << refused->reason;
    EXPECT_EQ(connection.send(proto::ListGames{}), 0u);

    connection.close();
    EXPECT_EQ(connection.state(), LinkState::Closed);
    const auto closed = events.next<LinkDown>([](const LinkDown& d) { return !d.retrying; });
    ASSERT_TRUE(closed);
    EXPECT_EQ(closed->reason, "closed");
    connection.close();  // idempotent: no second event
    const auto& all = events.all();
    ASSERT_FALSE(all.empty());
    const auto* last = std::get_if<LinkDown>(&all.back());
    ASSERT_NE(last, nullptr);
    EXPECT_FALSE(last->retrying);
    EXPECT_EQ(std::count_if(all.begin(), all.end(),
                            [](const NetEvent& e) {
                                const auto* d = std::get_if<LinkDown>(&e);
                                return d && !d->retrying;
                            }),
              1);
    EXPECT_EQ(connection.send(proto::ListGames{}), 0u);
}

// A one-connection-at-a-time fake server: reads the client's Hello, then runs `script`.
class FakeServer {
public:
    using Script = std::function<void(tcp::socket&, const proto::ClientMessage& hello)>;
    explicit FakeServer(Script script)
        : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), script_(std::move(script)) {
        thread_ = std::thread([this] { serve(); });
    }
    ~FakeServer() {
        stop_ = true;
        thread_.join();
    }
    Endpoint endpoint() const { return {"127.0.0.1", acceptor_.local_endpoint().port()}; }
    int connections() const { return connections_; }

private:
    static bool readable(int fd, int ms) {
        pollfd ready{fd, POLLIN, 0};
        return ::poll(&ready, 1, ms) > 0;
    }
    void serve() {
        while (!stop_) {
            if (!readable(acceptor_.native_handle(), 50)) continue;
            boost::system::error_code ec;
            tcp::socket socket(io_);
            acceptor_.accept(socket, ec);
            if (ec) continue;
            ++connections_;
            proto::FrameReader reader;
            std::optional<proto::ClientMessage> hello;
            while (!hello && !stop_ && readable(socket.native_handle(), 5000)) {
                char buffer[1024];
                const std::size_t n = socket.read_some(asio::buffer(buffer), ec);
                if (ec) break;
                auto payloads = reader.feed(std::string_view(buffer, n));
                if (payloads && !payloads->empty()) {
                    auto decoded = proto::decode_client(payloads->front());
                    if (decoded) hello = *decoded;
                }
            }
            if (hello) script_(socket, *hello);
        }
    }

    asio::io_context io_;
    tcp::acceptor acceptor_;
    Script script_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<int> connections_{0};
};

void write_all(tcp::socket& socket, std::string_view bytes) {
    boost::system::error_code ignored;
    asio::write(socket, asio::buffer(bytes.data(), bytes.size()), ignored);
}

TEST(ClientNet, UnsupportedVersionIsFinal) {
    FakeServer fake([](tcp::socket& socket, const proto::ClientMessage& hello) {
        const auto* h = std::get_if<proto::Hello>(&hello.body);
        EXPECT_TRUE(h && h->client == "xiangqi-sfml/0.1" && h->player_name == "Ann" &&
                    h->protocol_version == proto::kProtocolVersion);
        proto::Error refusal;
        refusal.code = proto::ErrorCode::UnsupportedVersion;
        refusal.message = "this server speaks protocol 2, the client 1";
        write_all(socket, proto::encode_frame(proto::ServerMessage{hello.request_id, refusal}));
    });
    Connection connection;
    connection.open(fake.endpoint(), "Ann");
    Events events(connection);
    const auto down = events.next<LinkDown>();
    ASSERT_TRUE(down);
    EXPECT_FALSE(down->retrying);
    EXPECT_EQ(down->reason, "this server speaks protocol 2, the client 1");
    EXPECT_EQ(connection.state(), LinkState::Closed);
    EXPECT_EQ(fake.connections(), 1);
    connection.close();  // already ended for good: nothing more to report
    EXPECT_EQ(events.all().size(), 1u);
}

TEST(ClientNet, AnOversizedFrameLosesTheLink) {
    FakeServer fake([](tcp::socket& socket, const proto::ClientMessage& hello) {
        write_all(socket, proto::encode_frame(proto::ServerMessage{hello.request_id, proto::Welcome{"fake", 1, "s"}}));
        const char header[4] = {0x00, 0x10, 0x00, 0x00};  // 1 MiB announced
        write_all(socket, std::string_view(header, 4));
    });
    Connection connection;
    connection.open(fake.endpoint(), "Ann");
    Events events(connection);
    // The Welcome may arrive in the same read as the bad header, and a FrameReader drops what
    // came with an oversized frame, so a LinkUp before the LinkDown is not guaranteed.
    const auto down = events.next<LinkDown>();
    ASSERT_TRUE(down);
    EXPECT_TRUE(down->retrying);
    EXPECT_NE(down->reason.find("frame"), std::string::npos) << down->reason;
    EXPECT_TRUE(eventually([&] { return fake.connections() >= 2; }));  // and it tries again
}

TEST_F(ClientNetServer, DiscoveryFindsTheServer) {
    client::DiscoveryBrowser browser(server_->discovery_port(), {"255.255.255.255", "127.0.0.1"});
    EXPECT_FALSE(browser.searching());
    EXPECT_TRUE(browser.servers().empty());
    browser.refresh();
    const auto found_here = [&] {
        for (const auto& s : browser.servers())
            if (s.address == "127.0.0.1") return true;
        return false;
    };
    // A reply lost on a busy machine is asked again: each search lasts about 1.5 s.
    ASSERT_TRUE(eventually([&] {
        if (found_here()) return true;
        if (!browser.searching()) browser.refresh();
        return false;
    }));
    for (const auto& s : browser.servers()) {
        EXPECT_EQ(s.name, "test server");
        EXPECT_EQ(s.port, server_->port());
        EXPECT_EQ(s.open_games, 0u);
    }
    const auto servers = browser.servers();
    const auto here = std::find_if(servers.begin(), servers.end(), [](const auto& s) { return s.address == "127.0.0.1"; });
    ASSERT_NE(here, servers.end());
    EXPECT_EQ(here->endpoint(), server_->endpoint());
    EXPECT_TRUE(eventually([&] { return !browser.searching(); }));
}

TEST(ClientNet, DiscoveryWithNobodyAnsweringFindsNothing) {
    client::DiscoveryBrowser browser(closed_port(), {"127.0.0.1", "not-an-address"});
    browser.refresh();
    EXPECT_TRUE(eventually([&] { return !browser.searching(); }));
    EXPECT_TRUE(browser.servers().empty());
}

TEST(ClientNetLocalServer, StartsTheRealServerAndStopsIt) {
    const auto dir = fresh_dir("local");
    client::LocalServerOptions options;
    options.binary = XQ_SERVER_BIN_PATH;
    options.db = dir / "local.db";
    options.name = "local test";
    pid_t pid = -1;
    {
        auto server = client::LocalServer::start(options);
        ASSERT_TRUE(server.has_value()) << server.error();
        EXPECT_GT(server->port(), 0);
        pid = server->pid();
        EXPECT_GT(pid, 0);

        // Moving it keeps one owner of the child.
        client::LocalServer owner = std::move(*server);
        Connection connection;
        connection.open(Endpoint{"127.0.0.1", owner.port()}, "Ann");
        Events events(connection);
        const auto up = events.next<LinkUp>();
        ASSERT_TRUE(up);
        EXPECT_EQ(up->server_name, "local test");
        EXPECT_TRUE(events.reply<proto::GameList>(connection.send(proto::ListGames{})));
        connection.close();
    }
    // Reaped: the pid no longer names a process of ours.
    EXPECT_EQ(::kill(pid, 0), -1);
    EXPECT_TRUE(std::filesystem::exists(dir / "xiangqi-server.log"));
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
}

TEST(ClientNetLocalServer, ReportsFailuresInsteadOfCrashing) {
    client::LocalServerOptions options;
    options.binary = "/nonexistent/xiangqi-server";
    const auto missing = client::LocalServer::start(options);
    ASSERT_FALSE(missing.has_value());
    EXPECT_NE(missing.error().find("not found"), std::string::npos) << missing.error();

    if (std::filesystem::exists("/bin/false")) {
        options.binary = "/bin/false";
        const auto exits = client::LocalServer::start(options);
        ASSERT_FALSE(exits.has_value());
        EXPECT_NE(exits.error().find("exited with status 1"), std::string::npos) << exits.error();
    }

    // The real server refusing its arguments: the error carries what it said.
    options.binary = XQ_SERVER_BIN_PATH;
    options.listen_address = "not-an-address";
    const auto refused = client::LocalServer::start(options);
    ASSERT_FALSE(refused.has_value());
    EXPECT_NE(refused.error().find("--listen"), std::string::npos) << refused.error();
}

TEST(ClientNetLocalServer, FindsTheBinaryThroughTheEnvironment) {
    const char* before = std::getenv("XQ_SERVER_BIN");
    const std::string saved = before ? before : "";
    ::setenv("XQ_SERVER_BIN", XQ_SERVER_BIN_PATH, 1);
    EXPECT_EQ(client::find_server_binary(), std::filesystem::path(XQ_SERVER_BIN_PATH));
    if (before)
        ::setenv("XQ_SERVER_BIN", saved.c_str(), 1);
    else
        ::unsetenv("XQ_SERVER_BIN");
}

}  // namespace
}  // namespace xq
