// xiangqi-bot against the real xiangqi-server on loopback: two bot binaries play a quick match to
// its end, and a bot given a mate in one through the protocol plays it and wins.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bot/decide.h"
#include "bot/player.h"
#include "client/net/local_server.h"
#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "support/test_client.h"

namespace xq::bot {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// A fresh folder for the server's archive, removed afterwards.
struct TempDir {
    fs::path path;
    TempDir() {
        char pattern[] = "/tmp/xq-bot-test-XXXXXX";
        path = ::mkdtemp(pattern);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

client::LocalServer start_server(const TempDir& dir) {
    client::LocalServerOptions options;
    options.binary = XQ_SERVER_PATH;
    options.db = dir.path / "games.db";
    options.plain = true;
    auto server = client::LocalServer::start(options);
    if (!server) throw std::runtime_error(server.error());
    return std::move(*server);
}

// Runs a command in the background; its stdout is read when it ends.
class Command {
public:
    explicit Command(const std::string& command) : pipe_(::popen(command.c_str(), "r")) {
        if (!pipe_) throw std::runtime_error("popen failed");
    }
    ~Command() {
        if (pipe_) ::pclose(pipe_);
    }
    // All of its output, and its exit status.
    std::pair<std::string, int> finish() {
        std::string out;
        char buffer[4096];
        while (std::fgets(buffer, sizeof buffer, pipe_)) out += buffer;
        const int status = ::pclose(pipe_);
        pipe_ = nullptr;
        return {out, status};
    }

private:
    std::FILE* pipe_;
};

std::vector<nlohmann::json> json_lines(const std::string& text) {
    std::vector<nlohmann::json> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        const std::string line = text.substr(start, end - start);
        if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return lines;
}

std::string bot_command(std::uint16_t port, int level) {
    return std::string(XQ_BOT_PATH) + " --server 127.0.0.1:" + std::to_string(port) + " --level " +
           std::to_string(level) + " --quick-match --games 1 --time-control 5+3 --max-think-ms 25 --plain";
}

TEST(BotGame, TwoBotsPlayAQuickMatchToALegalResult) {
    TempDir dir;
    auto server = start_server(dir);
    Command first(bot_command(server.port(), 1));
    Command second(bot_command(server.port(), 2));
    const auto [out1, status1] = first.finish();
    const auto [out2, status2] = second.finish();
    ASSERT_EQ(status1, 0) << out1;
    ASSERT_EQ(status2, 0) << out2;
    const auto lines1 = json_lines(out1);
    const auto lines2 = json_lines(out2);
    ASSERT_EQ(lines1.size(), 1u) << out1;
    ASSERT_EQ(lines2.size(), 1u) << out2;
    const auto& a = lines1[0];
    const auto& b = lines2[0];
    EXPECT_EQ(a["level"], 1);
    EXPECT_EQ(b["level"], 2);
    EXPECT_NE(a["side"], b["side"]);
    EXPECT_EQ(a["result"], b["result"]);
    EXPECT_EQ(a["reason"], b["reason"]);
    EXPECT_EQ(a["moves"], b["moves"]);
    const std::string result = a["result"];
    EXPECT_TRUE(result == "red_wins" || result == "black_wins" || result == "draw") << out1;

    // The archived game replays legally under our rules, and a rules ending is the rules' verdict.
    test::TestClient client(server.port());
    client.hello("auditor");
    auto list = client.call(proto::ListArchive{});
    auto* archive = std::get_if<proto::ArchiveList>(&list.body);
    ASSERT_TRUE(archive);
    ASSERT_EQ(archive->games.size(), 1u);
    auto reply = client.call(proto::GetArchived{archive->games[0].game_id});
    auto* archived = std::get_if<proto::ArchivedGame>(&reply.body);
    ASSERT_TRUE(archived);
    Game game(*parse_fen(archived->start_fen));
    for (const auto& text : archived->moves) ASSERT_TRUE(game.play(*parse_iccs(text))) << text;
    EXPECT_EQ(static_cast<int>(archived->moves.size()), a["moves"].get<int>());
    const std::string reason = a["reason"];
    if (reason == "resignation" || reason == "agreement" || reason == "timeout") {
        EXPECT_FALSE(game.is_over()) << reason;
    } else {
        ASSERT_TRUE(game.is_over()) << reason;
        EXPECT_EQ(std::string(proto::to_string(archived->entry.outcome.result)), result);
        EXPECT_EQ(std::string(to_string(game.outcome().reason)), reason);
    }
}

// Red for the mate test: gives Black a mate in one when any Red move allows it, else the move that
// leaves Black the most checks and captures (never a check itself, so no repetition ruling ends
// the game first).
Move helpmate_move(const Game& game, std::mt19937& random) {
    auto moves = allowed_moves(game);
    std::shuffle(moves.begin(), moves.end(), random);
    Move best = moves.front();
    int best_score = -1;
    for (Move m : moves) {
        Game next = game;
        if (!next.play(m) || next.is_over()) continue;
        if (next.position().in_check()) continue;
        if (mate_in_one(next)) return m;
        int score = 0;
        for (Move reply : legal_moves(next.position())) {
            const Position after = next.position().with_move(reply);
            score += after.in_check() ? 3 : 0;
            score += game.position().at(reply.to()) != Piece::None ? 1 : 0;
        }
        if (score > best_score) {
            best_score = score;
            best = m;
        }
    }
    return best;
}

TEST(BotGame, ABotWithAMateInOnePlaysItAndTheServerEndsTheGame) {
    TempDir dir;
    auto server = start_server(dir);

    // The bot hosts a game as Black in the lobby, in this process.
    BotOptions options;
    options.server = {"127.0.0.1", server.port()};
    options.security.plain = true;
    options.level = 1;
    options.name = "mate bot";
    options.color = proto::ColorChoice::Black;
    options.max_think_ms = 40;
    std::mutex reports_mutex;
    std::vector<GameReport> reports;
    std::atomic<bool> stop{false};
    Player player(options);
    std::thread bot([&] {
        player.run(
            [&](const GameReport& r) {
                std::lock_guard lock(reports_mutex);
                reports.push_back(r);
            },
            stop);
    });
    struct Stopper {
        std::atomic<bool>& stop;
        std::thread& thread;
        ~Stopper() {
            stop = true;
            thread.join();
        }
    } stopper{stop, bot};

    test::TestClient red(server.port());
    red.hello("helper");
    proto::GameId game_id = 0;
    for (int i = 0; i < 100 && game_id == 0; ++i) {
        auto reply = red.call(proto::ListGames{});
        if (auto* list = std::get_if<proto::GameList>(&reply.body))
            for (const auto& open : list->open)
                if (open.host == "mate bot") game_id = open.game_id;
        if (game_id == 0) std::this_thread::sleep_for(50ms);
    }
    ASSERT_NE(game_id, 0u) << "the bot never opened a game";
    auto seated = red.call(proto::JoinGame{game_id, ""});
    ASSERT_TRUE(std::holds_alternative<proto::Seated>(seated.body));
    auto started = red.wait_for<proto::GameStarted>();
    ASSERT_TRUE(started);
    EXPECT_EQ(started->black, "mate bot");

    Game game(*parse_fen(started->start_fen));
    std::mt19937 random(7);
    std::uint64_t move_id = 0;
    bool mated = false;
    while (!mated && game.ply_count() < 200) {
        const Move move = helpmate_move(game, random);
        auto reply = red.call(proto::MakeMove{game_id, to_iccs(move), ++move_id, static_cast<std::uint32_t>(game.ply_count())});
        ASSERT_TRUE(std::holds_alternative<proto::MoveMade>(reply.body)) << to_iccs(move);
        ASSERT_TRUE(game.play(move));
        const auto mate = mate_in_one(game);

        // The bot's answer.
        std::optional<proto::MoveMade> answer;
        while (!answer) {
            auto message = red.next();
            ASSERT_TRUE(message) << "no move from the bot";
            ASSERT_FALSE(std::holds_alternative<proto::GameEnded>(message->body)) << "the game ended before the bot moved";
            if (auto* made = std::get_if<proto::MoveMade>(&message->body)) answer = *made;
        }
        ASSERT_TRUE(game.play(*parse_iccs(answer->move))) << answer->move;
        if (mate) {
            // The first mate in one the bot is given, it plays (not necessarily the same mate).
            ASSERT_TRUE(game.is_over()) << "the bot missed the mate " << to_iccs(*mate) << " and played " << answer->move;
            EXPECT_EQ(game.result(), Result::BlackWins);
            mated = true;
        } else {
            ASSERT_FALSE(game.is_over());
        }
    }
    ASSERT_TRUE(mated) << "no mate in one arose in " << game.ply_count() << " plies";

    auto ended = red.wait_for<proto::GameEnded>();
    ASSERT_TRUE(ended);
    EXPECT_EQ(ended->outcome.result, proto::GameResult::BlackWins);
    EXPECT_EQ(ended->outcome.reason, std::string(to_string(game.outcome().reason)));
    EXPECT_EQ(ended->outcome.ply, static_cast<std::uint32_t>(game.ply_count()));

    // The bot reported the same result, and is back in the lobby with a new open game.
    for (int i = 0; i < 100; ++i) {
        {
            std::lock_guard lock(reports_mutex);
            if (!reports.empty()) break;
        }
        std::this_thread::sleep_for(20ms);
    }
    {
        std::lock_guard lock(reports_mutex);
        ASSERT_EQ(reports.size(), 1u);
        EXPECT_EQ(reports[0].result, "black_wins");
        EXPECT_EQ(reports[0].side, Color::Black);
        EXPECT_EQ(reports[0].level, 1);
        EXPECT_EQ(reports[0].moves, game.ply_count());
    }
    bool hosting_again = false;
    for (int i = 0; i < 100 && !hosting_again; ++i) {
        auto reply = red.call(proto::ListGames{});
        if (auto* list = std::get_if<proto::GameList>(&reply.body))
            for (const auto& open : list->open) hosting_again = hosting_again || open.host == "mate bot";
        if (!hosting_again) std::this_thread::sleep_for(50ms);
    }
    EXPECT_TRUE(hosting_again) << "the bot did not open a new game after the first";
    std::cout << "the bot was given its first mate in one at ply " << game.ply_count() - 1 << "\n";
}

}  // namespace
}  // namespace xq::bot
