// Accounts, login sessions and ratings on PostgreSQL: the SQLite backend's statements
// (sqlite/store_accounts.cpp, sqlite/store_ratings.cpp) in PostgreSQL's dialect.

#include <algorithm>

#include "server/store/postgres/pg_store.h"
#include "server/store/record_checks.h"

namespace xq::server {
namespace {

using pg::param;

template <class T>
StoreResult<T> failed(StoreError e, std::string_view context) {
    return std::unexpected(in_context(std::move(e), context));
}

}  // namespace

StoreResult<void> PgStore::create_account(const AccountRecord& a) {
    auto done = run("INSERT INTO accounts (key, name, password_hash, created_at, computer) VALUES ($1, $2, $3, $4, $5)",
                    {param(a.key), param(a.name), param(a.password_hash), param(a.created_at_ms), param(a.computer)});
    if (!done) return failed<void>(std::move(done.error()), "create account");
    return {};
}

StoreResult<std::optional<AccountRecord>> PgStore::find_account(std::string_view key) {
    auto r = run("SELECT key, name, password_hash, created_at, computer FROM accounts WHERE key = $1", {param(key)});
    if (!r) return failed<std::optional<AccountRecord>>(std::move(r.error()), "find account");
    if (r->rows() == 0) return std::optional<AccountRecord>{};
    return std::optional<AccountRecord>{AccountRecord{r->text(0, 0), r->text(0, 1), r->text(0, 2), r->int64(0, 3), r->boolean(0, 4)}};
}

StoreResult<void> PgStore::set_password_hash(std::string_view key, std::string_view password_hash) {
    auto done = run("UPDATE accounts SET password_hash = $1 WHERE key = $2", {param(password_hash), param(key)});
    if (!done) return failed<void>(std::move(done.error()), "change password");
    if (done->affected() == 0) return std::unexpected(StoreError{StoreErrorCode::NotFound, "no such account"});
    return {};
}

StoreResult<void> PgStore::add_session(std::string_view token_hash, std::string_view account, std::int64_t created_at_ms,
                                       std::int64_t expires_at_ms) {
    // Expired sessions go as new ones come, so the table holds only live ones and a few stale.
    if (auto swept = run("DELETE FROM sessions WHERE account = $1 AND expires_at <= $2", {param(account), param(created_at_ms)});
        !swept)
        return failed<void>(std::move(swept.error()), "add session");
    auto done = run("INSERT INTO sessions (token_hash, account, created_at, expires_at) VALUES ($1, $2, $3, $4)",
                    {param(token_hash), param(account), param(created_at_ms), param(expires_at_ms)});
    if (!done) return failed<void>(std::move(done.error()), "add session");
    return {};
}

StoreResult<std::optional<std::string>> PgStore::session_account(std::string_view token_hash, std::int64_t now_ms) {
    auto r = run("SELECT account, expires_at FROM sessions WHERE token_hash = $1", {param(token_hash)});
    if (!r) return failed<std::optional<std::string>>(std::move(r.error()), "find session");
    if (r->rows() == 0) return std::optional<std::string>{};
    if (r->int64(0, 1) > now_ms) return std::optional<std::string>{r->text(0, 0)};
    if (auto gone = delete_session(token_hash); !gone) return std::unexpected(std::move(gone.error()));
    return std::optional<std::string>{};
}

StoreResult<void> PgStore::delete_session(std::string_view token_hash) {
    auto done = run("DELETE FROM sessions WHERE token_hash = $1", {param(token_hash)});
    if (!done) return failed<void>(std::move(done.error()), "delete session");
    return {};
}

StoreResult<void> PgStore::delete_other_sessions(std::string_view account, std::string_view keep_hash) {
    auto done = run("DELETE FROM sessions WHERE account = $1 AND token_hash <> $2", {param(account), param(keep_hash)});
    if (!done) return failed<void>(std::move(done.error()), "revoke sessions");
    return {};
}

std::int64_t PgStore::count_accounts() {
    auto r = run("SELECT count(*) FROM accounts");
    return r ? r->int64(0, 0) : 0;
}

StoreResult<void> PgStore::write_ratings(const ArchivedGame& g) {
    for (const auto* side : {&g.red_rating, &g.black_rating}) {
        if (!*side) continue;
        const std::string& account = side == &g.red_rating ? g.red_account : g.black_account;
        const RatingUpdate& u = **side;
        if (account.empty()) return std::unexpected(detail::invalid("archive game " + g.id + ": a rating change for a guest"));
        auto done = run(
            "INSERT INTO ratings (account, speed, rating, deviation, volatility, games) VALUES ($1, $2, $3, $4, $5, 1) "
            "ON CONFLICT (account, speed) DO UPDATE SET rating = $3, deviation = $4, volatility = $5, "
            "games = ratings.games + 1",
            {param(account), param(u.speed), param(u.after.rating), param(u.after.deviation), param(u.after.volatility)});
        if (!done) return failed<void>(std::move(done.error()), "rate game " + g.id);
        done = run("INSERT INTO rating_history (account, speed, at, rating, deviation, game_id) VALUES ($1, $2, $3, $4, $5, $6)",
                   {param(account), param(u.speed), param(g.ended_at_ms), param(u.after.rating), param(u.after.deviation),
                    param(g.id)});
        if (!done) return failed<void>(std::move(done.error()), "rate game " + g.id);
    }
    return {};
}

StoreResult<std::optional<RatingRecord>> PgStore::find_rating(std::string_view account, std::string_view speed) {
    auto r = run("SELECT speed, rating, deviation, volatility, games FROM ratings WHERE account = $1 AND speed = $2",
                 {param(account), param(speed)});
    if (!r) return failed<std::optional<RatingRecord>>(std::move(r.error()), "find rating");
    if (r->rows() == 0) return std::optional<RatingRecord>{};
    return std::optional<RatingRecord>{RatingRecord{r->text(0, 0), {r->real(0, 1), r->real(0, 2), r->real(0, 3)}, r->int64(0, 4)}};
}

StoreResult<std::vector<RatingRecord>> PgStore::ratings_of(std::string_view account) {
    auto r = run("SELECT speed, rating, deviation, volatility, games FROM ratings WHERE account = $1", {param(account)});
    if (!r) return failed<std::vector<RatingRecord>>(std::move(r.error()), "read ratings");
    std::vector<RatingRecord> out;
    for (int i = 0; i < r->rows(); ++i) out.push_back({r->text(i, 0), {r->real(i, 1), r->real(i, 2), r->real(i, 3)}, r->int64(i, 4)});
    return out;
}

StoreResult<std::vector<RatingPointRecord>> PgStore::rating_history(std::string_view account, std::string_view speed,
                                                                    std::int64_t limit) {
    auto r = run("SELECT at, rating, deviation, game_id FROM rating_history WHERE account = $1 AND speed = $2 "
                 "ORDER BY at DESC, game_id DESC LIMIT $3",
                 {param(account), param(speed), param(limit)});
    if (!r) return failed<std::vector<RatingPointRecord>>(std::move(r.error()), "read rating history");
    std::vector<RatingPointRecord> out;
    for (int i = 0; i < r->rows(); ++i) out.push_back({r->int64(i, 0), r->real(i, 1), r->real(i, 2), r->text(i, 3)});
    std::ranges::reverse(out);
    return out;
}

StoreResult<ResultCounts> PgStore::results_of(std::string_view account) {
    // A game against oneself counts once, on the red side.
    auto r = run("SELECT result, count(*) FROM games WHERE red_account = $1 AND status = 'archived' GROUP BY result "
                 "UNION ALL SELECT CASE result WHEN 'red_wins' THEN 'black_wins' WHEN 'black_wins' THEN 'red_wins' "
                 "ELSE result END, count(*) FROM games WHERE black_account = $1 AND status = 'archived' "
                 "AND red_account IS DISTINCT FROM $1 GROUP BY result",
                 {param(account)});
    if (!r) return failed<ResultCounts>(std::move(r.error()), "count results");
    ResultCounts counts;
    for (int i = 0; i < r->rows(); ++i) {
        const std::string result = r->text(i, 0);  // as seen from the account's side, red
        (result == "red_wins" ? counts.wins : result == "black_wins" ? counts.losses : counts.draws) += r->int64(i, 1);
    }
    return counts;
}

StoreResult<std::vector<LeaderRecord>> PgStore::leaderboard(std::string_view speed, std::int64_t min_games,
                                                            double max_deviation, std::int64_t limit) {
    auto r = run("SELECT a.name, r.rating, r.deviation, r.volatility, r.games, a.computer FROM ratings r "
                 "JOIN accounts a ON a.key = r.account WHERE r.speed = $1 AND r.games >= $2 AND r.deviation <= $3 "
                 "ORDER BY r.rating DESC, a.key LIMIT $4",
                 {param(speed), param(min_games), param(max_deviation), param(limit)});
    if (!r) return failed<std::vector<LeaderRecord>>(std::move(r.error()), "read leaderboard");
    std::vector<LeaderRecord> out;
    for (int i = 0; i < r->rows(); ++i)
        out.push_back({r->text(i, 0), {r->real(i, 1), r->real(i, 2), r->real(i, 3)}, r->int64(i, 4), r->boolean(i, 5)});
    return out;
}

}  // namespace xq::server
