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
#include <fstream>
#include <functional>
#include <thread>

#include "client/net/connection.h"
#include "client/net/discovery_browser.h"
#include "client/net/endpoint.h"
#include "client/net/local_server.h"
#include "proto/frame.h"
#include "server/net/server.h"
#include "tls/certificate.h"
#include "tls/context.h"

#include <sys/stat.h>

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

// The in-process servers of these tests serve plain TCP unless a test makes them TLS.
const client::Security kPlain{.plain = true, .expected = {}, .known_hosts = {}, .accept_new = false};

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
    // `tls`: with the self-signed certificate kept beside `db` (made when missing), as the binary does.
    explicit InProcessServer(const std::filesystem::path& db, std::uint16_t port = 0, bool tls = false) : tls_(tls) {
        start(db, port);
    }
    ~InProcessServer() { stop(); }

    void start(const std::filesystem::path& db, std::uint16_t port) {
        server::ServerConfig config;
        config.listen = tcp::endpoint(asio::ip::make_address("127.0.0.1"), port);
        config.db = db;
        config.accounts = proto::AccountsMode::Off;  // names as typed
        config.name = "test server";
        config.discovery = 0;  // an ephemeral UDP port
        if (tls_) {
            const auto files = tls::files_beside(db);
            EXPECT_TRUE(tls::ensure_self_signed(files, "test server"));
            config.tls = *tls::server_context(files);
            config.fingerprint = fingerprint_ = *tls::fingerprint_of_file(files.cert);
        }
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
    const std::string& fingerprint() const { return fingerprint_; }

private:
    bool tls_ = false;
    std::string fingerprint_;
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
    connection.set_security(kPlain);
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
    red.set_security(kPlain);
    red.open(server_->endpoint(), "Red");
    black.set_security(kPlain);
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
    connection.set_security(kPlain);
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
    connection.set_security(kPlain);
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
    connection.set_security(kPlain);
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
    connection.set_security(kPlain);
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
        // The real binary serves TLS; the client trusts the fingerprint it logged (./xq play).
        connection.set_security(client::Security{.plain = false, .expected = owner.fingerprint(), .known_hosts = {}, .accept_new = false});
        EXPECT_EQ(owner.fingerprint().size(), 64u);
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

// ---- TLS and trust (issue 18) ----

TEST(ClientTrust, JudgesTheHandshake) {
    using client::TrustVerdict;
    const std::string a(64, 'a'), b(64, 'b');
    const client::Security ask{}, headless{.plain = false, .expected = {}, .known_hosts = {}, .accept_new = true},
        announced{.plain = false, .expected = a, .known_hosts = {}, .accept_new = false};
    struct Case {
        bool chain_ok;
        std::optional<std::string> known;
        const client::Security* security;
        TrustVerdict verdict;
    };
    for (const Case& c : {Case{true, std::nullopt, &ask, TrustVerdict::TrustedByCa},
                          Case{true, b, &ask, TrustVerdict::TrustedByCa},  // a real certificate now: fine
                          Case{false, a, &ask, TrustVerdict::TrustedPinned},
                          Case{false, b, &ask, TrustVerdict::Changed},
                          Case{false, b, &headless, TrustVerdict::Changed},  // accept-new never overrides a change
                          Case{false, std::nullopt, &ask, TrustVerdict::Unknown},
                          Case{false, std::nullopt, &headless, TrustVerdict::TrustedNew},
                          Case{false, std::nullopt, &announced, TrustVerdict::TrustedNew}})
        EXPECT_EQ(client::judge(c.chain_ok, a, c.known, *c.security).verdict, c.verdict);
    // Discovery announced one certificate, the handshake shows another.
    const client::Security other{.plain = false, .expected = b, .known_hosts = {}, .accept_new = true};
    const auto d = client::judge(false, a, std::nullopt, other);
    EXPECT_EQ(d.verdict, TrustVerdict::Changed);
    EXPECT_EQ(d.known, b);
}

TEST(ClientTrust, KnownHostsAreKeptPrivateAndMalformedLinesSkipped) {
    const auto dir = fresh_dir("known");
    const auto path = client::known_hosts_in(dir / "config");
    auto hosts = client::KnownHosts::load(path);
    EXPECT_FALSE(hosts.find("h:1"));
    ASSERT_TRUE(hosts.remember("h:1", std::string(64, 'c')));
    EXPECT_FALSE(hosts.remember("h:2", "not hex"));
    EXPECT_FALSE(hosts.remember("bad host:2", std::string(64, 'c')));
    struct stat st{};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    {
        std::ofstream append(path, std::ios::app);
        append << "junk line\nh:3 sha256:xyz\nh:4 md5:" << std::string(64, 'd') << "\n";
    }
    const auto again = client::KnownHosts::load(path);
    EXPECT_EQ(again.find("h:1"), std::string(64, 'c'));
    EXPECT_FALSE(again.find("h:3"));
    EXPECT_FALSE(again.find("h:4"));
    std::filesystem::remove_all(dir);
}

class ClientNetTls : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fresh_dir("tls");
        server_ = std::make_unique<InProcessServer>(dir_ / "test.db", 0, true);
        security_.known_hosts = client::known_hosts_in(dir_ / "config");
    }
    void TearDown() override {
        server_.reset();
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    std::filesystem::path dir_;
    std::unique_ptr<InProcessServer> server_;
    client::Security security_;
};

