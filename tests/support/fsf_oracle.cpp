#include "fsf_oracle.h"

#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <stdexcept>

namespace xq::test {

std::string FsfOracle::binary() {
    if (const char* path = std::getenv("PATH")) {
        std::string_view rest = path;
        while (!rest.empty()) {
            const auto colon = rest.find(':');
            const std::string candidate = std::string(rest.substr(0, colon)) + "/fairy-stockfish";
            if (access(candidate.c_str(), X_OK) == 0) return candidate;
            if (colon == std::string_view::npos) break;
            rest.remove_prefix(colon + 1);
        }
    }
    return "/usr/games/fairy-stockfish";
}

FsfOracle::FsfOracle() {
    const std::string path = binary();
    if (access(path.c_str(), X_OK) != 0) throw std::runtime_error("fairy-stockfish not found at " + path);
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_engine_ = fdopen(in[1], "w");
    from_engine_ = fdopen(out[0], "r");
    send("uci\nsetoption name UCI_Variant value xiangqi\nisready\n");
    while (read_line() != "readyok") {
    }
}

FsfOracle::~FsfOracle() {
    if (to_engine_) {
        std::fputs("quit\n", to_engine_);
        std::fclose(to_engine_);
    }
    if (from_engine_) std::fclose(from_engine_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
}

void FsfOracle::send(std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), to_engine_);
    std::fflush(to_engine_);
}

std::string FsfOracle::read_line() {
    std::string line;
    int ch;
    while ((ch = std::fgetc(from_engine_)) != EOF && ch != '\n') line += static_cast<char>(ch);
    if (ch == EOF && line.empty()) throw std::runtime_error("fairy-stockfish closed its output");
    return line;
}

std::vector<std::vector<std::string>> FsfOracle::legal_moves(const std::vector<std::string>& fens) {
    std::string batch;
    for (const auto& fen : fens) batch += "position fen " + fen + "\ngo perft 1\n";
    send(batch);
    std::vector<std::vector<std::string>> result(fens.size());
    for (auto& moves : result) {
        for (std::string line = read_line(); !line.starts_with("Nodes searched"); line = read_line()) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) moves.push_back(engine_to_iccs(line.substr(0, colon)));
        }
        std::sort(moves.begin(), moves.end());
    }
    return result;
}

std::uint64_t FsfOracle::perft(const std::string& fen, int depth) {
    send("position fen " + fen + "\ngo perft " + std::to_string(depth) + "\n");
    for (std::string line = read_line();; line = read_line())
        if (line.starts_with("Nodes searched: ")) return std::stoull(line.substr(16));
}

std::string engine_to_iccs(std::string_view move) {
    // Engine squares are a letter then a rank of 1-10; ours drop the rank by one.
    std::string out;
    std::size_t i = 0;
    while (i < move.size()) {
        out += move[i++];
        int rank = 0;
        while (i < move.size() && move[i] >= '0' && move[i] <= '9') rank = rank * 10 + (move[i++] - '0');
        out += static_cast<char>('0' + rank - 1);
    }
    return out;
}

}  // namespace xq::test
