#include "test_data.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace xq::test {
namespace {

std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, '\t')) fields.push_back(field);
    return fields;
}

std::vector<std::vector<std::string>> read_tsv(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line))
        if (!line.empty()) rows.push_back(split_tabs(line));
    return rows;
}

}  // namespace

std::string data_path(const std::string& relative) { return std::string(XQ_TEST_DATA_DIR) + "/" + relative; }

std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream in(text);
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

std::vector<PerftCase> load_perft_cases(const std::string& path) {
    std::vector<PerftCase> cases;
    for (const auto& row : read_tsv(path)) {
        if (row.size() < 3) throw std::runtime_error("short perft row in " + path);
        cases.push_back({row[0], std::stoi(row[1]), std::stoull(row[2]), row.size() > 3 ? row[3] : ""});
    }
    return cases;
}

std::vector<GameRecord> load_games(const std::string& path) {
    std::vector<GameRecord> games;
    for (const auto& row : read_tsv(path)) {
        if (row.size() < 6) throw std::runtime_error("short game row in " + path);
        games.push_back({row[0], row[2], split_words(row[3]), row[4], row[5]});
    }
    return games;
}

}  // namespace xq::test
