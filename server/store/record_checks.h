#pragma once
// The checks both backends make before writing, and the outcome words read back: one copy, so a
// record SQLite refuses is refused by PostgreSQL with the same message. Not part of the API.

#include <optional>
#include <string>
#include <string_view>

#include "server/store/records.h"

namespace xq::server::detail {

// The snake_case words of outcome.h's to_string(), read back; nullopt for an unknown word.
std::optional<Result> parse_result(std::string_view text);
std::optional<Reason> parse_reason(std::string_view text);

// Checks what the schema's CHECKs would refuse, with a clearer message and before any write.
StoreResult<void> check_id(std::string_view id);
StoreResult<void> check_time_control(const TimeControlRecord& tc);
StoreResult<void> check_finished(Result result);

// The number of moves in "h2e2 h9g7", or an error if a token is not ICCS or the spacing is off.
StoreResult<int> count_iccs_moves(std::string_view moves);

StoreError invalid(std::string message);

}  // namespace xq::server::detail
