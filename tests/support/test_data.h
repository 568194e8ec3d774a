#pragma once
// Readers for the reference data in tests/data (see its README): perft tables and real games.

#include <cstdint>
#include <string>
#include <vector>

namespace xq::test {

std::string data_path(const std::string& relative);  // absolute path below tests/data

struct PerftCase {
    std::string fen;
    int depth = 0;
    std::uint64_t nodes = 0;
    std::string note;
};
std::vector<PerftCase> load_perft_cases(const std::string& path);

struct GameRecord {
    std::string id;
    std::string result;
    std::vector<std::string> iccs;
    std::string notation;
    std::string moves_text;
};
std::vector<GameRecord> load_games(const std::string& path);

std::vector<std::string> split_words(const std::string& text);

}  // namespace xq::test
