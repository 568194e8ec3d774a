#pragma once
// The server's durable store, one SQLite file: the archive of finished games and the journal of
// live ones. A live game is a `games` row with status 'live' plus its rows in `journal`, an
// append-only log of moves and takebacks (schema.cpp, version 3); finishing it turns the
// same games row into an archived game in one transaction, so a crash leaves a game either live
// (and recoverable from its journal) or archived, never both or neither.
//
// The file runs in WAL mode with synchronous=NORMAL: a commit survives a crash of the process,
// and the last commits before a power loss may be lost. Batching many moves into one commit
// (group commit) into a log that only grows at its end is what keeps the per-move cost low: a
// turn's moves fill one or two pages whatever games they belong to.
//
// A Store is used from one thread (the server's event loop). Nothing here throws.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "common/outcome.h"
#include "server/ratings/glicko2.h"
#include "server/store/sqlite_db.h"
#include "server/store/store_error.h"

namespace xq::server {

// Clock settings in whole seconds; move_cap_seconds 0 means no per-move cap.
struct TimeControlRecord {
    std::int64_t base_seconds = 0;
    std::int64_t increment_seconds = 0;
    std::int64_t move_cap_seconds = 0;
    friend bool operator==(const TimeControlRecord&, const TimeControlRecord&) = default;
};

// One side's rating at one speed ("bullet", "blitz", "rapid", "classical"), before and after a
// rated game; the archive writes `after` in the transaction that archives the game.
struct RatingUpdate {
    std::string speed;
    ratings::Glicko before;
    ratings::Glicko after;
    friend bool operator==(const RatingUpdate&, const RatingUpdate&) = default;
};

// A finished game as the archive keeps it. Times are unix milliseconds.
struct ArchivedGame {
    std::string id;
    std::string red_name;
    std::string black_name;
    TimeControlRecord time_control;
    std::string start_fen;
    std::string moves;  // ICCS coordinates separated by single spaces: "h2e2 h9g7"; "" for none
    Result result = Result::Draw;  // never Ongoing
    Reason reason = Reason::None;
    std::string explanation;
    std::string pgn;
    std::int64_t started_at_ms = 0;
    std::int64_t ended_at_ms = 0;
    // A private game: never listed (list_archived), and its join code is not kept.
    bool is_private = false;
    std::string red_account = {};  // the account's key (server/accounts/names.h); "" for a guest
    std::string black_account = {};
    bool rated = false;
    // A rated game between accounts that counted: each account's rating row becomes `after`, and
    // a point joins its rating history, in the same transaction as the archive row.
    std::optional<RatingUpdate> red_rating = {};
    std::optional<RatingUpdate> black_rating = {};
    friend bool operator==(const ArchivedGame&, const ArchivedGame&) = default;
};

// One line of the archive list: everything but the moves, the PGN and the explanation.
struct ArchiveSummary {
    std::string id;
    std::string red_name;
    std::string black_name;
    TimeControlRecord time_control;
    Result result = Result::Draw;
    Reason reason = Reason::None;
    int ply_count = 0;
    std::int64_t started_at_ms = 0;
    std::int64_t ended_at_ms = 0;
    bool rated = false;
    std::string red_account;  // keys; "" for guests
    std::string black_account;
    std::optional<int> red_before, red_after, black_before, black_after;  // rounded ratings
    bool red_provisional = false, black_provisional = false;  // after the game
};

// Where a page of the archive begins: after this game in list order (newest first).
struct ArchiveKey {
    std::int64_t ended_at_ms = 0;
    std::string id;
    friend bool operator==(const ArchiveKey&, const ArchiveKey&) = default;
};

// A page of the archive, newest first (by ended_at, then id), with the count of every match.
struct ArchivePage {
    std::vector<ArchiveSummary> games;
    std::int64_t total = 0;  // at most Store::kCountCap
    bool total_capped = false;  // there are more than kCountCap: `total` is a floor
    std::optional<ArchiveKey> next;  // the key of the page's last game, when more follow
};

// What the server knows of a game when it starts. The resume tokens let a player who lost the
// connection take the seat back; they are kept only as hashes (server/accounts/secret.h) and
// erased when the game finishes.
struct LiveGameRecord {
    std::string id;
    std::string red_name;
    std::string black_name;
    std::string red_token;  // hashes
    std::string black_token;
    TimeControlRecord time_control;
    std::string start_fen;
    std::int64_t created_at_ms = 0;
    std::string red_account = {};  // account keys; "" for guests
    std::string black_account = {};
    bool rated = false;
    int spectator_delay = 0;  // plies spectators are kept behind
    friend bool operator==(const LiveGameRecord&, const LiveGameRecord&) = default;
};

// One accepted move. Plies of a game are 1, 2, 3, ... with no gap; the clocks are what each side
// had left once the move was made (increment included).
struct JournalMove {
    std::string game_id;
    int ply = 0;
    std::string iccs;         // "h2e2"
    std::int64_t move_id = 0; // the client's id for the move, echoed in acknowledgements
    std::int64_t red_ms = 0;
    std::int64_t black_ms = 0;
    std::int64_t at_ms = 0;
    friend bool operator==(const JournalMove&, const JournalMove&) = default;
};

// An unfinished game as found on disk, for crash recovery: its record and its moves in ply order.
struct LiveGame {
    LiveGameRecord record;
    std::vector<JournalMove> moves;
};

// The server's journal of live games, written in one transaction per event-loop turn
// (commit_journal). Each record carries the room's event version, so a restored room continues
// the numbering its clients know.
struct JournalStart {  // the game started: seats, tokens, time control
    LiveGameRecord game;
    std::string join_code;  // its hash; "" for a public game
    std::uint64_t version = 0;
};
struct JournalAppend {  // one accepted move
    JournalMove move;
    std::uint64_t version = 0;
};
struct JournalTakeback {  // moves after `plies_left` were taken back
    std::string game_id;
    int plies_left = 0;
    std::uint64_t version = 0;
};
struct JournalAbort {  // the game was aborted: no archive entry, the live row goes
    std::string game_id;
};
struct JournalFinish {  // the game ended: the live row becomes this archive entry
    ArchivedGame game;
};
struct JournalSeatToken {  // a seat's resume token was replaced (rotated on each Resume)
    std::string game_id;
    bool red = true;
    std::string token;  // the new token's hash
};
using JournalRecord =
    std::variant<JournalStart, JournalAppend, JournalTakeback, JournalAbort, JournalFinish, JournalSeatToken>;
std::string_view journal_game_id(const JournalRecord& record);

// A record commit_journal refused (rolled back alone; the others of the batch stand).
struct JournalFailure {
    std::size_t index;
    StoreError error;
};

// An account as stored: the key is its canonical name, `name` the name as registered.
struct AccountRecord {
    std::string key;
    std::string name;
    std::string password_hash;  // Argon2id, libsodium's string form
    std::int64_t created_at_ms = 0;
    bool computer = false;  // one of the server's computer opponents: no password, no login
    friend bool operator==(const AccountRecord&, const AccountRecord&) = default;
};

// An account's rating at one speed, as stored (ratings, schema version 6).
struct RatingRecord {
    std::string speed;
    ratings::Glicko glicko;
    std::int64_t games = 0;  // rated games at this speed
    friend bool operator==(const RatingRecord&, const RatingRecord&) = default;
};

// One point of an account's rating history at a speed: after the game `game_id` ended.
struct RatingPointRecord {
    std::int64_t at_ms = 0;
    double rating = 0;
    double deviation = 0;
    std::string game_id;
};

// A leaderboard line: an account, its rating at the speed and how many rated games it has.
struct LeaderRecord {
    std::string name;
    ratings::Glicko glicko;
    std::int64_t games = 0;
    bool computer = false;
};

// Finished games of an account (rated and casual).
struct ResultCounts {
    std::int64_t wins = 0, draws = 0, losses = 0;
};

// A live game with what crash recovery needs beyond LiveGame: its join code, the version of its
// last journaled event, and each move's version.
struct RecoverableGame {
    LiveGame game;
    std::string join_code;
    std::uint64_t version = 0;
    std::vector<std::uint64_t> move_versions;  // parallel to game.moves
};

struct StoreOptions {
    int busy_timeout_ms = 5000;
    // synchronous=FULL also survives power loss, at one fsync per commit (see store_bench).
    bool sync_full = false;
};

// $XDG_DATA_HOME/xiangqi/xiangqi.db, else $HOME/.local/share/xiangqi/xiangqi.db. A relative
// XDG_DATA_HOME is ignored, as the XDG spec says. Creating the directory is the caller's business.
StoreResult<std::filesystem::path> default_db_path();
// The same rule with the variables passed in (nullopt: unset).
StoreResult<std::filesystem::path> db_path_from(std::optional<std::string_view> xdg_data_home,
                                                std::optional<std::string_view> home);

class Store {
public:
    static constexpr int kSchemaVersion = 6;

