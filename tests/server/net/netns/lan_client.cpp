// lan_client BROADCAST SERVER_ADDRESS NAME: the second host of the LAN test (two_hosts.sh).
// 1. Broadcasts the discovery request to BROADCAST:7778 and checks the reply names NAME, game
//    port 7777, and came from SERVER_ADDRESS.
// 2. Connects two players and a spectator to that address, plays a five-ply checkmate, and checks
//    all three saw the same moves and the result. Exits 0 on success, 1 with a message otherwise.
// lan_client probe SOURCE SERVER_ADDRESS: one unicast discovery request from SOURCE (an address of
//    this host) to SERVER_ADDRESS:7778, three tries a second apart; prints "reply" (exit 0) or
//    "silent" (exit 3). two_hosts.sh uses it to show an off-LAN sender gets no answer.

#include <poll.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <utility>  // before Asio: Boost 1.74 uses std::exchange without it
#include <vector>

#include <boost/asio.hpp>

#include "proto/discovery.h"
#include "support/test_client.h"

namespace {

namespace asio = boost::asio;
using udp = asio::ip::udp;
using namespace xq::proto;
using xq::test::TestClient;

[[noreturn]] void fail(const std::string& what) {
    std::cerr << "lan_client: FAIL: " << what << "\n";
    std::exit(1);
}

void check(bool ok, const std::string& what) {
    if (!ok) fail(what);
}

template <class T>
T as(const ServerMessage& m, const std::string& what) {
    if (const T* body = std::get_if<T>(&m.body)) return *body;
    const auto* e = std::get_if<Error>(&m.body);
    fail(what + ": unexpected reply" + (e ? " (error: " + e->message + ")" : ""));
}

// The server may still be starting: the request is repeated every half second for up to 15 s.
DiscoveryReply discover(const std::string& broadcast, const std::string& server) {
    asio::io_context io;
    udp::socket socket(io, udp::endpoint(udp::v4(), 0));
    socket.set_option(asio::socket_base::broadcast(true));
    const udp::endpoint to(asio::ip::make_address(broadcast), kDiscoveryPort);
    for (int attempt = 0; attempt < 30; ++attempt) {
        boost::system::error_code ec;
        socket.send_to(asio::buffer(discovery_request()), to, 0, ec);
        if (ec) fail("sending the discovery request to " + broadcast + ": " + ec.message());
        pollfd ready{socket.native_handle(), POLLIN, 0};
        if (::poll(&ready, 1, 500) <= 0) continue;  // no answer yet: ask again
        char buffer[kMaxDiscoveryDatagram];
        udp::endpoint from;
        const std::size_t n = socket.receive_from(asio::buffer(buffer), from, 0, ec);
        if (ec) continue;
        const auto reply = parse_discovery_reply(std::string_view(buffer, n));
        check(reply.has_value(), "bad discovery reply from " + from.address().to_string());
        check(from.address().to_string() == server,
              "the discovery reply came from " + from.address().to_string() + ", not " + server);
        return *reply;
    }
    fail("no discovery reply to the broadcast at " + broadcast + ":" + std::to_string(kDiscoveryPort));
}

// Over TLS, to the certificate discovery announced (issue 18: a LAN game needs no question, and
// the handshake still checks).
std::unique_ptr<TestClient> connect(const std::string& address, std::uint16_t port, const std::string& name,
                                    const std::string& fingerprint) {
    try {
        auto c = std::make_unique<TestClient>(TestClient::Tls{}, address, port);
        check(!fingerprint.empty() && c->peer_fingerprint() == fingerprint,
              "the server's certificate is not the one discovery announced");
        c->hello(name);
        return c;
    } catch (const std::exception& e) {
        fail(name + " cannot connect to " + address + ":" + std::to_string(port) + ": " + e.what());
    }
}

// The moves a client saw (by ply), its own acknowledgements included, until the game ended.
std::vector<std::string> moves_until_end(TestClient& c, std::map<std::uint32_t, std::string> seen, Outcome& out,
                                         const std::string& who) {
    while (auto m = c.next()) {
        if (const auto* made = std::get_if<MoveMade>(&m->body)) seen[made->ply] = made->move;
        if (const auto* ended = std::get_if<GameEnded>(&m->body)) {
            out = ended->outcome;
            std::vector<std::string> moves;
            for (const auto& [ply, move] : seen) moves.push_back(move);
            return moves;
        }
    }
    fail("the game never ended for " + who);
}

// 0 when SERVER answers a request sent from SOURCE, 3 when it stays silent.
int probe(const std::string& source, const std::string& server) {
    asio::io_context io;
    udp::socket socket(io, udp::endpoint(asio::ip::make_address(source), 0));
    const udp::endpoint to(asio::ip::make_address(server), kDiscoveryPort);
    for (int attempt = 0; attempt < 3; ++attempt) {
        boost::system::error_code ec;
        socket.send_to(asio::buffer(discovery_request()), to, 0, ec);
        if (ec) fail("sending the discovery request from " + source + ": " + ec.message());
        pollfd ready{socket.native_handle(), POLLIN, 0};
        if (::poll(&ready, 1, 1000) > 0) {
            std::cout << "reply\n";
            return 0;
        }
    }
    std::cout << "silent\n";
    return 3;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "probe") return probe(argv[2], argv[3]);
    if (argc != 4) {
        std::cerr << "usage: lan_client BROADCAST SERVER_ADDRESS NAME | lan_client probe SOURCE SERVER_ADDRESS\n";
        return 2;
    }
    const std::string broadcast = argv[1], server = argv[2], name = argv[3];

