#pragma once
// The SQLite backend of the Store (store.h), one file: a live game is a `games` row with status
// 'live' plus its rows in `journal`, an append-only log of moves and takebacks (schema.cpp);
// finishing it turns the same games row into an archived game in one transaction, so a crash
// leaves a game either live (and recoverable from its journal) or archived, never both or neither.
//
// The file runs in WAL mode with synchronous=NORMAL: a commit survives a crash of the process,
// and the last commits before a power loss may be lost. Batching many moves into one commit
// (group commit) into a log that only grows at its end is what keeps the per-move cost low: a
// turn's moves fill one or two pages whatever games they belong to.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "server/store/sqlite/checkpointer.h"
#include "server/store/sqlite/sqlite_db.h"
#include "server/store/store.h"

namespace xq::server {

struct StoreOptions {
    int busy_timeout_ms = 5000;
    // synchronous=FULL also survives power loss, at one fsync per commit (see store_bench).
    bool sync_full = false;
};

class SqliteStore final : public Store {
public:
    using Store::list_archived;
    using Store::list_archived_of_account;
    using Store::load_recoverable_games;

    static constexpr int kSchemaVersion = 6;

    // Opens or creates the file, sets the connection up and brings the schema to kSchemaVersion.
    // The directory must exist. A file that is not a store gives corrupt or open_failed.
    static StoreResult<SqliteStore> open(const std::filesystem::path& path, StoreOptions options = {});

    // The Store interface (store.h); the notes below are what is particular to SQLite.
    StoreResult<void> archive_game(const ArchivedGame& game) override;
    std::vector<StoreError> archive_games(std::span<const ArchivedGame> games) override;
    // A page found through the index on (ended_at, id); a large offset costs a row read per row skipped.
    StoreResult<ArchivePage> list_archived(std::int64_t offset, std::int64_t limit, std::optional<std::string_view> player,
                                           std::optional<ArchiveKey> after) override;
    // Through the account indexes (store_ratings.cpp).
    StoreResult<ArchivePage> list_archived_of_account(std::int64_t offset, std::int64_t limit, std::string_view account,
                                                      std::optional<ArchiveKey> after) override;
    StoreResult<ArchivedGame> fetch_archived(std::string_view id) override;

    // Each record runs under its own savepoint (a retry after a refused batch, turn_commit.cpp).
    StoreResult<std::vector<JournalFailure>> commit_journal(std::span<const JournalRecord> records) override;
    // A damaged journal (rows missing or out of order: a hand-edited file) is left as it is.
    StoreResult<std::vector<RecoverableGame>> load_recoverable_games(std::vector<StoreError>* damaged) override;

    // store_accounts.cpp
    StoreResult<void> create_account(const AccountRecord& account) override;
    StoreResult<std::optional<AccountRecord>> find_account(std::string_view key) override;
    StoreResult<void> set_password_hash(std::string_view key, std::string_view password_hash) override;
    StoreResult<void> add_session(std::string_view token_hash, std::string_view account, std::int64_t created_at_ms,
                                  std::int64_t expires_at_ms) override;
    StoreResult<std::optional<std::string>> session_account(std::string_view token_hash, std::int64_t now_ms) override;
    StoreResult<void> delete_session(std::string_view token_hash) override;
    StoreResult<void> delete_other_sessions(std::string_view account, std::string_view keep_hash) override;
    std::int64_t count_accounts() override;

    // store_ratings.cpp
    StoreResult<std::optional<RatingRecord>> find_rating(std::string_view account, std::string_view speed) override;
    StoreResult<std::vector<RatingRecord>> ratings_of(std::string_view account) override;
    StoreResult<std::vector<RatingPointRecord>> rating_history(std::string_view account, std::string_view speed,
                                                               std::int64_t limit) override;
    StoreResult<ResultCounts> results_of(std::string_view account) override;
    StoreResult<std::vector<LeaderRecord>> leaderboard(std::string_view speed, std::int64_t min_games,
                                                       double max_deviation, std::int64_t limit) override;

