// Ratings (schema version 6): each account's Glicko-2 rating per speed, its history, its results,
// the leaderboard, and the archive listed by account. The ratings a game changes are written by
// write_ratings in the transaction that archives it (turn_commit.cpp, store.cpp).

#include <algorithm>

#include "server/store/sqlite/sqlite_store.h"
#include "server/store/sqlite/store_detail.h"

namespace xq::server {


StoreResult<void> SqliteStore::write_ratings(const ArchivedGame& g) {
    for (const auto* side : {&g.red_rating, &g.black_rating}) {
        if (!*side) continue;
        const std::string& account = side == &g.red_rating ? g.red_account : g.black_account;
        const RatingUpdate& u = **side;
        if (account.empty())
            return std::unexpected(detail::invalid("archive game " + g.id + ": a rating change for a guest"));
        auto done = db_.run(
            "INSERT INTO ratings (account, speed, rating, deviation, volatility, games) VALUES (?1, ?2, ?3, ?4, ?5, 1) "
            "ON CONFLICT (account, speed) DO UPDATE SET rating = ?3, deviation = ?4, volatility = ?5, games = games + 1",
            {account, u.speed, u.after.rating, u.after.deviation, u.after.volatility});
        if (!done) return std::unexpected(in_context(std::move(done.error()), "rate game " + g.id));
        done = db_.run("INSERT INTO rating_history (account, speed, at, rating, deviation, game_id) VALUES (?, ?, ?, ?, ?, ?)",
                       {account, u.speed, g.ended_at_ms, u.after.rating, u.after.deviation, g.id});
        if (!done) return std::unexpected(in_context(std::move(done.error()), "rate game " + g.id));
    }
    return {};
}

StoreResult<std::optional<RatingRecord>> SqliteStore::find_rating(std::string_view account, std::string_view speed) {
    auto q = db_.query("SELECT speed, rating, deviation, volatility, games FROM ratings WHERE account = ? AND speed = ?",
                       {account, speed});
    if (!q) return std::unexpected(in_context(std::move(q.error()), "find rating"));
    auto row = q->next();
    if (!row) return std::unexpected(in_context(std::move(row.error()), "find rating"));
    if (!*row) return std::optional<RatingRecord>{};
    return std::optional<RatingRecord>{RatingRecord{q->text(0), {q->real(1), q->real(2), q->real(3)}, q->int64(4)}};
}

StoreResult<std::vector<RatingRecord>> SqliteStore::ratings_of(std::string_view account) {
    auto q = db_.query("SELECT speed, rating, deviation, volatility, games FROM ratings WHERE account = ?", {account});
    if (!q) return std::unexpected(in_context(std::move(q.error()), "read ratings"));
    std::vector<RatingRecord> out;
    for (;;) {
        auto row = q->next();
        if (!row) return std::unexpected(in_context(std::move(row.error()), "read ratings"));
        if (!*row) break;
        out.push_back({q->text(0), {q->real(1), q->real(2), q->real(3)}, q->int64(4)});
    }
    return out;
}

StoreResult<std::vector<RatingPointRecord>> SqliteStore::rating_history(std::string_view account, std::string_view speed,
                                                                  std::int64_t limit) {
    // The newest `limit` through the primary key, then put oldest first.
    auto q = db_.query("SELECT at, rating, deviation, game_id FROM rating_history WHERE account = ? AND speed = ? "
                       "ORDER BY at DESC, game_id DESC LIMIT ?",
                       {account, speed, limit});
    if (!q) return std::unexpected(in_context(std::move(q.error()), "read rating history"));
    std::vector<RatingPointRecord> out;
    for (;;) {
        auto row = q->next();
        if (!row) return std::unexpected(in_context(std::move(row.error()), "read rating history"));
        if (!*row) break;
        out.push_back({q->int64(0), q->real(1), q->real(2), q->text(3)});
    }
    std::ranges::reverse(out);
    return out;
}

StoreResult<ResultCounts> SqliteStore::results_of(std::string_view account) {
    // Both account indexes; a game against oneself counts once, on the red side.
    auto q = db_.query(
        "SELECT result, count(*) FROM games WHERE red_account = ?1 AND status = 'archived' GROUP BY result "
        "UNION ALL SELECT CASE result WHEN 'red_wins' THEN 'black_wins' WHEN 'black_wins' THEN 'red_wins' ELSE result "
        "END, count(*) FROM games WHERE black_account = ?1 AND status = 'archived' AND red_account IS NOT ?1 "
        "GROUP BY result",
        {account});
    if (!q) return std::unexpected(in_context(std::move(q.error()), "count results"));
    ResultCounts counts;
    for (;;) {
        auto row = q->next();
        if (!row) return std::unexpected(in_context(std::move(row.error()), "count results"));
        if (!*row) break;
        const std::string result = q->text(0);  // as seen from the account's side, red
        (result == "red_wins" ? counts.wins : result == "black_wins" ? counts.losses : counts.draws) += q->int64(1);
    }
    return counts;
}

StoreResult<std::vector<LeaderRecord>> SqliteStore::leaderboard(std::string_view speed, std::int64_t min_games,
                                                          double max_deviation, std::int64_t limit) {
    auto q = db_.query(
        "SELECT a.name, r.rating, r.deviation, r.volatility, r.games, a.computer FROM ratings r "
        "JOIN accounts a ON a.key = r.account WHERE r.speed = ? AND r.games >= ? AND r.deviation <= ? "
        "ORDER BY r.rating DESC, a.key LIMIT ?",
        {speed, min_games, max_deviation, limit});
    if (!q) return std::unexpected(in_context(std::move(q.error()), "read leaderboard"));
    std::vector<LeaderRecord> out;
    for (;;) {
        auto row = q->next();
        if (!row) return std::unexpected(in_context(std::move(row.error()), "read leaderboard"));
        if (!*row) break;
        out.push_back({q->text(0), {q->real(1), q->real(2), q->real(3)}, q->int64(4), q->int64(5) != 0});
    }
    return out;
}

StoreResult<ArchivePage> SqliteStore::list_archived_of_account(std::int64_t offset, std::int64_t limit,
                                                         std::string_view account, std::optional<ArchiveKey> after) {
    if (offset < 0 || limit < 1 || limit > kMaxPage)
        return std::unexpected(detail::invalid("list archive: offset must be >= 0 and limit in 1.." +
                                               std::to_string(kMaxPage)));
    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Read);
    if (!tx) return std::unexpected(std::move(tx.error()));
    // As list_archived's name filter: each account index in list order, the two merged; private
    // games are not listed; a game against oneself once.
    static const std::string kCount =
        "SELECT (SELECT count(*) FROM (SELECT 1 FROM games WHERE red_account = ?2 AND status = 'archived' AND "
        "join_code IS NULL LIMIT ?1)) + (SELECT count(*) FROM (SELECT 1 FROM games WHERE black_account = ?2 AND "
        "status = 'archived' AND red_account IS NOT ?2 AND join_code IS NULL LIMIT ?1))";
    const auto page = [](std::string_view key) {
        const std::string columns(detail::kSummaryColumns);
        return "SELECT " + columns + " FROM games WHERE red_account = ?3 AND status = 'archived' AND join_code IS NULL" +
               std::string(key) + " UNION ALL SELECT " + columns +
               " FROM games WHERE black_account = ?3 AND status = 'archived' AND red_account IS NOT ?3 AND join_code "
               "IS NULL" +
               std::string(key) + " ORDER BY ended_at DESC, id DESC LIMIT ?1 OFFSET ?2";
    };
    static const std::string kPage = page(""), kPageAfter = page(" AND (ended_at, id) < (?4, ?5)");

    ArchivePage out;
    const std::int64_t cap = kCountCap + 1;
    auto count = db_.query(kCount, {cap, account});
    if (!count) return std::unexpected(in_context(std::move(count.error()), "list archive"));
    auto counted = count->next();
    if (!counted) return std::unexpected(in_context(std::move(counted.error()), "list archive"));
    out.total = *counted ? count->int64(0) : 0;
    out.total_capped = out.total > kCountCap;
    out.total = std::min(out.total, kCountCap);

    auto rows = after ? db_.query(kPageAfter, {limit + 1, offset, account, after->ended_at_ms, std::string_view(after->id)})
                      : db_.query(kPage, {limit + 1, offset, account});
    if (!rows) return std::unexpected(in_context(std::move(rows.error()), "list archive"));
    for (;;) {
        auto row = rows->next();
        if (!row) return std::unexpected(in_context(std::move(row.error()), "list archive"));
        if (!*row) break;
        auto summary = detail::summary_row(*rows);
        if (!summary) return std::unexpected(std::move(summary.error()));
        out.games.push_back(std::move(*summary));
    }
    out.close(limit);
    return out;
}

}  // namespace xq::server