// First contact asks (nothing sent); once trusted it is remembered and the next link needs no question.
TEST_F(ClientNetTls, AnUnknownServerIsAskedAboutThenRemembered) {
    {
        Connection connection;
        connection.set_security(security_);
        connection.open(server_->endpoint(), "Ann");
        Events events(connection);
        const auto down = events.next<LinkDown>();
        ASSERT_TRUE(down);
        EXPECT_FALSE(down->retrying);
        ASSERT_TRUE(down->trust);
        EXPECT_FALSE(down->trust->changed);
        EXPECT_EQ(down->trust->presented, server_->fingerprint());
        EXPECT_NE(down->reason.find(tls::display_fingerprint(server_->fingerprint())), std::string::npos) << down->reason;
        // The person says yes (OnlineClient::trust_server does this).
        auto hosts = client::KnownHosts::load(security_.known_hosts);
        ASSERT_TRUE(hosts.remember(down->trust->server, down->trust->presented));
    }
    Connection connection;
    connection.set_security(security_);
    connection.open(server_->endpoint(), "Ann");
    Events events(connection);
    ASSERT_TRUE(events.next<LinkUp>());
    EXPECT_EQ(events.reply<proto::GameList>(connection.send(proto::ListGames{})).has_value(), true);
}

// The server's certificate is replaced: a known server with a new fingerprint is refused, naming both.
TEST_F(ClientNetTls, AChangedCertificateIsRefusedNamingBothFingerprints) {
    const std::string old_fingerprint = server_->fingerprint();
    ASSERT_TRUE(client::KnownHosts::load(security_.known_hosts).remember(client::to_string(server_->endpoint()), old_fingerprint));
    const auto port = server_->port();
    server_->stop();
    const auto files = tls::files_beside(dir_ / "test.db");
    std::filesystem::remove(files.cert);
    std::filesystem::remove(files.key);
    server_ = std::make_unique<InProcessServer>(dir_ / "test.db", port, true);
    ASSERT_NE(server_->fingerprint(), old_fingerprint);

    Connection connection;
    connection.set_security(security_);
    connection.open(server_->endpoint(), "Ann");
    Events events(connection);
    const auto down = events.next<LinkDown>();
    ASSERT_TRUE(down);
    EXPECT_FALSE(down->retrying);
    ASSERT_TRUE(down->trust && down->trust->changed);
    EXPECT_EQ(down->trust->known, old_fingerprint);
    EXPECT_EQ(down->trust->presented, server_->fingerprint());
    EXPECT_NE(down->reason.find(tls::display_fingerprint(old_fingerprint)), std::string::npos) << down->reason;
    EXPECT_NE(down->reason.find(tls::display_fingerprint(server_->fingerprint())), std::string::npos) << down->reason;
    EXPECT_EQ(client::KnownHosts::load(security_.known_hosts).find(client::to_string(server_->endpoint())),
              old_fingerprint) << "a refused certificate is not remembered";
}

// LAN discovery announces the fingerprint; a client that takes it needs no question.
TEST_F(ClientNetTls, TheFingerprintDiscoveryAnnouncesNeedsNoQuestion) {
    client::DiscoveryBrowser browser(server_->discovery_port(), {"127.0.0.1"});
    std::string announced;
    ASSERT_TRUE(eventually([&] {
        for (const auto& s : browser.servers())
            if (s.port == server_->port()) announced = s.fingerprint;
        if (!announced.empty()) return true;
        if (!browser.searching()) browser.refresh();
        return false;
    }));
    EXPECT_EQ(announced, server_->fingerprint());
    security_.expected = announced;
    Connection connection;
    connection.set_security(security_);
    connection.open(server_->endpoint(), "Ann");
    Events events(connection);
    ASSERT_TRUE(events.next<LinkUp>());
    EXPECT_EQ(client::KnownHosts::load(security_.known_hosts).find(client::to_string(server_->endpoint())), announced);
}

// No silent fallback: a TLS client gets no link to a plain server, a plain client none to a TLS one.
TEST_F(ClientNetTls, PlainAndTlsNeverMeetSilently) {
    Connection plain;
    plain.set_security(kPlain);
    plain.open(server_->endpoint(), "Ann");
    Events plain_events(plain);
    EXPECT_TRUE(plain_events.next<LinkDown>());
    EXPECT_NE(plain.state(), LinkState::Online);
}

}  // namespace
}  // namespace xq