    // SQLite's housekeeping is journal compaction, one chunk per call.
    StoreResult<bool> maintain() override { return compact_journal(); }

    // Rows of finished and aborted games stay in the journal until compaction: once the journal
    // holds more than twice the live games' rows (plus a chunk), its oldest chunk goes, the rows
    // of games still live in it copied to the end first. One chunk per call, in its own
    // transaction; true when a step ran. Call after a commit (journal_compaction.cpp).
    StoreResult<bool> compact_journal();
    static constexpr std::int64_t kCompactChunk = 1024;
    // Rows in the journal, and rows of live games in it (what compaction keeps).
    std::int64_t journal_rows() const { return next_seq_ - first_seq_; }
    std::int64_t live_journal_rows() const { return live_rows_; }

    // This connection stops checkpointing the WAL: a Checkpointer (checkpointer.h) does it
    // on its own thread, so no commit of the event loop waits for a checkpoint's fsyncs.
    StoreResult<void> hand_checkpoints_over();
    // Starts a Checkpointer on this file, owned by the store, and hands checkpoints over to it: what
    // the server does. A store on ":memory:" has no WAL to checkpoint; nothing is started.
    StoreResult<void> checkpoint_on_thread(std::chrono::milliseconds every);

    int schema_version() const override { return schema_version_; }
    StoreResult<void> clear() override;

private:
    SqliteStore(sql::Database db, std::filesystem::path path) : db_(std::move(db)), path_(std::move(path)) {}

    // A live game's journal replayed: the game and how many rows it has (its next row's n - 1).
    struct ReplayedGame {
        RecoverableGame game;
        std::int64_t rows = 0;
        std::optional<StoreError> damage;  // the journal does not replay; `game` is incomplete
    };
    // What the store keeps in memory of each live game's journal, so appending reads nothing.
    struct LiveJournal {
        int plies = 0;
        std::int64_t rows = 0;
    };
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    StoreResult<void> configure(const StoreOptions& options);
    StoreResult<void> migrate();
    StoreResult<void> forget_finished_join_codes();
    // Every live game (or only `id`) replayed from the journal, oldest first. A row out of order
    // (a gap in n, a move that is not the next ply, a takeback past the start) marks its game damaged.
    StoreResult<std::vector<ReplayedGame>> replay_journal(std::optional<std::string_view> id = std::nullopt);
    // Rebuilds live_ and the journal bounds from the file: at open, and after a rollback.
    StoreResult<void> reload_live();
    StoreResult<LiveJournal*> live_journal(std::string_view id, std::string_view context);
    StoreResult<void> insert_journal_row(const JournalMove& m, std::optional<int> takeback_to, std::uint64_t version,
                                         LiveJournal& live);
    // A JournalStart's games row (apply).
    StoreResult<void> begin_live_game(const LiveGameRecord& game);
    // A rated game's rating rows and history points (within the archiving transaction).
    StoreResult<void> write_ratings(const ArchivedGame& game);
    StoreResult<void> apply(const JournalRecord& record);
    // One attempt at a turn: `isolate` puts each record under a savepoint (the retry after a refusal).
    StoreResult<std::vector<JournalFailure>> commit_turn(std::span<const JournalRecord> records, bool isolate);

    sql::Database db_;
    std::filesystem::path path_;
    // After db_, so it stops (its last checkpoint) before the loop's connection closes.
    std::unique_ptr<Checkpointer> checkpointer_;
    int schema_version_ = 0;
    std::unordered_map<std::string, LiveJournal, Hash, std::equal_to<>> live_;
    std::int64_t live_rows_ = 0;
    bool live_stale_ = false;  // a transaction rolled back since live_ was built
    std::int64_t first_seq_ = 1;  // the journal's rows are first_seq_ .. next_seq_ - 1
    std::int64_t next_seq_ = 1;
};

}  // namespace xq::server
