// TLS on the game port (issue 18), over real loopback sockets: a game end to end, the hostile
// handshakes (silent, garbage, slowloris, a plain client), and an on-path recorder that must
// see no name, move, resume token or join code of a whole private game.

#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <mutex>
#include <thread>

#include <sys/socket.h>

#include "proto/codec.h"
#include "support/server_fixture.h"
#include "tls/certificate.h"
#include "tls/context.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::TestClient;
using test::as;
namespace asio = boost::asio;
using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

const TimeControl kBlitz{5, 3, std::nullopt};

class TlsServerTest : public test::ServerFixture {
protected:
    void configure(server::ServerConfig& config) override {
        const auto files = tls::files_beside(config.db);
        EXPECT_TRUE(tls::make_self_signed(files, "test server"));
        auto context = tls::server_context(files);
        EXPECT_TRUE(context) << context.error();
        config.tls = *context;
        fingerprint_ = *tls::fingerprint_of_file(files.cert);
        config.session.handshake_timeout = 600ms;
        config.connections.max_per_address = 8;
    }
    std::unique_ptr<TestClient> tls_client(const std::string& name, std::uint16_t port = 0) {
        auto c = std::make_unique<TestClient>(TestClient::Tls{}, "127.0.0.1", port ? port : server_->port());
        c->hello(name);
        return c;
    }
    std::size_t sessions() {
        std::promise<std::size_t> count;
        asio::post(io_, [&] { count.set_value(server_->connections()); });
        return count.get_future().get();
    }
    // Waits (at most `limit`) until the server holds `n` connections.
    bool sessions_drop_to(std::size_t n, std::chrono::milliseconds limit) {
        const auto end = Clock::now() + limit;
        while (Clock::now() < end) {
            if (sessions() == n) return true;
            std::this_thread::sleep_for(20ms);
        }
        return sessions() == n;
    }
    std::string fingerprint_;
};

TEST_F(TlsServerTest, PlaysAGameOverTls) {
    auto red = tls_client("Red");
    auto black = tls_client("Black");
    EXPECT_EQ(red->peer_fingerprint(), fingerprint_);
    const auto seated = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{seated.game_id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());
    ASSERT_TRUE(black->wait_for<GameStarted>());
    const char* moves[] = {"h2e2", "h9g7", "h0g2", "i9h9"};
    for (std::uint32_t ply = 0; ply < 4; ++ply) {
        TestClient& mover = ply % 2 == 0 ? *red : *black;
        TestClient& other = ply % 2 == 0 ? *black : *red;
        EXPECT_EQ(as<MoveMade>(mover.call(MakeMove{seated.game_id, moves[ply], ply + 1, ply})).ply, ply + 1);
        const auto seen = other.wait_for<MoveMade>();
        ASSERT_TRUE(seen);
        EXPECT_EQ(seen->move, moves[ply]);
    }
    as<GameEnded>(red->call(Resign{seated.game_id}));
}

// Each hostile handshake is closed within the handshake timeout, while a TLS game goes on.
TEST_F(TlsServerTest, HostileHandshakesAreClosedInTime) {
    auto red = tls_client("Red");
    asio::io_context io;
    const tcp::endpoint at{asio::ip::make_address("127.0.0.1"), server_->port()};
    // Silent: connects and says nothing.
    tcp::socket silent(io);
    silent.connect(at);
    // Garbage instead of a ClientHello.
    tcp::socket garbage(io);
    garbage.connect(at);
    asio::write(garbage, asio::buffer(std::string(300, 'G')));
    // Slowloris: a record header announcing a 512-byte ClientHello, then a byte now and then.
    tcp::socket slow(io);
    slow.connect(at);
    asio::write(slow, asio::buffer(std::string("\x16\x03\x01\x02\x00\x01", 6)));
    // A plain client's Hello.
    tcp::socket plain(io);
    plain.connect(at);
    asio::write(plain, asio::buffer(encode_frame(ClientMessage{1, Hello{"old", "Plain", kProtocolVersion}})));
    std::this_thread::sleep_for(100ms);
    EXPECT_GE(sessions(), 3u) << "the silent and the slow are held until the timeout";

    const auto t0 = Clock::now();
    bool slow_closed = false;
    for (int i = 0; i < 30 && !slow_closed; ++i) {
        boost::system::error_code ec;
        asio::write(slow, asio::buffer("\x01", 1), ec);
        slow_closed = static_cast<bool>(ec);
        std::this_thread::sleep_for(100ms);
    }
    EXPECT_TRUE(slow_closed);
    EXPECT_TRUE(sessions_drop_to(1, 3s)) << sessions() << " connections left";
    EXPECT_LT(Clock::now() - t0, 3s);

    // The plain client got no frame of ours: at most a TLS alert record (0x15), then the close.
    std::string got;
    boost::system::error_code ec;
    char buffer[512];
    for (std::size_t n; (n = plain.read_some(asio::buffer(buffer), ec)) > 0 && !ec;) got.append(buffer, n);
    EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
    if (!got.empty()) {
        EXPECT_EQ(got[0], '\x15') << "not a TLS alert";
    }
    EXPECT_EQ(got.find("Welcome"), std::string::npos);

    // The server is still at work.
    EXPECT_EQ(as<Pong>(red->call(Ping{7})).nonce, 7u);
    auto late = tls_client("Late");
    EXPECT_EQ(as<Pong>(late->call(Ping{8})).nonce, 8u);
}

