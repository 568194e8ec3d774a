#pragma once
// The line a bot prints when one of its games ends:
// {"result": "red_wins|black_wins|draw|aborted", "reason": "...", "moves": N, "level": L, "side": "red|black"}
// "moves" counts plies (each side's move is one).

#include <string>

#include "common/types.h"

namespace xq::bot {

struct GameReport {
    std::string result;  // "red_wins", "black_wins", "draw", "aborted"
    std::string reason;  // the server's: "checkmate", "resignation", "timeout", ...; "" when aborted
    int moves = 0;
    int level = 0;
    Color side = Color::Red;
    std::string to_json() const;  // one line, no newline
};

}  // namespace xq::bot
