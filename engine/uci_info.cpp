#include "engine/uci_info.h"

#include <charconv>
#include <vector>

namespace xq::engine {
namespace {

std::vector<std::string_view> split(std::string_view line) {
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        if (i > start) words.push_back(line.substr(start, i - start));
    }
    return words;
}

std::optional<int> to_int(std::string_view text) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

std::optional<UciScore> parse_info_score(std::string_view line) {
    const auto words = split(line);
    if (words.empty() || words[0] != "info") return std::nullopt;
    UciScore score;
    bool found = false;
    for (std::size_t i = 1; i < words.size(); ++i) {
        if (words[i] == "depth" && i + 1 < words.size()) {
            score.depth = to_int(words[i + 1]).value_or(0);
        } else if (words[i] == "score" && i + 2 < words.size()) {
            const auto value = to_int(words[i + 2]);
            if (!value || (words[i + 1] != "cp" && words[i + 1] != "mate")) return std::nullopt;
            score.is_mate = words[i + 1] == "mate";
            score.value = *value;
            found = true;
            // A bound is the search's interim view, not its verdict.
            if (i + 3 < words.size() && (words[i + 3] == "lowerbound" || words[i + 3] == "upperbound"))
                return std::nullopt;
        }
    }
    if (!found) return std::nullopt;
    return score;
}

std::optional<UciBestMove> parse_bestmove(std::string_view line) {
    const auto words = split(line);
    if (words.size() < 2 || words[0] != "bestmove") return std::nullopt;
    return UciBestMove{std::string(words[1])};
}

}  // namespace xq::engine