// A session the server ends (here: a frame over the size cap) says so with close_notify, so the
// client reads a clean end of stream, not a truncated one.
TEST_F(TlsServerTest, TheServerClosesWithCloseNotify) {
    asio::io_context io;
    tcp::socket socket(io);
    socket.connect({asio::ip::make_address("127.0.0.1"), server_->port()});
    auto context = tls::client_context();
    asio::ssl::stream<tcp::socket&> stream(socket, *context);
    stream.set_verify_mode(asio::ssl::verify_none);
    stream.handshake(asio::ssl::stream_base::client);
    asio::write(stream, asio::buffer(std::string("\xff\xff\xff\xff", 4)));
    std::string got;
    boost::system::error_code ec;
    char buffer[1024];
    for (std::size_t n; (n = stream.read_some(asio::buffer(buffer), ec)) > 0 && !ec;) got.append(buffer, n);
    EXPECT_EQ(ec, asio::error::eof) << ec.message() << " (stream_truncated: no close_notify)";
    FrameReader reader;
    const auto frames = reader.feed(got);
    ASSERT_TRUE(frames && frames->size() == 1) << "the error frame before the close";
    const auto error = decode_server(frames->front());
    ASSERT_TRUE(error);
    EXPECT_EQ(test::error_of(*error), ErrorCode::FrameTooLarge);
}

// A peer that never answers the server's close_notify does not hold the socket: the server's
// shutdown timer (2 s) closes it, and the peer then reads the end of the TCP stream.
TEST_F(TlsServerTest, APeerThatNeverAnswersCloseNotifyIsDropped) {
    asio::io_context io;
    tcp::socket socket(io);
    socket.connect({asio::ip::make_address("127.0.0.1"), server_->port()});
    auto context = tls::client_context();
    asio::ssl::stream<tcp::socket&> stream(socket, *context);
    stream.set_verify_mode(asio::ssl::verify_none);
    stream.handshake(asio::ssl::stream_base::client);
    asio::write(stream, asio::buffer(std::string("\xff\xff\xff\xff", 4)));
    boost::system::error_code ec;
    char buffer[1024];
    while (stream.read_some(asio::buffer(buffer), ec) > 0 && !ec) {
    }
    ASSERT_EQ(ec, asio::error::eof) << "the server's close_notify: " << ec.message();
    // No close_notify back: the raw socket stays open on our side and is read until the server
    // closes it (a receive timeout far past the server's 2 s keeps a regression from hanging).
    const timeval limit{10, 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    const auto t0 = Clock::now();
    while (socket.read_some(asio::buffer(buffer), ec) > 0 && !ec) {
    }
    EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
    EXPECT_LT(Clock::now() - t0, 9s) << "closed by the server, not by our receive timeout";
}

// A TCP relay that keeps every byte it passes on, both ways: the café Wi-Fi.
class RecordingProxy {
public:
    explicit RecordingProxy(std::uint16_t upstream)
        : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), upstream_(upstream) {
        accepter_ = std::thread([this] { accept(); });
    }
    ~RecordingProxy() {
        boost::system::error_code ignored;
        ::shutdown(acceptor_.native_handle(), SHUT_RDWR);  // wakes the blocked accept
        {
            std::lock_guard lock(mutex_);
            // shutdown wakes a thread blocked in read on that socket; close alone does not.
            for (auto& s : sockets_) s->shutdown(tcp::socket::shutdown_both, ignored);
        }
        accepter_.join();
        for (auto& t : pipes_) t.join();
        acceptor_.close(ignored);
    }
    std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
    std::string captured() {
        std::lock_guard lock(mutex_);
        return captured_;
    }

private:
    void accept() {
        for (;;) {
            auto down = std::make_shared<tcp::socket>(io_);
            boost::system::error_code ec;
            acceptor_.accept(*down, ec);
            if (ec) return;
            auto up = std::make_shared<tcp::socket>(io_);
            up->connect({asio::ip::make_address("127.0.0.1"), upstream_}, ec);
            if (ec) return;
            std::lock_guard lock(mutex_);
            sockets_.push_back(down);
            sockets_.push_back(up);
            pipes_.emplace_back([this, down, up] { pipe(*down, *up); });
            pipes_.emplace_back([this, down, up] { pipe(*up, *down); });
        }
    }
    void pipe(tcp::socket& from, tcp::socket& to) {
        char buffer[4096];
        boost::system::error_code ec;
        for (;;) {
            const std::size_t n = from.read_some(asio::buffer(buffer), ec);
            if (ec) break;
            {
                std::lock_guard lock(mutex_);
                captured_.append(buffer, n);
            }
            asio::write(to, asio::buffer(buffer, n), ec);
            if (ec) break;
        }
        boost::system::error_code ignored;
        to.shutdown(tcp::socket::shutdown_send, ignored);
    }

    asio::io_context io_;
    tcp::acceptor acceptor_;
    std::uint16_t upstream_;
    std::thread accepter_;
    std::mutex mutex_;
    std::vector<std::shared_ptr<tcp::socket>> sockets_;
    std::vector<std::thread> pipes_;
    std::string captured_;
};

