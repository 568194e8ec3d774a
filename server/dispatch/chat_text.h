#pragma once
// What chat text may not hold: characters that change how a line reads rather than what it says.

#include <string>
#include <string_view>

namespace xq::server {

// The first such character of `utf8` named for people ("a newline", "U+202E, a direction
// override"), or "" when there is none: the C0 controls (newline and tab included), DEL, the C1
// controls, the line and paragraph separators, and the bidirectional marks, embeddings, overrides
// and isolates. `utf8` is valid UTF-8 (the protocol's decoder refuses anything else).
std::string control_character(std::string_view utf8);

}  // namespace xq::server
