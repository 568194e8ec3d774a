#pragma once
// Reading the engine's search output: the score of an "info" line and the move of "bestmove".
// Scores here are from the side to move's view, as UCI gives them; engine.h turns them to Red's.

#include <optional>
#include <string>
#include <string_view>

namespace xq::engine {

struct UciScore {
    bool is_mate = false;
    int value = 0;  // centipawns, or moves to mate (negative: the side to move is mated)
    int depth = 0;
};

// The score of an "info ... score cp N|mate N ..." line; nullopt for other lines, lower/upper
// bound scores (not final), and malformed numbers.
std::optional<UciScore> parse_info_score(std::string_view line);

struct UciBestMove {
    std::string move;  // engine text ("h3e3"); "(none)" or "0000" when there is no move
};

// "bestmove h3e3 [ponder h10g8]"; nullopt for any other line.
std::optional<UciBestMove> parse_bestmove(std::string_view line);

}  // namespace xq::engine