// A whole private game through the recorder: created with a join code, joined, Black dropped and
// back with its resume token, then resigned. Returns the captured bytes and every secret.
using Connect = std::function<std::unique_ptr<TestClient>(const std::string& name, std::uint16_t port)>;
std::pair<std::string, std::vector<std::string>> record_a_private_game(std::uint16_t server_port, const Connect& connect) {
    RecordingProxy proxy(server_port);
    const std::string red_name = "Alice-Secret-Red", black_name = "Bob-Secret-Black";
    auto red = connect(red_name, proxy.port());
    auto black = connect(black_name, proxy.port());
    const auto seated = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, true}));
    EXPECT_FALSE(seated.join_code.empty());
    const auto joined = as<Seated>(black->call(JoinGame{seated.game_id, seated.join_code}));
    EXPECT_FALSE(joined.resume_token.empty());
    EXPECT_TRUE(red->wait_for<GameStarted>());
    EXPECT_TRUE(black->wait_for<GameStarted>());
    const std::vector<std::string> moves = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"};
    std::uint32_t ply = 0;
    const auto play = [&](std::uint32_t until) {
        for (; ply < until; ++ply) {
            TestClient& mover = ply % 2 == 0 ? *red : *black;
            TestClient& other = ply % 2 == 0 ? *black : *red;
            as<MoveMade>(mover.call(MakeMove{seated.game_id, moves[ply], ply + 1, ply}));
            EXPECT_TRUE(other.wait_for<MoveMade>());
        }
    };
    play(3);
    black.reset();  // Black drops and comes back through the recorder with its resume token
    black = connect(black_name, proxy.port());
    as<Resumed>(black->call(Resume{seated.game_id, joined.resume_token, 0}));
    play(6);
    as<GameEnded>(red->call(Resign{seated.game_id}));
    red.reset();
    black.reset();
    std::vector<std::string> secrets = {red_name, black_name, seated.join_code, seated.resume_token, joined.resume_token};
    secrets.insert(secrets.end(), moves.begin(), moves.end());
    return {proxy.captured(), secrets};
}

TEST_F(TlsServerTest, AnOnPathRecorderSeesNoNameMoveTokenOrJoinCode) {
    const auto [wire, secrets] = record_a_private_game(server_->port(), [&](const std::string& name, std::uint16_t port) {
        auto c = tls_client(name, port);
        EXPECT_EQ(c->peer_fingerprint(), fingerprint_);
        return c;
    });
    EXPECT_GT(wire.size(), 2000u) << "the recorder saw the game";
    for (const auto& secret : secrets) EXPECT_EQ(wire.find(secret), std::string::npos) << "'" << secret << "' in clear";
}

// The control: the same recorder on a --plain server reads every one of them.
class PlainServerTest : public test::ServerFixture {};

TEST_F(PlainServerTest, TheSameRecorderReadsEverySecretOfAPlainGame) {
    const auto [wire, secrets] = record_a_private_game(server_->port(), [](const std::string& name, std::uint16_t port) {
        auto c = std::make_unique<TestClient>(port);
        c->hello(name);
        return c;
    });
    for (const auto& secret : secrets) EXPECT_NE(wire.find(secret), std::string::npos) << "'" << secret << "' not seen";
}

}  // namespace
}  // namespace xq
