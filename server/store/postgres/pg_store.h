#pragma once
// The PostgreSQL backend of the Store (store.h), through raw libpq (pg_conn.h), called
// synchronously from the loop thread. The same tables as SQLite's (pg_schema.cpp), but the
// journal is keyed by (game_id, n) and a live game's row counts its plies and rows, so an append
// is one statement that checks the ply and numbers the row, and nothing is kept in memory that
// another node could make stale.
//
// A database that goes away: every call fails fast with an Io error (the dispatcher refuses the
// move, INTERNAL); the connection is tried again after a backoff (100 ms doubling to 2 s), each
// attempt bounded by kConnectTimeout, so a dead database never holds the loop for long.
//
// A COMMIT whose answer never came (the connection broke during it) may or may not have stored
// the turn, whose moves were refused: each turn's transaction also writes its turn number to
// xq_turns under this store's id, and journal rows and new live games carry the turn. On
// reconnect the store reads that row: a turn that did commit is undone (its journal rows and
// started games deleted, the games' ply counts recomputed), so the database agrees with the rooms
// again before any other write (pg_journal.cpp).
//
// While the database is away, load_recoverable_games answers from a mirror of the committed live
// games (live_mirror.h): the dispatcher rebuilds a room whose turn was refused from it, so the
// room goes back to its last durable state instead of being aborted.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "server/store/live_mirror.h"
#include "server/store/postgres/pg_conn.h"
#include "server/store/store.h"

namespace xq::server {

class PgStore final : public Store {
public:
    using Store::list_archived;
    using Store::list_archived_of_account;
    using Store::load_recoverable_games;

    static constexpr int kSchemaVersion = 1;
    static constexpr std::chrono::milliseconds kConnectTimeout{250};

    // Connects (failing if the database cannot be reached now) and creates the tables if needed.
    static StoreResult<std::unique_ptr<PgStore>> open(std::string conninfo);

    StoreResult<void> archive_game(const ArchivedGame& game) override;
    std::vector<StoreError> archive_games(std::span<const ArchivedGame> games) override;
    StoreResult<ArchivePage> list_archived(std::int64_t offset, std::int64_t limit, std::optional<std::string_view> player,
                                           std::optional<ArchiveKey> after) override;
    StoreResult<ArchivePage> list_archived_of_account(std::int64_t offset, std::int64_t limit, std::string_view account,
                                                      std::optional<ArchiveKey> after) override;
    StoreResult<ArchivedGame> fetch_archived(std::string_view id) override;

    StoreResult<std::vector<JournalFailure>> commit_journal(std::span<const JournalRecord> records) override;
    StoreResult<std::vector<RecoverableGame>> load_recoverable_games(std::vector<StoreError>* damaged) override;

    StoreResult<void> create_account(const AccountRecord& account) override;
    StoreResult<std::optional<AccountRecord>> find_account(std::string_view key) override;
    StoreResult<void> set_password_hash(std::string_view key, std::string_view password_hash) override;
    StoreResult<void> add_session(std::string_view token_hash, std::string_view account, std::int64_t created_at_ms,
                                  std::int64_t expires_at_ms) override;
    StoreResult<std::optional<std::string>> session_account(std::string_view token_hash, std::int64_t now_ms) override;
    StoreResult<void> delete_session(std::string_view token_hash) override;
    StoreResult<void> delete_other_sessions(std::string_view account, std::string_view keep_hash) override;
    std::int64_t count_accounts() override;

    StoreResult<std::optional<RatingRecord>> find_rating(std::string_view account, std::string_view speed) override;
    StoreResult<std::vector<RatingRecord>> ratings_of(std::string_view account) override;
    StoreResult<std::vector<RatingPointRecord>> rating_history(std::string_view account, std::string_view speed,
                                                               std::int64_t limit) override;
    StoreResult<ResultCounts> results_of(std::string_view account) override;
    StoreResult<std::vector<LeaderRecord>> leaderboard(std::string_view speed, std::int64_t min_games,
                                                       double max_deviation, std::int64_t limit) override;

    // Reconnects when the backoff allows, and settles a turn left in doubt.
    StoreResult<bool> maintain() override;
    int schema_version() const override { return kSchemaVersion; }
    StoreResult<void> clear() override;

    // Whether a turn's outcome is still unknown, and whether a connection is up (a test's view).
    bool turn_in_doubt() const { return doubt_.has_value(); }
    bool connected() const { return conn_ && !conn_->broken(); }

private:
    explicit PgStore(std::string conninfo);

    // The live connection, reconnecting if the backoff allows; an Io error while the database is away.
    StoreResult<pg::Connection*> connection();
    // One statement on the connection; a broken connection is dropped (the next call reconnects).
    StoreResult<pg::Result> run(std::string_view sql, const std::vector<pg::Param>& params = {});
    bool lost() const { return !conn_; }
    void drop(const std::string& why);

    StoreResult<void> migrate();
    StoreResult<void> insert_archived(const ArchivedGame& game);
    StoreResult<void> write_ratings(const ArchivedGame& game);
    StoreResult<void> apply(const JournalRecord& record, std::int64_t turn);
    // One attempt at a turn; with `isolate` each record has its own savepoint.
    StoreResult<std::vector<JournalFailure>> commit_turn(std::span<const JournalRecord> records, bool isolate);
    // After a reconnect: was the turn in doubt committed? Then undo it.
    StoreResult<void> settle_doubt();
    StoreResult<ArchivePage> page_of(const std::string& count_sql, const std::vector<pg::Param>& count_params,
                                     const std::string& page_sql, const std::vector<pg::Param>& page_params,
                                     std::int64_t limit);

    std::string conninfo_;
    std::optional<pg::Connection> conn_;
    std::string last_error_;
    std::chrono::steady_clock::time_point next_attempt_{};
    std::chrono::milliseconds backoff_{0};
    std::string node_;  // this store's id in xq_turns: random per open
    std::int64_t turn_ = 0;
    std::optional<std::int64_t> doubt_;  // a turn whose COMMIT got no answer
    LiveMirror mirror_;  // the live games as committed: recovery's answer while the database is away
};

}  // namespace xq::server
