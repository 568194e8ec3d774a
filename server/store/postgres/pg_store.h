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
//
// A turn goes out in one round trip (libpq's pipeline mode): BEGIN, one statement per record and
// COMMIT, the answers read after. Each record's statement refuses the expected cases (not the next
// ply, not live, fenced) by touching nothing and saying why in its answer row, so the others still
// commit. A record the server rejects outright (a rare error) aborts that attempt; the turn is
// then done again statement by statement with a savepoint per record, as is a turn that finishes
// a game (pg_journal.cpp, pg_journal_sql.cpp).
//
// Opened with a node id, the store owns games (game_ownership.h, pg_ownership.cpp): those it
// starts or takes over, whose fences it remembers; every journal write of a game is conditional
// on that fence.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "server/store/game_ownership.h"
#include "server/store/live_mirror.h"
#include "server/store/postgres/pg_conn.h"
#include "server/store/store.h"

namespace xq::server {

struct PgStoreOptions {
    std::string node = {};  // this node's id in a cluster; "" = a single node: no ownership, no fencing
};

class PgStore final : public Store, public GameOwnership {
public:
    using Store::list_archived;
    using Store::list_archived_of_account;
    using Store::load_recoverable_games;

    static constexpr int kSchemaVersion = 2;
    static constexpr std::chrono::milliseconds kConnectTimeout{250};

    // Connects (failing if the database cannot be reached now) and creates the tables if needed.
    static StoreResult<std::unique_ptr<PgStore>> open(std::string conninfo, PgStoreOptions options = {});

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

    const std::string& node() const override { return owner_; }
    StoreResult<std::vector<RecoverableGame>> take_over(std::string_view dead_node, std::int64_t limit) override;
    StoreResult<std::vector<std::string>> live_owners() override;
    StoreResult<std::optional<std::string>> owner_of(std::string_view game) override;

    // Whether a turn's outcome is still unknown, and whether a connection is up (a test's view).
    bool turn_in_doubt() const { return doubt_.has_value(); }
    bool connected() const { return conn_ && !conn_->broken(); }

private:
    PgStore(std::string conninfo, PgStoreOptions options);

    // The live connection, reconnecting if the backoff allows; an Io error while the database is away.
    StoreResult<pg::Connection*> connection();
    // One statement on the connection; a broken connection is dropped (the next call reconnects).
    StoreResult<pg::Result> run(std::string_view sql, const std::vector<pg::Param>& params = {});
    bool lost() const { return !conn_; }
    void drop(const std::string& why);

    StoreResult<void> migrate();
    StoreResult<void> insert_archived(const ArchivedGame& game);
    StoreResult<void> write_ratings(const ArchivedGame& game);
    // A record as the one statement that applies it and answers one row: (applied, the game's
    // plies or NULL when it is not live, its fence); not for a finish. Invalid records are refused
    // before any statement (pg_journal_sql.cpp).
    StoreResult<pg::Statement> plan(const JournalRecord& record, std::int64_t turn) const;
    // The refusal that answer row means, if any.
    std::optional<StoreError> verdict(const JournalRecord& record, const pg::Result& answer) const;
    // One record on its own (a finish, or a turn done statement by statement): the fence a start
    // got, else 0.
    StoreResult<std::int64_t> apply(const JournalRecord& record, std::int64_t turn);
    StoreResult<void> apply_finish(const ArchivedGame& game, std::int64_t turn);
    // The fence condition's two parameters for a game: none without a node id (no condition);
    // else the fence held (-1, which no game has, for a game this node does not own) and, for a
    // game started earlier in this turn (starting_), the turn.
    void add_fence_params(std::vector<pg::Param>& params, std::string_view game, std::int64_t turn) const;
    bool fenced(std::string_view game, std::int64_t fence) const;
    // A turn in one round trip; nullopt when a record raised an error (nothing stored: do it again
    // with commit_isolated).
    StoreResult<std::optional<std::vector<JournalFailure>>> commit_pipelined(std::span<const JournalRecord> records);
    // A turn statement by statement, each record under its own savepoint.
    StoreResult<std::vector<JournalFailure>> commit_isolated(std::span<const JournalRecord> records);
    // After a committed turn: the fences of the games it started, and forgetting those it ended
    // or that were refused as fenced (records[i] applied, with the fence a start got).
    void note_ownership(std::span<const JournalRecord> records, const std::vector<std::pair<std::size_t, std::int64_t>>& applied,
                        const std::vector<JournalFailure>& failures);
    // The live games matching `which` (a condition on games g), replayed, oldest first, inside
    // the caller's transaction; their fences go to `fences` when given.
    StoreResult<std::vector<RecoverableGame>> read_live(const std::string& which, const std::vector<pg::Param>& params,
                                                        std::vector<StoreError>* damaged,
                                                        std::unordered_map<std::string, std::int64_t>* fences);
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
    std::string owner_;  // the node id this store owns games as ("" = none)
    std::unordered_map<std::string, std::int64_t> fences_;  // game -> the fence this store holds
    std::unordered_set<std::string> starting_;  // games the turn being written starts
};

}  // namespace xq::server
