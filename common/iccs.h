#pragma once
// ICCS coordinates: files a-i from Red's left, ranks 0-9 from Red's back rank ("h2e2").

#include <optional>
#include <string>
#include <string_view>

#include "types.h"

namespace xq {

std::string square_name(Square s);                       // "e0"
std::optional<Square> parse_square(std::string_view s);  // "e0" or "E0"

std::string to_iccs(Move m);  // "h2e2"

// Reads "h2e2", "H2E2" or "H2-E2". Only the syntax is checked: legality is the position's business.
std::optional<Move> parse_iccs(std::string_view text);

}  // namespace xq