    // Opens or creates the file, sets the connection up and brings the schema to kSchemaVersion.
    // The directory must exist. A file that is not a store gives corrupt or open_failed.
    static StoreResult<Store> open(const std::filesystem::path& path, StoreOptions options = {});

    // The archive. A second game with the same id is a constraint error.
    StoreResult<void> archive_game(const ArchivedGame& game);
    // Several games in one transaction (one commit instead of one each). A game refused (a
    // duplicate id, say) does not keep the others out; the errors come back, one per refusal.
    std::vector<StoreError> archive_games(std::span<const ArchivedGame> games);
    // offset >= 0, 1 <= limit <= kMaxPage. `player` matches either side's name, ignoring the case
    // of ASCII letters ("alice" finds "Alice"). Private games are never listed. With `after`, the
    // page begins after that key, found through the index (offset is then added to it, as 0 should be);
    // a large offset costs a row read per row skipped.
    StoreResult<ArchivePage> list_archived(std::int64_t offset, std::int64_t limit,
                                           std::optional<std::string_view> player = std::nullopt,
                                           std::optional<ArchiveKey> after = std::nullopt);
    // The same, for the games an account played (either side's account key), through the account
    // indexes (store_ratings.cpp).
    StoreResult<ArchivePage> list_archived_of_account(std::int64_t offset, std::int64_t limit, std::string_view account,
                                                      std::optional<ArchiveKey> after = std::nullopt);
    StoreResult<ArchivedGame> fetch_archived(std::string_view id);
    static constexpr std::int64_t kMaxPage = 500;
    // How far list_archived counts (a page's total): reading a row costs ~15 us on the game loop.
    static constexpr std::int64_t kCountCap = 200;

