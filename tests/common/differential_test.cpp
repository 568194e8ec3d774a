// Differential test against Fairy-Stockfish: in seeded random games, our legal move set must equal
// the engine's at every ply. XQ_DIFF_GAMES and XQ_DIFF_SEED change the size and seed
// (bench/differential.sh runs a larger sample).

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "support/fsf_oracle.h"
#include "support/test_data.h"

namespace xq {
namespace {

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
    const char* value = std::getenv(name);
    return value ? std::strtoull(value, nullptr, 10) : fallback;
}

std::vector<std::string> sorted_iccs(const MoveList& moves) {
    std::vector<std::string> out;
    for (Move m : moves) out.push_back(to_iccs(m));
    std::sort(out.begin(), out.end());
    return out;
}

std::string join(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

// A random game biased towards captures and checks, so that sparse endgames, checks and mates
// appear as often as crowded openings.
std::vector<Position> random_game(std::mt19937_64& rng, const Position& start, int max_plies) {
    std::vector<Position> positions{start};
    Position pos = start;
    for (int ply = 0; ply < max_plies; ++ply) {
        const MoveList moves = legal_moves(pos);
        if (moves.empty()) break;
        std::vector<Move> forcing;
        for (Move m : moves)
            if (pos.at(m.to()) != Piece::None || pos.with_move(m).in_check()) forcing.push_back(m);
        const bool force = !forcing.empty() && rng() % 3 == 0;
        pos.play(force ? forcing[rng() % forcing.size()] : moves[rng() % moves.size()]);
        positions.push_back(pos);
    }
    return positions;
}

TEST(Differential, LegalMovesMatchFairyStockfish) {
    const std::uint64_t games = env_or("XQ_DIFF_GAMES", 2000);
    std::mt19937_64 rng(env_or("XQ_DIFF_SEED", 20261123));
    const auto table = test::load_perft_cases(test::data_path("perft/positions.tsv"));
    test::FsfOracle engine;
    std::uint64_t compared = 0, mismatches = 0;
    for (std::uint64_t g = 0; g < games && mismatches < 10; ++g) {
        // Every fourth game starts from a reference position instead of the opening.
        const Position start = g % 4 == 3 ? *parse_fen(table[rng() % table.size()].fen) : Position::start();
        const auto positions = random_game(rng, start, 300);
        std::vector<std::string> fens;
        for (const auto& p : positions)
            fens.push_back(to_fen(Position::from_board(p.board(), p.side_to_move())));
        const auto expected = engine.legal_moves(fens);
        for (std::size_t i = 0; i < positions.size(); ++i) {
            ++compared;
            const auto ours = sorted_iccs(legal_moves(positions[i]));
            if (ours != expected[i]) {
                ++mismatches;
                ADD_FAILURE() << "game " << g << " ply " << i << "\nFEN:    " << fens[i]
                              << "\nours:   " << join(ours) << "\nengine: " << join(expected[i]);
            }
        }
    }
    std::cout << "[ differential ] " << games << " games, " << compared << " positions compared, "
              << mismatches << " mismatches\n";
    EXPECT_GT(compared, games * 50);
}

TEST(Differential, EngineCoordinatesConvert) {
    EXPECT_EQ(test::engine_to_iccs("h3e3"), "h2e2");
    EXPECT_EQ(test::engine_to_iccs("b10c8"), "b9c7");
    EXPECT_EQ(test::engine_to_iccs("a1a10"), "a0a9");
}

TEST(Differential, PerftMatchesFairyStockfishOnReferencePositions) {
    test::FsfOracle engine;
    for (const auto& c : test::load_perft_cases(test::data_path("perft/positions.tsv"))) {
        if (c.depth != 3) continue;
        const auto pos = parse_fen(c.fen);
        ASSERT_TRUE(pos);
        EXPECT_EQ(engine.perft(c.fen, 3), c.nodes) << c.fen;
    }
}

}  // namespace
}  // namespace xq
