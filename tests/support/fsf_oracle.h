#pragma once
// Fairy-Stockfish as a test oracle: a child process spoken to over pipes in UCI, used to compare
// legal move sets and perft counts with ours. Test and bench code only; the product never links it.

#include <sys/types.h>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace xq::test {

class FsfOracle {
public:
    // Starts the engine in xiangqi mode; throws std::runtime_error if it cannot be started.
    FsfOracle();
    ~FsfOracle();
    FsfOracle(const FsfOracle&) = delete;
    FsfOracle& operator=(const FsfOracle&) = delete;

    // Legal moves of each position (as our ICCS, ranks 0-9), sorted. Positions are sent in one
    // pipelined batch, so keep batches to a few hundred.
    std::vector<std::vector<std::string>> legal_moves(const std::vector<std::string>& fens);

    // Runs "go perft depth" and returns the node count.
    std::uint64_t perft(const std::string& fen, int depth);

    // The engine's path (PATH lookup, then /usr/games).
    static std::string binary();

private:
    void send(std::string_view text);
    std::string read_line();

    pid_t pid_ = -1;
    std::FILE* to_engine_ = nullptr;
    std::FILE* from_engine_ = nullptr;
};

// "h3e3" (engine ranks 1-10) to "h2e2" (ours, 0-9).
std::string engine_to_iccs(std::string_view move);

}  // namespace xq::test
