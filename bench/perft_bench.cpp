// Perft speed against Fairy-Stockfish, measured in one invocation: for each position the two
// perfts alternate (ours, engine, ours, ...) so machine load hits both alike. Prints nodes/s of
// each (median of the rounds) and the ratio.
//
// usage: perft_bench [ROUNDS] [DEPTH]   (defaults: 3 rounds, depth 5)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/fen.h"
#include "common/perft.h"
#include "support/fsf_oracle.h"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <class F>
double rate(F&& run, std::uint64_t& nodes) {
    const auto start = Clock::now();
    nodes = run();
    return static_cast<double>(nodes) / std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    const int depth = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    const std::vector<std::pair<std::string, std::string>> positions = {
        {"start", xq::kStartFen},
        {"middlegame", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"},
    };
    xq::test::FsfOracle engine;
    double worst_ratio = 1e9;
    std::printf("perft depth %d, %d rounds each, alternating; fairy-stockfish: %s\n", depth, rounds,
                xq::test::FsfOracle::binary().c_str());
    for (const auto& [name, fen] : positions) {
        const xq::Position pos = *xq::parse_fen(fen);
        std::vector<double> ours, theirs;
        std::uint64_t our_nodes = 0, their_nodes = 0;
        for (int r = 0; r < rounds; ++r) {
            ours.push_back(rate([&] { return xq::perft(pos, depth); }, our_nodes));
            theirs.push_back(rate([&] { return engine.perft(fen, depth); }, their_nodes));
        }
        if (our_nodes != their_nodes) {
            std::printf("%s: node counts differ: ours %llu, fairy-stockfish %llu\n", name.c_str(),
                        static_cast<unsigned long long>(our_nodes),
                        static_cast<unsigned long long>(their_nodes));
            return 1;
        }
        const double ratio = median(ours) / median(theirs);
        worst_ratio = std::min(worst_ratio, ratio);
        std::printf("%-11s nodes %llu  xiangqi %.1f M nodes/s  fairy-stockfish %.1f M nodes/s  ratio %.2fx\n",
                    name.c_str(), static_cast<unsigned long long>(our_nodes), median(ours) / 1e6,
                    median(theirs) / 1e6, ratio);
    }
    std::printf("worst ratio %.2fx (target >= 2.00x)\n", worst_ratio);
    return 0;
}
