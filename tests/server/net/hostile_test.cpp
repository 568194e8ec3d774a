// Hostile and broken input over real sockets (issue 5): each case gets a specific error or a
// close, and a game played alongside on the same server goes on unharmed.

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <future>
#include <thread>

#include "proto/codec.h"
#include "support/server_fixture.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::TestClient;
using test::as;
using test::error_of;
namespace asio = boost::asio;

const TimeControl kBlitz{5, 3, std::nullopt};

std::string header(std::uint32_t n) {
    return {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8), static_cast<char>(n)};
}

long rss_kib() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return 0;
}

// A game between two well-behaved clients that the tests keep playing while the abuse goes on.
class HostileTest : public test::ServerFixture {
protected:
    void configure(server::ServerConfig& config) override {
        config.connections.max_per_address = 12;
        config.session.frame_timeout = 300ms;
        config.session.max_queue_bytes = 64 * 1024;
        config.rate = {20, 40, 60};
    }
    void SetUp() override {
        test::ServerFixture::SetUp();
        red_ = client("Red");
        black_ = client("Black");
        const auto created = as<Seated>(red_->call(CreateGame{kBlitz, ColorChoice::Red, false}));
        game_ = created.game_id;
        as<Seated>(black_->call(JoinGame{game_, ""}));
        ASSERT_TRUE(red_->wait_for<proto::GameStarted>());
        ASSERT_TRUE(black_->wait_for<proto::GameStarted>());
    }
    // One more move pair of the bystanders' game, which must still be played normally.
    void bystanders_play() {
        static const char* kMoves[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9"};
        ASSERT_LT(ply_ + 1, 8u);
        TestClient& mover = ply_ % 2 == 0 ? *red_ : *black_;
        const auto made = as<proto::MoveMade>(mover.call(MakeMove{game_, kMoves[ply_], ply_ + 1, ply_}));
        EXPECT_EQ(made.ply, ply_ + 1);
        ++ply_;
        TestClient& other = ply_ % 2 == 0 ? *red_ : *black_;
        const auto seen = other.wait_for<proto::MoveMade>();
        ASSERT_TRUE(seen);
        EXPECT_EQ(seen->ply, ply_);
    }

    // The server's open connections, asked on its own thread.
    std::size_t sessions() {
        std::promise<std::size_t> count;
        asio::post(io_, [&] { count.set_value(server_->connections()); });
        return count.get_future().get();
    }

    std::unique_ptr<TestClient> red_, black_;
    GameId game_ = 0;
    std::uint32_t ply_ = 0;
};

TEST_F(HostileTest, BrokenFramesGetAnErrorOrACloseOthersPlayOn) {
    {  // A header over the cap.
        TestClient c(server_->port());
        c.send_raw(header(1'000'000));
        EXPECT_EQ(error_of(*c.next()), proto::ErrorCode::FrameTooLarge);
        EXPECT_TRUE(c.closed_by_server());
    }
    {  // Garbage bytes: read as a (huge) header.
        TestClient c(server_->port());
        c.send_raw("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        EXPECT_EQ(error_of(*c.next()), proto::ErrorCode::FrameTooLarge);
        EXPECT_TRUE(c.closed_by_server());
    }
    bystanders_play();
    {  // A length prefix with no body, then the client hangs up: the server closes too.
        asio::io_context io;
        asio::ip::tcp::socket s(io);
        s.connect({asio::ip::make_address("127.0.0.1"), server_->port()});
        asio::write(s, asio::buffer(header(100)));
        s.shutdown(asio::ip::tcp::socket::shutdown_send);
        char byte;
        boost::system::error_code ec;
        s.read_some(asio::buffer(&byte, 1), ec);
        EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
    }
    {  // A valid frame holding no message of the schema.
        TestClient c(server_->port());
        c.send_raw(frame(std::string("\x0a\xff\xff\xff", 4)));
        EXPECT_EQ(error_of(*c.next()), proto::ErrorCode::MalformedFrame);
        EXPECT_TRUE(c.closed_by_server());
    }
    {  // An empty body and an unknown kind: UNKNOWN_MESSAGE echoing the request id; the session lives.
        TestClient c(server_->port());
        c.send_raw(frame(std::string("\x08\x2a", 2)));
        const auto empty = c.next();
        ASSERT_TRUE(empty);
        EXPECT_EQ(error_of(*empty), proto::ErrorCode::UnknownMessage);
        EXPECT_EQ(empty->request_id, 42u);
        c.send_raw(frame(std::string("\x08\x2b\xa2\x06\x00", 5)));  // field 100
        EXPECT_EQ(error_of(*c.next()), proto::ErrorCode::UnknownMessage);
        EXPECT_EQ(as<Pong>(c.call(Ping{1})).nonce, 1u);
    }
    bystanders_play();
}

TEST_F(HostileTest, ARequestNumberedZeroIsRefusedAndChangesNothing) {
    // Its reply would carry 0 like a pushed event (a retried move's acknowledgement would look
    // like that event coming twice), so it is refused before anything happens.
    red_->send_raw(encode_frame(ClientMessage{0, MakeMove{game_, "h2e2", 1, 0}}));
    const auto refused = red_->next();
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->request_id, 0u);
    EXPECT_EQ(error_of(*refused), proto::ErrorCode::BadRequest);
    bystanders_play();  // h2e2 again, numbered this time, is the game's first move
}

TEST_F(HostileTest, HugeChatAndActingOnOthersGamesAreRefused) {
    // A chat line over 280 bytes, and one of nearly a whole frame.
    EXPECT_EQ(error_of(red_->call(SendChat{game_, ChatChannel::Players, std::string(281, 'x')})),
              proto::ErrorCode::ChatTooLong);
    EXPECT_EQ(error_of(red_->call(SendChat{game_, ChatChannel::Players, std::string(60'000, 'x')})),
              proto::ErrorCode::ChatTooLong);
    auto intruder = client("Intruder");
    EXPECT_EQ(error_of(intruder->call(Resign{game_})), proto::ErrorCode::NotAPlayer);
    EXPECT_EQ(error_of(intruder->call(MakeOffer{game_, OfferKind::Draw})), proto::ErrorCode::NotAPlayer);
    EXPECT_EQ(error_of(intruder->call(Abort{game_})), proto::ErrorCode::NotAPlayer);
    EXPECT_EQ(error_of(intruder->call(MakeMove{game_, "h2e2", 1, 0})), proto::ErrorCode::NotAPlayer);
    EXPECT_EQ(error_of(intruder->call(SendChat{game_, ChatChannel::Players, "resign!"})), proto::ErrorCode::NotAPlayer);
    EXPECT_EQ(error_of(intruder->call(Claim{game_, ClaimKind::Win})), proto::ErrorCode::NotAPlayer);
    // A spectator moving, and Black moving for Red.
    as<Snapshot>(intruder->call(WatchGame{game_, ""}));
    EXPECT_EQ(error_of(intruder->call(MakeMove{game_, "h2e2", 2, 0})), proto::ErrorCode::NotAPlayer);
    EXPECT_EQ(error_of(black_->call(MakeMove{game_, "h2e2", 1, 0})), proto::ErrorCode::NotYourTurn);
    // Joining a full game: it has started.
    EXPECT_EQ(error_of(intruder->call(JoinGame{game_, ""})), proto::ErrorCode::AlreadyStarted);
    // Forged tokens, and a real token of another game.
    EXPECT_EQ(error_of(intruder->call(Resume{game_, std::string(32, '0'), 0})), proto::ErrorCode::BadToken);
    EXPECT_EQ(error_of(intruder->call(Resume{game_, "", 0})), proto::ErrorCode::BadToken);
    EXPECT_EQ(error_of(intruder->call(Resume{game_, std::string(10'000, 'a'), 0})), proto::ErrorCode::BadToken);
    auto host = client("Host");
    const auto other = as<Seated>(host->call(CreateGame{kBlitz, ColorChoice::Red, true}));
    EXPECT_EQ(error_of(intruder->call(Resume{game_, other.resume_token, 0})), proto::ErrorCode::BadToken);
    // A private game without (or with a wrong) code: neither joined nor watched.
    EXPECT_EQ(error_of(intruder->call(JoinGame{other.game_id, ""})), proto::ErrorCode::WrongJoinCode);
    EXPECT_EQ(error_of(intruder->call(JoinGame{other.game_id, "AAAAAA"})), proto::ErrorCode::WrongJoinCode);
    EXPECT_EQ(error_of(intruder->call(WatchGame{other.game_id, ""})), proto::ErrorCode::WrongJoinCode);
    // One waiting game per session: a second one (or a seek) while hosting is refused.
    EXPECT_EQ(error_of(host->call(CreateGame{kBlitz, ColorChoice::Red, false})), proto::ErrorCode::AlreadySeated);
    EXPECT_EQ(error_of(host->call(QuickMatch{kBlitz})), proto::ErrorCode::AlreadySeated);
    as<Left>(host->call(Leave{other.game_id}));
    as<Seated>(host->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    bystanders_play();
}

// A resume token used again takes the seat over: the old connection no longer speaks for it.
TEST_F(HostileTest, AReusedTokenMovesTheSeatToTheNewConnection) {
    auto a = client("A");
    auto b = client("B");
    const auto created = as<Seated>(a->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(b->call(JoinGame{created.game_id, ""}));
    auto second = client("A again");
    as<Resumed>(second->call(Resume{created.game_id, created.resume_token, 0}));
    EXPECT_EQ(error_of(a->call(MakeMove{created.game_id, "h2e2", 1, 0})), proto::ErrorCode::NotAPlayer);
    EXPECT_EQ(as<proto::MoveMade>(second->call(MakeMove{created.game_id, "h2e2", 1, 0})).ply, 1u);
    bystanders_play();
}

TEST_F(HostileTest, AFloodIsRateLimitedThenCutOffPingsAreFree) {
    // Pings cost nothing.
    {
        auto pinger = client("Pinger");
        std::string burst;
        for (std::uint64_t i = 0; i < 200; ++i) burst += encode_frame(ClientMessage{i + 1, Ping{i}});
        pinger->send_raw(burst);
        for (int i = 0; i < 200; ++i) {
            const auto m = pinger->next();
            ASSERT_TRUE(m);
            ASSERT_TRUE(std::holds_alternative<Pong>(m->body)) << "reply " << i;
        }
    }
    // A burst over the allowance: the excess is RATE_LIMITED, the session lives and recovers.
    {
        auto eager = client("Eager");
        std::string burst;
        for (std::uint64_t i = 0; i < 50; ++i) burst += encode_frame(ClientMessage{i + 1, ListGames{}});
        eager->send_raw(burst);
        int lists = 0, limited = 0;
        for (int i = 0; i < 50; ++i) {
            const auto m = eager->next();
            ASSERT_TRUE(m);
            lists += std::holds_alternative<GameList>(m->body);
            limited += error_of(*m) == proto::ErrorCode::RateLimited;
        }
        EXPECT_GE(lists, 39);  // the burst (Hello took one credit)
        EXPECT_GE(limited, 1);
        EXPECT_EQ(lists + limited, 50);
        std::this_thread::sleep_for(300ms);
        EXPECT_TRUE(std::holds_alternative<GameList>(eager->call(ListGames{}).body));
    }
    // Flooding on: closed.
    {
        auto flooder = client("Flooder");
        std::string burst;
        for (std::uint64_t i = 0; i < 400; ++i) burst += encode_frame(ClientMessage{i + 1, ListGames{}});
        flooder->send_raw(burst);
        int limited = 0;
        while (auto m = flooder->next()) limited += error_of(*m) == proto::ErrorCode::RateLimited;
        EXPECT_GE(limited, 1);
        EXPECT_TRUE(flooder->closed_by_server());
    }
    bystanders_play();
}

TEST_F(HostileTest, TooManyConnectionsFromOneAddress) {
    // Two bystanders are connected; ten more fill the cap of twelve.
    std::vector<std::unique_ptr<TestClient>> crowd;
    for (int i = 0; i < 10; ++i) crowd.push_back(client("c" + std::to_string(i)));
    TestClient refused(server_->port(), 2s);
    EXPECT_TRUE(refused.closed_by_server());
    crowd.pop_back();
    std::this_thread::sleep_for(100ms);  // the server notices the close
    auto admitted = client("late");
    EXPECT_EQ(as<Pong>(admitted->call(Ping{5})).nonce, 5u);
    bystanders_play();
}

// Short idle timeout: the bystanders ping to stay, the silent and the trickling are closed.
class SlowClientTest : public HostileTest {
protected:
    void configure(server::ServerConfig& config) override {
        HostileTest::configure(config);
        config.session.idle_timeout = 800ms;
    }
    void keep_bystanders() {
        as<Pong>(red_->call(Ping{1}));
        as<Pong>(black_->call(Ping{2}));
    }
};

TEST_F(SlowClientTest, SilentAndTricklingClientsAreClosed) {
    using Clock = std::chrono::steady_clock;
    TestClient silent(server_->port(), 50ms);
    // One byte at a time, each well before the idle timeout: the frame timeout still ends it.
    asio::io_context io;
    asio::ip::tcp::socket trickle(io);
    trickle.connect({asio::ip::make_address("127.0.0.1"), server_->port()});
    const std::string slow = header(50) + std::string(50, 'x');
    const auto t0 = Clock::now();
    bool closed = false;
    for (std::size_t i = 0; i < slow.size() && !closed; ++i) {
        boost::system::error_code ec;
        asio::write(trickle, asio::buffer(&slow[i], 1), ec);
        closed = static_cast<bool>(ec);
        keep_bystanders();
        std::this_thread::sleep_for(100ms);
    }
    EXPECT_TRUE(closed);
    EXPECT_LT(Clock::now() - t0, 2s) << "the trickle was not cut off by the frame timeout";
    bool silent_closed = false;
    for (int i = 0; i < 40 && !silent_closed; ++i) {
        silent_closed = silent.closed_by_server();
        keep_bystanders();
    }
    EXPECT_TRUE(silent_closed);
    bystanders_play();
}

// A client that says Hello and then never reads, with a small receive buffer set before
// connecting so the window never offers more than it holds.
asio::ip::tcp::socket deaf_client(asio::io_context& io, std::uint16_t port) {
    asio::ip::tcp::socket deaf(io);
    deaf.open(asio::ip::tcp::v4());
    deaf.set_option(asio::socket_base::receive_buffer_size(4096));
    deaf.connect({asio::ip::make_address("127.0.0.1"), port});
    asio::write(deaf, asio::buffer(encode_frame(ClientMessage{1, Hello{"deaf", "deaf", kProtocolVersion}})));
    return deaf;
}

// A client that asks and never reads: its queue hits the bound and the server closes the session
// (released, and the connection reset so the client hears of it), the server's memory stays
// bounded, and the others play on meanwhile.
TEST_F(HostileTest, AClientThatNeverReadsIsClosed) {
    using Clock = std::chrono::steady_clock;
    const std::size_t open_before = sessions();  // the two bystanders
    asio::io_context io;
    asio::ip::tcp::socket deaf = deaf_client(io, server_->port());
    for (int i = 0; i < 500 && sessions() == open_before; ++i) std::this_thread::sleep_for(10ms);
    ASSERT_EQ(sessions(), open_before + 1) << "the server has not taken the connection";
    const long before = rss_kib();
    // Pings are free of the rate limit, so only the write bound can stop the Pongs piling up.
    std::string batch;
    for (std::uint64_t i = 0; i < 1'000; ++i) batch += encode_frame(ClientMessage{i + 2, Ping{i}});
    // Non-blocking, so a server that stopped reading cannot hang the test; the pings go on from
    // where the last write stopped, so the stream stays well framed.
    deaf.non_blocking(true);
    std::size_t sent = 0;
    bool played = false;
    bool released = false;
    const auto give_up = Clock::now() + 20s;
    while (!released && Clock::now() < give_up) {
        boost::system::error_code ec;
        const std::size_t offset = sent % batch.size();
        sent += deaf.write_some(asio::buffer(batch.data() + offset, batch.size() - offset), ec);
        if (ec && ec != asio::error::would_block && ec != asio::error::try_again) break;  // reset: closed
        if (ec) {
            if (!played) bystanders_play();  // the server still serves the others
            played = true;
            std::this_thread::sleep_for(20ms);
        }
        released = sessions() == open_before;
    }
    // The server side: the session is closed and released within the deadline.
    for (const auto until = Clock::now() + 5s; !released && Clock::now() < until; std::this_thread::sleep_for(20ms))
        released = sessions() == open_before;
    EXPECT_TRUE(released) << "the session is still open after " << sent << " bytes of pings";
    // The client side: after what was delivered, the connection ends (reset, or EOF).
    boost::system::error_code ec;
    std::size_t drained = 0;
    std::array<char, 64 * 1024> buffer;
    for (const auto until = Clock::now() + 5s; Clock::now() < until;) {
        drained += deaf.read_some(asio::buffer(buffer), ec);
        if (ec == asio::error::would_block || ec == asio::error::try_again) {
            std::this_thread::sleep_for(10ms);
            ec.clear();
            continue;
        }
        if (ec) break;
    }
    EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset)
        << "after " << drained << " bytes: " << ec.message();
    const long grown = rss_kib() - before;
#if defined(__SANITIZE_ADDRESS__)
    // ASan pads every allocation and keeps freed memory in quarantine: only a gross growth shows.
    constexpr long kBoundKib = 128 * 1024;
#else
    constexpr long kBoundKib = 32 * 1024;
#endif
    EXPECT_LT(grown, kBoundKib) << "the server grew by " << grown << " KiB";
    bystanders_play();
}

// A close that must flush first (here a bad frame's error) to a client that never reads: the
// flush cannot finish, and the session used to stay open for ever, reading nothing and exempt
// from every timeout. It now gets the frame timeout to drain, then is reset and released.
class DeafFlushTest : public HostileTest {
protected:
    void configure(server::ServerConfig& config) override {
        HostileTest::configure(config);
        config.session.max_queue_bytes = 256 << 20;  // room for everything: the queue never overflows
        config.session.max_queue_frames = 1 << 24;
        config.session.frame_timeout = 1s;  // also the time a close may wait for its output
    }
};

TEST_F(DeafFlushTest, AFlushToAClientThatNeverReadsEnds) {
    using Clock = std::chrono::steady_clock;
    const std::size_t open_before = sessions();
    asio::io_context io;
    asio::ip::tcp::socket deaf = deaf_client(io, server_->port());
    // Far more pongs than the kernel's send buffer holds, so the session is left writing.
    std::string batch;
    for (std::uint64_t i = 0; i < 100'000; ++i) batch += encode_frame(ClientMessage{i + 2, Ping{i}});
    for (int i = 0; i < 8; ++i) asio::write(deaf, asio::buffer(batch));
    asio::write(deaf, asio::buffer(header(1'000'000)));  // a bad frame: answered, then closed after a flush
    bool released = false;
    for (const auto until = Clock::now() + 10s; !released && Clock::now() < until; std::this_thread::sleep_for(20ms))
        released = sessions() == open_before;
    EXPECT_TRUE(released) << "a close waiting on a reader that never reads never ended";
    bystanders_play();
}

}  // namespace
}  // namespace xq
