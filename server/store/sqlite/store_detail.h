#pragma once
// Helpers shared by the SQLite store's source files (sqlite_store.cpp, live_games.cpp, turn_commit.cpp); not
// part of the API. The checks both backends make are in ../record_checks.h.

#include <cmath>
#include <optional>
#include <string_view>

#include "server/store/record_checks.h"
#include "server/store/sqlite/sqlite_store.h"

namespace xq::server::detail {

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