    // The live-game journal (a game id is unique across live and archived games): applies a turn's
    // records in order, in one transaction (one commit: group commit). Each record runs under its
    // own savepoint, so a refused record is undone alone and reported; an error for the whole
    // batch (the commit failed) means none of it is stored.
    StoreResult<std::vector<JournalFailure>> commit_journal(std::span<const JournalRecord> records);
    // Every unfinished game with its versions and join code, oldest first, each with its moves in
    // ply order. A game whose journal does not replay (rows missing or out of order: a damaged or
    // hand-edited file) is left out and described in `damaged`; the file keeps it as it is
    // (turn_commit.cpp).
    StoreResult<std::vector<RecoverableGame>> load_recoverable_games(std::vector<StoreError>* damaged = nullptr);

    // Accounts and login sessions (store_accounts.cpp), each call its own transaction. A second
    // account with the same key is a Constraint error. Sessions are looked up by their token's
    // hash; an expired one is not found (and is deleted).
    StoreResult<void> create_account(const AccountRecord& account);
    StoreResult<std::optional<AccountRecord>> find_account(std::string_view key);
    StoreResult<void> set_password_hash(std::string_view key, std::string_view password_hash);
    StoreResult<void> add_session(std::string_view token_hash, std::string_view account, std::int64_t created_at_ms,
                                  std::int64_t expires_at_ms);
    StoreResult<std::optional<std::string>> session_account(std::string_view token_hash, std::int64_t now_ms);
    StoreResult<void> delete_session(std::string_view token_hash);
    // Every session of `account` but the one with `keep_hash` (none when empty).
    StoreResult<void> delete_other_sessions(std::string_view account, std::string_view keep_hash);
    std::int64_t count_accounts();

    // Ratings (store_ratings.cpp): an account's rating at a speed (none: never rated there), all
    // its speeds, its history at a speed (oldest first, the newest `limit`), its results, and the
    // best accounts at a speed with at least `min_games` and a deviation at most `max_deviation`.
    StoreResult<std::optional<RatingRecord>> find_rating(std::string_view account, std::string_view speed);
    StoreResult<std::vector<RatingRecord>> ratings_of(std::string_view account);
    StoreResult<std::vector<RatingPointRecord>> rating_history(std::string_view account, std::string_view speed,
                                                               std::int64_t limit);
    StoreResult<ResultCounts> results_of(std::string_view account);
    StoreResult<std::vector<LeaderRecord>> leaderboard(std::string_view speed, std::int64_t min_games,
                                                       double max_deviation, std::int64_t limit);

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

    int schema_version() const { return schema_version_; }

    // Deletes every row of every table and forgets the live games: the store a new file gives.
    // For fuzz_dispatch, which empties one in-memory store per input instead of opening another.
    StoreResult<void> clear();

private:
    explicit Store(sql::Database db) : db_(std::move(db)) {}

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
    int schema_version_ = 0;
    std::unordered_map<std::string, LiveJournal, Hash, std::equal_to<>> live_;
    std::int64_t live_rows_ = 0;
    bool live_stale_ = false;  // a transaction rolled back since live_ was built
    std::int64_t first_seq_ = 1;  // the journal's rows are first_seq_ .. next_seq_ - 1
    std::int64_t next_seq_ = 1;
};

}  // namespace xq::server
