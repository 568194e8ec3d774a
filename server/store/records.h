#pragma once
// What the store keeps, as values: finished games and archive pages, live games and the journal
// records a turn commits, accounts, sessions and ratings. One copy for both backends (store.h).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/outcome.h"
#include "server/ratings/glicko2.h"
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

    // A page is read with one row more than `limit` asked for: that row only says more follow.
    // Drops it and keeps where the next page begins.
    void close(std::int64_t limit) {
        if (static_cast<std::int64_t>(games.size()) <= limit) return;
        games.pop_back();
        next = ArchiveKey{games.back().ended_at_ms, games.back().id};
    }
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

}  // namespace xq::server
