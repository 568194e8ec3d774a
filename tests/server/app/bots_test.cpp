// xiangqi-server --bots: the server keeps computer opponents in its lobby. A person joins one and
// plays; the bot answers every move legally; the bot hosts again after the game; and stopping the
// server stops its bots. A person may also ask for the computer at a time control of their own.

#include <gtest/gtest.h>

#include <chrono>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "client/net/local_server.h"
#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "support/test_client.h"

namespace xq {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// The pids of running xiangqi-bot processes that were told to use `server` (from /proc).
std::vector<int> bots_of(const std::string& server) {
    std::vector<int> pids;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        std::string cmdline((std::istreambuf_iterator<char>(in)), {});
        if (cmdline.find("xiangqi-bot") != std::string::npos && cmdline.find(server) != std::string::npos)
            pids.push_back(std::stoi(name));
    }
    return pids;
}

std::vector<proto::GameSummary> bot_games(test::TestClient& c) {
    const auto reply = c.call(proto::ListGames{});
    std::vector<proto::GameSummary> out;
    if (const auto* list = std::get_if<proto::GameList>(&reply.body))
        for (const auto& g : list->open)
            if (g.host.starts_with("bot level 1")) out.push_back(g);
    return out;
}

TEST(ServerBots, KeepsComputerOpponentsInTheLobby) {
    const fs::path dir = fs::temp_directory_path() / ("xq-server-bots-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    client::LocalServerOptions options;
    options.binary = XQ_SERVER_PATH;
    options.db = dir / "games.db";
    options.extra_args = {"--bots", "2", "--bot-levels", "1", "--bot-time-control", "5+0"};
    std::optional<client::LocalServer> server;
    {
        options.plain = true;
        auto started = client::LocalServer::start(options);
        ASSERT_TRUE(started) << started.error();
        server.emplace(std::move(*started));
    }
    const std::string address = "127.0.0.1:" + std::to_string(server->port());

    test::TestClient person(server->port(), 10s);
    person.hello("person");
    std::vector<proto::GameSummary> games;
    for (int i = 0; i < 150 && games.size() < 2; ++i) {
        games = bot_games(person);
        if (games.size() < 2) std::this_thread::sleep_for(100ms);
    }
    ASSERT_EQ(games.size(), 2u) << "the server should keep two level-1 bots in the lobby";
    EXPECT_EQ(bots_of(address).size(), 2u);

    // Join one and play the first legal move each turn for a while; the bot answers every move.
    const auto seated = person.call(proto::JoinGame{games[0].game_id, ""});
    const auto* seat = std::get_if<proto::Seated>(&seated.body);
    ASSERT_TRUE(seat);
    const Color me = seat->side == proto::Side::Red ? Color::Red : Color::Black;
    ASSERT_TRUE(person.wait_for<proto::GameStarted>());
    Position pos = Position::start();
    std::uint32_t ply = 0;
    std::uint64_t move_id = 1;
    bool ended = false;
    std::optional<std::uint32_t> sent_at;  // the ply our move in flight was sent at
    while (!ended && ply < 16) {
        // Other messages (the opponent's lag, say) may come before our move's acknowledgement:
        // send once per ply.
        if (pos.side_to_move() == me && sent_at != ply) {
            const Move m = legal_moves(pos)[0];
            person.send(proto::MakeMove{games[0].game_id, to_iccs(m), move_id++, ply});
            sent_at = ply;
        }
        // The next move (ours acknowledged, or the bot's), or the end.
        auto message = person.next();
        ASSERT_TRUE(message) << "the bot stopped answering at ply " << ply;
        if (const auto* made = std::get_if<proto::MoveMade>(&message->body)) {
            const auto m = parse_iccs(made->move);
            ASSERT_TRUE(m && is_legal(pos, *m)) << made->move;
            pos.play(*m);
            ply = made->ply;
        } else if (std::holds_alternative<proto::GameEnded>(message->body)) {
            ended = true;
        } else if (const auto* error = std::get_if<proto::Error>(&message->body)) {
            FAIL() << "refused: " << error->message;
        }
    }
    if (!ended) person.call(proto::Resign{games[0].game_id});

    // After its game the bot hosts again: two open bot games once more.
    games.clear();
    for (int i = 0; i < 150 && games.size() < 2; ++i) {
        games = bot_games(person);
        if (games.size() < 2) std::this_thread::sleep_for(100ms);
    }
    EXPECT_EQ(games.size(), 2u);

    server.reset();  // SIGTERM: the server stops its bots before it exits
    EXPECT_TRUE(bots_of(address).empty());
    fs::remove_all(dir);
}

// A server with one level-1 bot, hosting its default 5+3 game.
struct BotServer {
    fs::path dir = fs::temp_directory_path() / ("xq-server-bots-tc-" + std::to_string(::getpid()));
    std::optional<client::LocalServer> server;

    BotServer() {
        fs::create_directories(dir);
        client::LocalServerOptions options;
        options.binary = XQ_SERVER_PATH;
        options.db = dir / "games.db";
        options.extra_args = {"--bots", "1", "--bot-levels", "1"};
        options.plain = true;
        auto started = client::LocalServer::start(options);
        if (started) server.emplace(std::move(*started));
    }
    ~BotServer() {
        server.reset();
        fs::remove_all(dir);
    }
};

proto::ErrorCode error_of(const proto::ServerMessage& reply) {
    const auto* error = std::get_if<proto::Error>(&reply.body);
    return error ? error->code : proto::ErrorCode::Unspecified;
}

TEST(ServerBots, PlayTheComputerAtTheTimeControlOfOnesChoice) {
    BotServer bots;
    ASSERT_TRUE(bots.server);
    test::TestClient person(bots.server->port(), 10s);
    person.hello("person");
    std::vector<proto::GameSummary> games;
    for (int i = 0; i < 150 && games.empty(); ++i) {
        games = bot_games(person);
        if (games.empty()) std::this_thread::sleep_for(100ms);
    }
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].time_control, (proto::TimeControl{5, 3, std::nullopt}));

    // Levels out of range, and levels this server keeps no computer of, are refused clearly.
    const proto::TimeControl three_two{3, 2, std::nullopt};
    EXPECT_EQ(error_of(person.call(proto::CreateGame{three_two, proto::ColorChoice::Red, false, 9})),
              proto::ErrorCode::BadRequest);
    EXPECT_EQ(error_of(person.call(proto::CreateGame{three_two, proto::ColorChoice::Red, false, 2})),
              proto::ErrorCode::NoComputer);

    // 3+2 against the level-1 computer: the game starts at once, at 3+2, the bot as Black.
    const auto reply = person.call(proto::CreateGame{three_two, proto::ColorChoice::Red, false, 1});
    const auto* seat = std::get_if<proto::Seated>(&reply.body);
    ASSERT_TRUE(seat) << "CreateGame against the computer was refused";
    EXPECT_EQ(seat->side, proto::Side::Red);
    const auto started = person.wait_for<proto::GameStarted>();
    ASSERT_TRUE(started);
    EXPECT_EQ(started->game_id, seat->game_id);
    EXPECT_EQ(started->time_control, three_two);
    EXPECT_EQ(started->red, "person");
    EXPECT_EQ(started->black, "bot level 1");
    EXPECT_NE(seat->game_id, games[0].game_id);
    EXPECT_TRUE(bot_games(person).empty()) << "the bot's open 5+3 game gave way";

    // The only computer is busy now.
    test::TestClient other(bots.server->port(), 10s);
    other.hello("other");
    EXPECT_EQ(error_of(other.call(proto::CreateGame{three_two, proto::ColorChoice::Red, false, 1})),
              proto::ErrorCode::NoComputer);

    // We move; the bot answers, on a clock of 3+2.
    person.send(proto::MakeMove{seat->game_id, "h2e2", 1, 0});
    std::optional<proto::MoveMade> answer;
    while (auto message = person.next()) {
        if (const auto* made = std::get_if<proto::MoveMade>(&message->body); made && made->ply == 2) {
            answer = *made;
            break;
        }
        ASSERT_FALSE(std::holds_alternative<proto::Error>(message->body));
    }
    ASSERT_TRUE(answer) << "the bot did not move";
    Position pos = Position::start();
    pos.play(*parse_iccs("h2e2"));
    const auto m = parse_iccs(answer->move);
    EXPECT_TRUE(m && is_legal(pos, *m)) << answer->move;
    EXPECT_EQ(answer->clock.red_ms, 180'000);  // the clocks start with the bot's first move, at 3 minutes
    EXPECT_EQ(answer->clock.black_ms, 180'000);

    // After the game the bot hosts its own 5+3 game again.
    person.call(proto::Resign{seat->game_id});
    games.clear();
    for (int i = 0; i < 150 && games.empty(); ++i) {
        games = bot_games(person);
        if (games.empty()) std::this_thread::sleep_for(100ms);
    }
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].time_control, (proto::TimeControl{5, 3, std::nullopt}));
}

TEST(ServerBots, AHelloWithALevelOutOfRangeIsRefused) {
    BotServer bots;
    ASSERT_TRUE(bots.server);
    test::TestClient client(bots.server->port(), 10s);
    const auto reply = client.call(proto::Hello{"test", "x", proto::kProtocolVersion, 9});
    EXPECT_EQ(error_of(reply), proto::ErrorCode::BadRequest);
}

// A person who says it is the level 1 computer, without the key the server gave its own bots
// (or with a guess at it), is refused: players asking for the computer never get a person. The
// server's real bots, which have the key, are seated meanwhile (the tests above).
TEST(ServerBots, APersonCannotPoseAsTheComputer) {
    BotServer bots;
    ASSERT_TRUE(bots.server);
    for (const std::string key : {"", "0123456789abcdef0123456789abcdef", "x"}) {
        test::TestClient client(bots.server->port(), 10s);
        const auto reply = client.call(proto::Hello{"test", "bot level 1", proto::kProtocolVersion, 1, key});
        EXPECT_EQ(error_of(reply), proto::ErrorCode::BadToken) << "key '" << key << "'";
    }
}

}  // namespace
}  // namespace xq
