#pragma once
// Helpers shared by the store's source files (store.cpp, live_games.cpp, turn_commit.cpp); not part of the API.

#include <cmath>
#include <optional>
#include <string_view>

#include "server/store/store.h"

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

// NULL for "" (a guest's account column), else the text.
inline sql::Value null_if_empty(std::string_view text) { return text.empty() ? sql::Value(nullptr) : sql::Value(text); }

// A rated side's rating before and after, rounded, for the archive row; NULL when unrated.
inline sql::Value rating_before(const std::optional<RatingUpdate>& u) {
    return u ? sql::Value(static_cast<std::int64_t>(std::lround(u->before.rating))) : sql::Value(nullptr);
}
inline sql::Value rating_after(const std::optional<RatingUpdate>& u) {
    return u ? sql::Value(static_cast<std::int64_t>(std::lround(u->after.rating))) : sql::Value(nullptr);
}
inline sql::Value provisional_after(const std::optional<RatingUpdate>& u) {
    return u ? sql::Value(std::int64_t{ratings::is_provisional(u->after)}) : sql::Value(nullptr);
}

// The summary columns (store.cpp) as list pages read them.
StoreResult<ArchiveSummary> summary_row(const sql::Query& q);
extern const std::string_view kSummaryColumns;

}  // namespace xq::server::detail
