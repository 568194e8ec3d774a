// What both backends share: error names, the record checks they make before writing, and the
// game a journal record belongs to.

#include "server/store/store.h"

#include "common/iccs.h"
#include "server/store/record_checks.h"

namespace xq::server {

std::string_view code_name(StoreErrorCode code) {
    switch (code) {
        case StoreErrorCode::OpenFailed:
            return "open_failed";
        case StoreErrorCode::Corrupt:
            return "corrupt";
        case StoreErrorCode::Io:
            return "io";
        case StoreErrorCode::Constraint:
            return "constraint";
        case StoreErrorCode::NotFound:
            return "not_found";
        case StoreErrorCode::Busy:
            return "busy";
        case StoreErrorCode::ReadOnly:
            return "read_only";
        case StoreErrorCode::InvalidArgument:
            return "invalid_argument";
        case StoreErrorCode::VersionMismatch:
            return "version_mismatch";
        case StoreErrorCode::Fenced:
            return "fenced";
        case StoreErrorCode::Internal:
            break;
    }
    return "internal";
}

namespace detail {

std::optional<Result> parse_result(std::string_view text) {
    for (Result r : {Result::Ongoing, Result::RedWins, Result::BlackWins, Result::Draw})
        if (to_string(r) == text) return r;
    return std::nullopt;
}

std::optional<Reason> parse_reason(std::string_view text) {
    for (Reason r : {Reason::None, Reason::Checkmate, Reason::Stalemate, Reason::PerpetualCheck,
                     Reason::PerpetualChase, Reason::Repetition, Reason::MoveLimit,
                     Reason::InsufficientMaterial, Reason::Resignation, Reason::Agreement, Reason::Timeout,
                     Reason::Abandonment})
        if (to_string(r) == text) return r;
    return std::nullopt;
}

StoreError invalid(std::string message) { return {StoreErrorCode::InvalidArgument, std::move(message)}; }

StoreResult<void> check_id(std::string_view id) {
    if (id.empty()) return std::unexpected(invalid("a game id must not be empty"));
    return {};
}

StoreResult<void> check_time_control(const TimeControlRecord& tc) {
    if (tc.base_seconds < 0 || tc.increment_seconds < 0 || tc.move_cap_seconds < 0)
        return std::unexpected(invalid("time control figures must not be negative"));
    return {};
}

StoreResult<void> check_finished(Result result) {
    if (result == Result::Ongoing) return std::unexpected(invalid("a finished game needs a result, not ongoing"));
    return {};
}

StoreResult<int> count_iccs_moves(std::string_view moves) {
    int count = 0;
    while (!moves.empty()) {
        const std::size_t space = moves.find(' ');
        const std::string_view token = moves.substr(0, space);
        if (!parse_iccs(token) || token.size() != 4)
            return std::unexpected(invalid("not a move in ICCS coordinates: '" + std::string(token) + "'"));
        ++count;
        if (space == std::string_view::npos) break;
        moves.remove_prefix(space + 1);
        if (moves.empty()) return std::unexpected(invalid("moves end with a space"));
    }
    return count;
}

}  // namespace detail

std::string_view journal_game_id(const JournalRecord& record) {
    return std::visit(
        [](const auto& r) -> std::string_view {
            using T = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<T, JournalStart>) return r.game.id;
            else if constexpr (std::is_same_v<T, JournalAppend>) return r.move.game_id;
            else if constexpr (std::is_same_v<T, JournalFinish>) return r.game.id;
            else return r.game_id;  // takeback, abort, seat token
        },
        record);
}

}  // namespace xq::server
