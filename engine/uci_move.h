#pragma once
// The one place where our ICCS squares (ranks 0-9, "h2e2") meet the engine's plain-UCI squares.
// Fairy-Stockfish 11 with UCI_Variant xiangqi numbers ranks 1-10 ("h3e3"); tests/engine checks
// what the installed engine actually prints.

#include <optional>
#include <string>
#include <string_view>

#include "common/types.h"

namespace xq::engine {

std::string to_uci(Move m);                             // a0 -> a1, h2e2 -> "h3e3", e9 -> e10
std::optional<Move> from_uci(std::string_view text);    // "h3e3" -> h2e2; "a10a9" -> a9a8

}  // namespace xq::engine