    const DiscoveryReply found = discover(broadcast, server);
    check(found.name == name, "discovery names the server '" + found.name + "', expected '" + name + "'");
    check(found.port == 7777, "discovery gives game port " + std::to_string(found.port) + ", expected 7777");
    std::cout << "discovered '" << found.name << "' at " << server << ":" << found.port << "\n";

    auto red = connect(server, found.port, "Red on B", found.fingerprint);
    auto black = connect(server, found.port, "Black on B", found.fingerprint);
    auto watcher = connect(server, found.port, "Watcher on B", found.fingerprint);
    const auto created = as<Seated>(red->call(CreateGame{{5, 3, std::nullopt}, ColorChoice::Red, false}), "create");
    const GameId id = created.game_id;
    check(as<Seated>(black->call(JoinGame{id, ""}), "join").side == Side::Black, "Black did not get the black seat");
    check(red->wait_for<GameStarted>().has_value(), "the game did not start for Red");
    check(as<Snapshot>(watcher->call(WatchGame{id, ""}), "watch").moves.empty(), "the spectator saw moves too early");

    const std::vector<std::string> line = {"b2b4", "a6a5", "b4c4", "f9e8", "c4c9"};
    std::map<std::uint32_t, std::string> acks[2];
    for (std::size_t ply = 0; ply < line.size(); ++ply) {
        TestClient& mover = ply % 2 == 0 ? *red : *black;
        const auto made = as<MoveMade>(mover.call(MakeMove{id, line[ply], 100 + ply, static_cast<std::uint32_t>(ply)}),
                                       "move " + line[ply]);
        check(made.move == line[ply] && made.ply == ply + 1, "the ack of " + line[ply] + " is wrong");
        acks[ply % 2][made.ply] = made.move;
    }
    Outcome outcome[3];
    const std::vector<std::string> seen[3] = {moves_until_end(*red, acks[0], outcome[0], "Red"),
                                              moves_until_end(*black, acks[1], outcome[1], "Black"),
                                              moves_until_end(*watcher, {}, outcome[2], "the spectator")};
    const char* who[3] = {"Red", "Black", "the spectator"};
    for (int i = 0; i < 3; ++i) {
        check(seen[i] == line, std::string(who[i]) + " saw different moves");
        check(outcome[i].result == GameResult::RedWins && outcome[i].reason == "checkmate",
              std::string(who[i]) + " saw the result '" + outcome[i].reason + "', expected red_wins/checkmate");
    }
    std::cout << "game " << id << " over the LAN: 5 plies, red_wins by checkmate, seen alike by 2 players and a spectator\n";
    return 0;
}
