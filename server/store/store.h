#pragma once
// The server's durable store, as one interface with two backends: SQLite (sqlite/, one file, the
// single process's default) and PostgreSQL (postgres/, what a cluster of nodes shares). Both keep
// the archive of finished games, the journal of live ones, accounts, sessions and ratings, with
// the same guarantees, and the same tests run on both (tests/server/store/).
//
// The journal's promise: commit_journal writes a loop turn's records in one transaction; a record
// refused is undone alone and reported; a failed commit (the database is gone) stores none of it,
// so the dispatcher refuses those moves and nobody hears of them. A game id is unique across live
// and archived games. Tokens and join codes arrive as hashes and are stored as given.
//
// A Store is used from one thread (the server's event loop). Nothing here throws.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "server/store/records.h"
#include "server/store/store_error.h"

namespace xq::server {

class Store {
public:
    virtual ~Store() = default;

    // offset >= 0, 1 <= limit <= kMaxPage.
    static constexpr std::int64_t kMaxPage = 500;
    // How far list_archived counts (a page's total): counting costs a row read per row.
    static constexpr std::int64_t kCountCap = 200;

    // The archive. A second game with the same id is a constraint error.
    virtual StoreResult<void> archive_game(const ArchivedGame& game) = 0;
    // Several games in one transaction (one commit instead of one each). A game refused (a
    // duplicate id, say) does not keep the others out; the errors come back, one per refusal.
    virtual std::vector<StoreError> archive_games(std::span<const ArchivedGame> games) = 0;
    // `player` matches either side's name, ignoring the case of ASCII letters ("alice" finds
    // "Alice"). Private games are never listed. With `after`, the page begins after that key
    // (offset is then added to it, as 0 should be).
    virtual StoreResult<ArchivePage> list_archived(std::int64_t offset, std::int64_t limit,
                                                   std::optional<std::string_view> player,
                                                   std::optional<ArchiveKey> after) = 0;
    StoreResult<ArchivePage> list_archived(std::int64_t offset, std::int64_t limit) {
        return list_archived(offset, limit, std::nullopt, std::nullopt);
    }
    StoreResult<ArchivePage> list_archived(std::int64_t offset, std::int64_t limit, std::optional<std::string_view> player) {
        return list_archived(offset, limit, player, std::nullopt);
    }
    // The same, for the games an account played (either side's account key).
    virtual StoreResult<ArchivePage> list_archived_of_account(std::int64_t offset, std::int64_t limit,
                                                              std::string_view account,
                                                              std::optional<ArchiveKey> after) = 0;
    StoreResult<ArchivePage> list_archived_of_account(std::int64_t offset, std::int64_t limit, std::string_view account) {
        return list_archived_of_account(offset, limit, account, std::nullopt);
    }
    virtual StoreResult<ArchivedGame> fetch_archived(std::string_view id) = 0;

    // The live-game journal: applies a turn's records in order, in one transaction (one commit:
    // group commit). A refused record is undone alone and reported; an error for the whole batch
    // (the commit failed) means none of it is stored.
    virtual StoreResult<std::vector<JournalFailure>> commit_journal(std::span<const JournalRecord> records) = 0;
    // Every unfinished game with its versions and join code, oldest first, each with its moves in
    // ply order. A game whose journal does not replay is left out and described in `damaged`.
    virtual StoreResult<std::vector<RecoverableGame>> load_recoverable_games(std::vector<StoreError>* damaged) = 0;
    StoreResult<std::vector<RecoverableGame>> load_recoverable_games() { return load_recoverable_games(nullptr); }

    // Accounts and login sessions, each call its own transaction. A second account with the same
    // key is a Constraint error. Sessions are looked up by their token's hash; an expired one is
    // not found (and is deleted).
    virtual StoreResult<void> create_account(const AccountRecord& account) = 0;
    virtual StoreResult<std::optional<AccountRecord>> find_account(std::string_view key) = 0;
    virtual StoreResult<void> set_password_hash(std::string_view key, std::string_view password_hash) = 0;
    virtual StoreResult<void> add_session(std::string_view token_hash, std::string_view account,
                                          std::int64_t created_at_ms, std::int64_t expires_at_ms) = 0;
    virtual StoreResult<std::optional<std::string>> session_account(std::string_view token_hash, std::int64_t now_ms) = 0;
    virtual StoreResult<void> delete_session(std::string_view token_hash) = 0;
    // Every session of `account` but the one with `keep_hash` (none when empty).
    virtual StoreResult<void> delete_other_sessions(std::string_view account, std::string_view keep_hash) = 0;
    virtual std::int64_t count_accounts() = 0;

    // Ratings: an account's rating at a speed (none: never rated there), all its speeds, its
    // history at a speed (oldest first, the newest `limit`), its results, and the best accounts at
    // a speed with at least `min_games` and a deviation at most `max_deviation`.
    virtual StoreResult<std::optional<RatingRecord>> find_rating(std::string_view account, std::string_view speed) = 0;
    virtual StoreResult<std::vector<RatingRecord>> ratings_of(std::string_view account) = 0;
    virtual StoreResult<std::vector<RatingPointRecord>> rating_history(std::string_view account,
                                                                       std::string_view speed, std::int64_t limit) = 0;
    virtual StoreResult<ResultCounts> results_of(std::string_view account) = 0;
    virtual StoreResult<std::vector<LeaderRecord>> leaderboard(std::string_view speed, std::int64_t min_games,
                                                               double max_deviation, std::int64_t limit) = 0;

    // One step of the backend's own housekeeping, called after a committed turn, never inside
    // one (SQLite: journal compaction; PostgreSQL: reconnecting and resolving a commit whose
    // outcome was unknown). True when a step ran; a failure only means "try after the next turn".
    virtual StoreResult<bool> maintain() = 0;

    // The backend's schema version (each backend counts its own).
    virtual int schema_version() const = 0;

    // Deletes every row of every table and forgets the live games: the store a new database
    // gives. For fuzz_dispatch and tests, which empty one store instead of opening another.
    virtual StoreResult<void> clear() = 0;
};

}  // namespace xq::server
