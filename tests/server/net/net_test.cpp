// The server over real loopback sockets, started in-process on an ephemeral port: a whole game
// with spectators, the error codes, hostile frames, reconnection and LAN discovery.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <thread>

#include <poll.h>

#include "proto/codec.h"
#include "proto/discovery.h"
#include "server/log/log.h"
#include "server/net/server.h"
#include "support/server_fixture.h"
#include "support/test_client.h"

namespace xq {
namespace {

using namespace proto;
using test::TestClient;

// The in-process server of support/server_fixture.h, with LAN discovery on an ephemeral UDP port.
class ServerTest : public test::ServerFixture {
protected:
    void configure(server::ServerConfig& config) override { config.discovery = 0; }
};

using test::as;
using test::error_of;

const TimeControl kBlitz{5, 3, std::nullopt};

// Red creates, Black joins; returns the game id and both resume tokens.
struct Pairing {
    GameId id;
    std::string red_token, black_token;
};
Pairing pair_up(TestClient& red, TestClient& black) {
    const auto& created = as<Seated>(red.call(CreateGame{kBlitz, ColorChoice::Red, false}));
    EXPECT_EQ(created.side, Side::Red);
    const auto& joined = as<Seated>(black.call(JoinGame{created.game_id, ""}));
    EXPECT_EQ(joined.side, Side::Black);
    EXPECT_TRUE(red.wait_for<proto::GameStarted>());
    EXPECT_TRUE(black.wait_for<proto::GameStarted>());
    return {created.game_id, created.resume_token, joined.resume_token};
}

// Collects the moves a client sees (by ply) until the game ends; `seen` may hold its own acks.
std::vector<std::string> moves_until_end(TestClient& c, std::map<std::uint32_t, std::string> seen,
                                         proto::Outcome* outcome) {
    const auto in_order = [&] {
        std::vector<std::string> moves;
        for (const auto& [ply, move] : seen) moves.push_back(move);
        return moves;
    };
    while (auto m = c.next()) {
        if (const auto* made = std::get_if<proto::MoveMade>(&m->body)) seen[made->ply] = made->move;
        if (const auto* ended = std::get_if<proto::GameEnded>(&m->body)) {
            *outcome = ended->outcome;
            return in_order();
        }
    }
    ADD_FAILURE() << "the game never ended for this client";
    return in_order();
}

TEST_F(ServerTest, HelloVersionAndHelloRequired) {
    TestClient early(server_->port());
    EXPECT_EQ(error_of(early.call(ListGames{})), proto::ErrorCode::HelloRequired);
    EXPECT_TRUE(std::holds_alternative<Pong>(early.call(Ping{7}).body));  // pings need no Hello
    const auto welcome = early.call(Hello{"test", "Ann", kProtocolVersion});
    EXPECT_EQ(as<Welcome>(welcome).server, "test server");

    TestClient future(server_->port());
    EXPECT_EQ(error_of(future.call(Hello{"test", "Bob", kProtocolVersion + 1})), proto::ErrorCode::UnsupportedVersion);
    EXPECT_TRUE(future.closed_by_server());
}

TEST_F(ServerTest, FullGameToCheckmateWithSpectators) {
    auto red = client("Red player");
    auto black = client("Black player");
    auto lobby = client("Lobby visitor");
    const auto& created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    const auto& open = as<GameList>(lobby->call(ListGames{}));
    ASSERT_EQ(open.open.size(), 1u);
    EXPECT_EQ(open.open[0].game_id, created.game_id);
    EXPECT_EQ(open.open[0].host, "Red player");
    const GameId id = created.game_id;
    as<Seated>(black->call(JoinGame{id, ""}));
    ASSERT_TRUE(red->wait_for<proto::GameStarted>());
    ASSERT_TRUE(black->wait_for<proto::GameStarted>());

    auto s1 = client("Watcher 1");
    auto s2 = client("Watcher 2");
    EXPECT_TRUE(as<Snapshot>(s1->call(WatchGame{id, ""})).moves.empty());
    EXPECT_TRUE(as<Snapshot>(s2->call(WatchGame{id, ""})).moves.empty());

    // The quickest mate from the opening: the cannon swings to c9 behind Black's own advisor.
    const std::vector<std::string> line = {"b2b4", "a6a5", "b4c4", "f9e8", "c4c9"};
    std::unique_ptr<TestClient> s3;
    std::array<std::map<std::uint32_t, std::string>, 2> acks;  // what each player's own replies said
    for (std::size_t ply = 0; ply < line.size(); ++ply) {
        TestClient& mover = ply % 2 == 0 ? *red : *black;
        const auto ack = mover.call(MakeMove{id, line[ply], 100 + ply, static_cast<std::uint32_t>(ply)});
        const auto& made = as<proto::MoveMade>(ack);
        EXPECT_EQ(made.move, line[ply]);
        EXPECT_EQ(made.move_id, 100 + ply);  // the mover's copy acknowledges its move id
        EXPECT_EQ(made.ply, ply + 1);
        acks[ply % 2][made.ply] = made.move;
        if (ply == 2) {  // a third spectator arrives mid-game and catches up from the snapshot
            s3 = client("Late watcher");
            const auto& snap = as<Snapshot>(s3->call(WatchGame{id, ""}));
            EXPECT_EQ(snap.moves, (std::vector<std::string>{"b2b4", "a6a5", "b4c4"}));
            EXPECT_EQ(snap.status, GameStatus::Playing);
        }
    }
    proto::Outcome outcome;
    const auto red_moves = moves_until_end(*red, acks[0], &outcome);
    EXPECT_EQ(outcome.result, GameResult::RedWins);
    EXPECT_EQ(outcome.reason, "checkmate");
    EXPECT_FALSE(outcome.explanation.empty());
    EXPECT_EQ(red_moves, line);
    for (auto [c, own] : {std::pair{black.get(), acks[1]}, std::pair{s1.get(), acks[0]}, std::pair{s2.get(), acks[0]}}) {
        if (c != black.get()) own.clear();
        proto::Outcome seen;
        EXPECT_EQ(moves_until_end(*c, own, &seen), line);
        EXPECT_EQ(seen, outcome);
    }
    proto::Outcome late;
    EXPECT_EQ(moves_until_end(*s3, {{1, "b2b4"}, {2, "a6a5"}, {3, "b4c4"}}, &late), line);
    EXPECT_EQ(late, outcome);

    // A move after the end, then the archive.
    EXPECT_EQ(error_of(black->call(MakeMove{id, "a5a4", 200, 5})), proto::ErrorCode::GameOver);
    const auto& archive = as<ArchiveList>(lobby->call(ListArchive{0, 0, ""}));
    ASSERT_EQ(archive.total, 1u);
    EXPECT_EQ(archive.games[0].game_id, id);
    EXPECT_EQ(archive.games[0].outcome.reason, "checkmate");
    const auto& game = as<ArchivedGame>(lobby->call(GetArchived{id}));
    EXPECT_EQ(game.moves, line);
    EXPECT_NE(game.pgn.find("[Game \"Chinese Chess\"]"), std::string::npos);
    EXPECT_EQ(error_of(lobby->call(GetArchived{id + 1})), proto::ErrorCode::NoSuchGame);
}

TEST_F(ServerTest, MoveErrorsGoToTheMoverAloneAndChangeNothing) {
    auto red = client("R");
    auto black = client("B");
    auto watcher = client("W");
    const auto game = pair_up(*red, *black);
    as<Snapshot>(watcher->call(WatchGame{game.id, ""}));
    EXPECT_EQ(error_of(black->call(MakeMove{game.id, "h9g7", 1, 0})), proto::ErrorCode::NotYourTurn);
    EXPECT_EQ(error_of(red->call(MakeMove{game.id, "h2h8", 2, 0})), proto::ErrorCode::IllegalMove);
    EXPECT_EQ(error_of(red->call(MakeMove{game.id, "zz", 3, 0})), proto::ErrorCode::InvalidMoveSyntax);
    EXPECT_EQ(error_of(red->call(MakeMove{game.id, "h2e2", 4, 3})), proto::ErrorCode::StalePosition);
    EXPECT_EQ(error_of(watcher->call(MakeMove{game.id, "h2e2", 5, 0})), proto::ErrorCode::NotAPlayer);
    EXPECT_EQ(error_of(red->call(MakeMove{game.id + 1, "h2e2", 6, 0})), proto::ErrorCode::NoSuchGame);
    // Nothing moved: the first real move is still ply 1, and a retry of its id plays nothing.
    EXPECT_EQ(as<proto::MoveMade>(red->call(MakeMove{game.id, "h2e2", 7, 0})).ply, 1u);
    const auto retry = as<proto::MoveMade>(red->call(MakeMove{game.id, "h2e2", 7, 0}));
    EXPECT_EQ(retry.ply, 1u);
    EXPECT_EQ(retry.move_id, 7u);
    EXPECT_EQ(as<proto::MoveMade>(black->call(MakeMove{game.id, "h9g7", 8, 1})).ply, 2u);
    const auto& snap = as<Snapshot>(watcher->call(WatchGame{game.id, ""}));
    EXPECT_EQ(snap.moves, (std::vector<std::string>{"h2e2", "h9g7"}));
}

TEST_F(ServerTest, LobbyErrors) {
    auto a = client("A");
    auto b = client("B");
    auto c = client("C");
    const auto game = pair_up(*a, *b);
    EXPECT_EQ(error_of(c->call(JoinGame{game.id, ""})), proto::ErrorCode::AlreadyStarted);
    EXPECT_EQ(error_of(c->call(JoinGame{999, ""})), proto::ErrorCode::NoSuchGame);
    EXPECT_EQ(error_of(c->call(CreateGame{{0, 0, std::nullopt}, ColorChoice::Red, false})), proto::ErrorCode::BadRequest);
    const auto& hidden = as<Seated>(c->call(CreateGame{kBlitz, ColorChoice::Black, true}));
    EXPECT_FALSE(hidden.join_code.empty());
    auto d = client("D");
    EXPECT_TRUE(as<GameList>(d->call(ListGames{})).open.empty());  // private games are not listed
    EXPECT_EQ(error_of(d->call(JoinGame{hidden.game_id, "WRONG1"})), proto::ErrorCode::WrongJoinCode);
    EXPECT_EQ(error_of(d->call(WatchGame{hidden.game_id, ""})), proto::ErrorCode::WrongJoinCode);
    EXPECT_EQ(as<Seated>(d->call(JoinGame{hidden.game_id, hidden.join_code})).side, Side::Red);
}

TEST_F(ServerTest, OffersResignAbortAndChat) {
    auto red = client("R");
    auto black = client("B");
    auto watcher = client("W");
    const auto game = pair_up(*red, *black);
    as<Snapshot>(watcher->call(WatchGame{game.id, ""}));
    // Chat: the players' channel reaches spectators; the spectators' channel never reaches players.
    EXPECT_EQ(as<ChatLine>(red->call(SendChat{game.id, ChatChannel::Players, "good luck"})).text, "good luck");
    EXPECT_EQ(watcher->wait_for<ChatLine>()->text, "good luck");
    EXPECT_EQ(as<ChatLine>(watcher->call(SendChat{game.id, ChatChannel::Spectators, "red will win"})).channel,
              ChatChannel::Spectators);
    EXPECT_EQ(error_of(red->call(SendChat{game.id, ChatChannel::Players, std::string(300, 'x')})),
              proto::ErrorCode::ChatTooLong);
    EXPECT_EQ(black->wait_for<ChatLine>()->text, "good luck");
    EXPECT_EQ(as<Pong>(black->call(Ping{1})).nonce, 1u);  // nothing else was queued for Black

    // Takeback, declined draw, then resignation.
    as<proto::MoveMade>(red->call(MakeMove{game.id, "h2e2", 1, 0}));
    EXPECT_EQ(error_of(black->call(MakeOffer{game.id, OfferKind::Takeback})), proto::ErrorCode::NothingToTakeBack);
    as<OfferMade>(red->call(MakeOffer{game.id, OfferKind::Takeback}));
    EXPECT_EQ(error_of(red->call(AnswerOffer{game.id, OfferKind::Takeback, true})), proto::ErrorCode::BadRequest);
    // Accepting is answered OfferAnswered{accepted}, then TakebackApplied follows.
    EXPECT_TRUE(as<OfferAnswered>(black->call(AnswerOffer{game.id, OfferKind::Takeback, true})).accepted);
    EXPECT_EQ(black->wait_for<TakebackApplied>()->ply, 0u);
    as<proto::MoveMade>(red->call(MakeMove{game.id, "b2e2", 2, 0}));
    as<OfferMade>(black->call(MakeOffer{game.id, OfferKind::Draw}));
    EXPECT_FALSE(as<OfferAnswered>(red->call(AnswerOffer{game.id, OfferKind::Draw, false})).accepted);
    EXPECT_EQ(error_of(red->call(AnswerOffer{game.id, OfferKind::Draw, true})), proto::ErrorCode::NoPendingOffer);
    const auto& ended = as<proto::GameEnded>(black->call(Resign{game.id}));
    EXPECT_EQ(ended.outcome.result, GameResult::RedWins);
    EXPECT_EQ(ended.outcome.reason, "resignation");
    EXPECT_EQ(error_of(black->call(Resign{game.id})), proto::ErrorCode::GameOver);
}

// The archive over the wire, filtered by a player's name in any letter case (either side), each
// game's PGN with the full tags.
TEST_F(ServerTest, ArchiveIsFilteredByPlayerIgnoringCase) {
    const auto play_and_resign = [&](const std::string& red_name, const std::string& black_name) {
        auto red = client(red_name);
        auto black = client(black_name);
        const auto game = pair_up(*red, *black);
        as<proto::MoveMade>(red->call(MakeMove{game.id, "h2e2", 1, 0}));
        as<proto::GameEnded>(black->call(Resign{game.id}));
        return game.id;
    };
    const GameId first = play_and_resign("Alice", "bob");
    const GameId second = play_and_resign("carol", "ALICE");
    play_and_resign("dave", "erin");
    auto lobby = client("Reader");
    const auto ids = [&](const std::string& player) {
        const auto& list = as<ArchiveList>(lobby->call(ListArchive{0, 0, player}));
        std::vector<GameId> out;
        for (const auto& g : list.games) out.push_back(g.game_id);
        EXPECT_EQ(list.total, out.size()) << player;
        return out;
    };
    EXPECT_EQ(ids("alice"), (std::vector<GameId>{second, first}));  // newest first
    EXPECT_EQ(ids("ALICE"), (std::vector<GameId>{second, first}));
    EXPECT_EQ(ids("Bob"), (std::vector<GameId>{first}));
    EXPECT_TRUE(ids("ali").empty());
    EXPECT_EQ(ids("").size(), 3u);

    const auto& game = as<ArchivedGame>(lobby->call(GetArchived{first}));
    for (const char* tag : {"[Event \"Online game ", "[Site \"test server\"]", "[Date \"", "[Red \"Alice\"]", "[Black \"bob\"]",
                            "[TimeControl \"", "[Termination \"resignation\"]", "[Result \"1-0\"]"})
        EXPECT_NE(game.pgn.find(tag), std::string::npos) << tag << " in\n" << game.pgn;
}

TEST_F(ServerTest, AbortBeforeBothSidesMoved) {
    auto red = client("R");
    auto black = client("B");
    const auto game = pair_up(*red, *black);
    as<proto::MoveMade>(red->call(MakeMove{game.id, "h2e2", 1, 0}));
    EXPECT_TRUE(as<GameAborted>(black->call(Abort{game.id})).side == Side::Black);
    EXPECT_TRUE(red->wait_for<GameAborted>());
    EXPECT_EQ(error_of(red->call(MakeMove{game.id, "b2e2", 2, 1})), proto::ErrorCode::GameOver);
}

TEST_F(ServerTest, ServerClockFlagsAPlayerWhoDoesNotMove) {
    auto red = client("R");
    auto black = client("B");
    // A 1-second cap per move: once both first moves are made, Red's flag falls on the server's
    // own timer, with nobody asking.
    const TimeControl capped{1, 0, 1};
    const auto created = as<Seated>(red->call(CreateGame{capped, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    const auto started = red->wait_for<proto::GameStarted>();
    ASSERT_TRUE(started);
    EXPECT_EQ(started->clock.running, std::nullopt);  // no clock runs before the first moves
    EXPECT_EQ(started->time_control, capped);
    as<proto::MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0}));
    EXPECT_EQ(as<proto::MoveMade>(black->call(MakeMove{created.game_id, "h9g7", 1, 1})).clock.running, Side::Red);
    const auto ended = black->wait_for<proto::GameEnded>();
    ASSERT_TRUE(ended);
    EXPECT_EQ(ended->outcome.reason, "timeout");
    EXPECT_EQ(ended->outcome.result, GameResult::BlackWins);
    EXPECT_EQ(error_of(red->call(MakeMove{created.game_id, "h0g2", 2, 2})), proto::ErrorCode::GameOver);
}

TEST_F(ServerTest, QuickMatchPairsTwoWaiters) {
    auto a = client("A");
    auto b = client("B");
    EXPECT_EQ(as<Seeking>(a->call(QuickMatch{kBlitz})).time_control, kBlitz);
    const auto& seated_b = as<Seated>(b->call(QuickMatch{kBlitz}));
    const auto seated_a = a->wait_for<Seated>();
    ASSERT_TRUE(seated_a);
    EXPECT_EQ(seated_a->game_id, seated_b.game_id);
    EXPECT_NE(seated_a->side, seated_b.side);
    EXPECT_TRUE(a->wait_for<proto::GameStarted>());
    auto c = client("C");
    as<Seeking>(c->call(QuickMatch{kBlitz}));
    EXPECT_EQ(as<Left>(c->call(Leave{0})).game_id, 0u);
}

TEST_F(ServerTest, ReconnectWithTheResumeToken) {
    auto red = client("R");
    auto black = std::make_unique<TestClient>(server_->port());
    black->hello("B");
    const auto game = pair_up(*red, *black);
    as<proto::MoveMade>(red->call(MakeMove{game.id, "h2e2", 1, 0}));
    black.reset();  // the connection drops
    const auto gone = red->wait_for<PlayerConnection>(test::seat_connected(Side::Black, false));
    ASSERT_TRUE(gone);

    auto thief = client("T");
    EXPECT_EQ(error_of(thief->call(Resume{game.id, game.red_token + "x", 0})), proto::ErrorCode::BadToken);
    auto back = client("B");
    const auto& resumed = as<Resumed>(back->call(Resume{game.id, game.black_token, 0}));
    EXPECT_EQ(resumed.your_side, Side::Black);
    bool saw_move = false;
    for (const auto& e : resumed.events)
        if (const auto* m = std::get_if<proto::MoveMade>(&e)) saw_move |= m->move == "h2e2";
    EXPECT_TRUE(saw_move);
    ASSERT_TRUE(red->wait_for<PlayerConnection>(test::seat_connected(Side::Black, true)));
    EXPECT_EQ(as<proto::MoveMade>(back->call(MakeMove{game.id, "h9g7", 2, 1})).ply, 2u);
}

TEST_F(ServerTest, HostileFrames) {
    auto good = client("Good");
    {  // A header announcing more than 64 KiB: refused before the body arrives, then closed.
        TestClient c(server_->port());
        c.send_raw(std::string("\x00\x01\x11\x70", 4));
        EXPECT_EQ(error_of(*c.next()), proto::ErrorCode::FrameTooLarge);
        EXPECT_TRUE(c.closed_by_server());
    }
    {  // A well-framed body that is not a message at all.
        TestClient c(server_->port());
        c.send_raw(frame("\xff\xff\xff\xff garbage"));
        EXPECT_EQ(error_of(*c.next()), proto::ErrorCode::MalformedFrame);
        EXPECT_TRUE(c.closed_by_server());
    }
    {  // A message kind from the future (field 99) and an empty body: errors, the session lives on.
        TestClient c(server_->port());
        c.send_raw(frame(std::string("\x08\x05\x9a\x06\x00", 5)));
        const auto unknown = c.next();
        ASSERT_TRUE(unknown);
        EXPECT_EQ(error_of(*unknown), proto::ErrorCode::UnknownMessage);
        EXPECT_EQ(unknown->request_id, 5u);
        c.send_raw(frame(std::string("\x08\x06", 2)));
        EXPECT_EQ(error_of(*c.next()), proto::ErrorCode::UnknownMessage);  // an empty body
        EXPECT_EQ(as<Pong>(c.call(Ping{3})).nonce, 3u);
    }
    // Everyone else is unaffected.
    EXPECT_EQ(as<Pong>(good->call(Ping{9})).nonce, 9u);
}

TEST_F(ServerTest, LanDiscoveryAnswersWithNameAndPort) {
    namespace asio = server::asio;
    asio::io_context io;
    server::udp::socket socket(io, server::udp::endpoint(server::udp::v4(), 0));
    const auto port = server_->discovery_port();
    ASSERT_TRUE(port);
    // The bare request of old (20 bytes) is not answered: a reply would be larger than it.
    socket.send_to(asio::buffer(kDiscoveryRequest.data(), kDiscoveryRequest.size()),
                   server::udp::endpoint(asio::ip::make_address("127.0.0.1"), *port));
    pollfd ready{socket.native_handle(), POLLIN, 0};
    EXPECT_EQ(::poll(&ready, 1, 300), 0) << "an unpadded request was answered";
    const std::string request = discovery_request();
    socket.send_to(asio::buffer(request), server::udp::endpoint(asio::ip::make_address("127.0.0.1"), *port));
    // Asio's blocking receive ignores SO_RCVTIMEO, so wait with poll() and fail rather than hang.
    ASSERT_EQ(::poll(&ready, 1, 5000), 1) << "no discovery reply within 5 s";
    char buffer[kMaxDiscoveryDatagram];
    server::udp::endpoint from;
    boost::system::error_code ec;
    const std::size_t n = socket.receive_from(asio::buffer(buffer), from, 0, ec);
    ASSERT_FALSE(ec) << ec.message();
    const auto reply = parse_discovery_reply(std::string_view(buffer, n));
    ASSERT_TRUE(reply) << reply.error();
    EXPECT_EQ(reply->name, "test server");
    EXPECT_EQ(reply->port, server_->port());
    EXPECT_LE(n, request.size()) << "the reply is larger than the request";
}

// Discovery answers the LAN only: loopback, or a sender in the subnet of one of our interfaces.
TEST(DiscoveryLan, OnlyLoopbackAndOurSubnetsAreLocal) {
    namespace asio = server::asio;
    const auto a = [](const char* text) { return asio::ip::make_address(text); };
    const std::vector<server::LocalSubnet> subnets = {{a("192.168.1.20"), 24}, {a("10.1.2.3"), 8},
                                                      {a("fe80::1"), 64}, {a("2001:db8:1:2::5"), 64}};
    struct Case {
        const char* sender;
        bool local;
    };
    for (const Case& c : {Case{"127.0.0.1", true}, Case{"127.9.9.9", true}, Case{"::1", true},
                          Case{"192.168.1.99", true}, Case{"192.168.2.99", false}, Case{"10.200.0.1", true},
                          Case{"11.0.0.1", false}, Case{"8.8.8.8", false}, Case{"::ffff:192.168.1.7", true},
                          Case{"::ffff:8.8.8.8", false}, Case{"fe80::abcd", true}, Case{"2001:db8:1:2:ffff::1", true},
                          Case{"2001:db8:1:3::1", false}, Case{"2a00::1", false}})
        EXPECT_EQ(server::on_local_network(a(c.sender), subnets), c.local) << c.sender;
    EXPECT_FALSE(server::on_local_network(a("192.168.1.99"), {}));
    // This machine's own list holds its loopback interface at least.
    const auto mine = server::local_subnets();
    EXPECT_TRUE(std::ranges::any_of(mine, [](const auto& s) { return s.address.is_loopback(); }));
}

TEST_F(ServerTest, SpectatorCountsAreThrottled) {
    // Players read with a short timeout: silence for longer than the interval means nothing is pending.
    const auto player = [&](const std::string& name) {
        auto c = std::make_unique<TestClient>(server_->port(), std::chrono::milliseconds(2500));
        c->hello(name);
        return c;
    };
    auto red = player("R");
    auto black = player("B");
    const auto game = pair_up(*red, *black);
    constexpr std::uint32_t kCrowd = 20;
    std::vector<std::unique_ptr<TestClient>> crowd;
    for (std::uint32_t i = 1; i <= kCrowd; ++i) {
        crowd.push_back(client("Watcher " + std::to_string(i)));
        // Each newcomer's Snapshot carries the count at once, itself included.
        EXPECT_EQ(as<Snapshot>(crowd.back()->call(WatchGame{game.id, ""})).spectators, i);
    }
    for (TestClient* p : {red.get(), black.get()}) {
        std::vector<std::uint32_t> counts;
        while (auto m = p->next())
            if (const auto* count = std::get_if<SpectatorCount>(&m->body)) {
                EXPECT_EQ(count->game_id, game.id);
                counts.push_back(count->count);
            }
        ASSERT_FALSE(counts.empty());
        EXPECT_EQ(counts.back(), kCrowd);  // the final value after the burst always arrives
        EXPECT_LE(counts.size(), 5u) << "one SpectatorCount per second at most, not one per arrival";
        EXPECT_TRUE(std::is_sorted(counts.begin(), counts.end()));
    }
}

// Short session timeouts, to see the server's one sweep timer close silent and stalled sessions.
class ServerTimeoutTest : public ServerTest {
protected:
    void configure(server::ServerConfig& config) override {
        config.session.idle_timeout = std::chrono::milliseconds(600);
        config.session.frame_timeout = std::chrono::milliseconds(300);
    }
};

TEST_F(ServerTimeoutTest, SilentAndStalledSessionsAreClosedOthersLive) {
    using Clock = std::chrono::steady_clock;
    TestClient stalled(server_->port());
    stalled.send_raw(std::string("\x00\x00", 2));  // half a frame header, never finished
    const auto t0 = Clock::now();
    EXPECT_TRUE(stalled.closed_by_server());
    const auto stalled_after = Clock::now() - t0;
    EXPECT_GE(stalled_after, std::chrono::milliseconds(250));
    EXPECT_LT(stalled_after, std::chrono::milliseconds(600)) << "the frame timeout, not the idle one";
    TestClient silent(server_->port());
    const auto t1 = Clock::now();
    EXPECT_TRUE(silent.closed_by_server());
    EXPECT_GE(Clock::now() - t1, std::chrono::milliseconds(550));
    // A session that speaks in time stays open past the idle timeout.
    auto busy = client("Busy");
    for (int i = 0; i < 4; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        EXPECT_EQ(as<Pong>(busy->call(Ping{static_cast<std::uint64_t>(i)})).nonce, static_cast<std::uint64_t>(i));
    }
}

}  // namespace
}  // namespace xq
