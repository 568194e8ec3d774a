#pragma once
// Everything the server sends: replies (request_id echoes the request) and pushed events
// (request_id 0). An event a request caused reaches its sender as the reply, with the request id.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "types.h"

namespace xq::proto {

struct Welcome {
    std::string server;
    std::uint32_t protocol_version = kProtocolVersion;
    std::string session_id;
    AccountsMode accounts = AccountsMode::Optional;
    std::string display_name = {};  // how the others see this session (a guest's carries its mark)
    friend bool operator==(const Welcome&, const Welcome&) = default;
};

// A refused request (request_id echoed) or a session-level failure (request_id 0).
struct Error {
    ErrorCode code = ErrorCode::Unspecified;
    std::string message;
    GameId game_id = 0;       // the game concerned, 0 if none
    std::string reason;       // refused move: the ruling, "perpetual_check", ...
    std::string explanation;  // refused move: the ruling in one sentence
    std::uint64_t retry_after_ms = 0;  // TryLater: when to ask again
    friend bool operator==(const Error&, const Error&) = default;
};

struct GameList {
    std::vector<GameSummary> open;  // waiting for a second player
    std::vector<GameSummary> live;  // being played
    friend bool operator==(const GameList&, const GameList&) = default;
};

// The client holds a seat: after CreateGame, JoinGame, or a QuickMatch pairing.
struct Seated {
    GameId game_id = 0;
    std::optional<Side> side;  // none while a random colour is unresolved (until GameStarted)
    std::string join_code;     // private games the client created
    std::string resume_token;  // secret: retakes the seat with Resume
    friend bool operator==(const Seated&, const Seated&) = default;
};

// A quick-match seek is waiting for a partner.
struct Seeking {
    TimeControl time_control;
    bool rated = false;
    friend bool operator==(const Seeking&, const Seeking&) = default;
};

struct Left {
    GameId game_id = 0;  // 0: the quick-match seek was cancelled
    friend bool operator==(const Left&, const Left&) = default;
};

// ---- Room events. Versioned ones (all but spectator chat) are kept in the room's log. ----

struct GameStarted {
    GameId game_id = 0;
    Version version = 0;
    std::string red;
    std::string black;
    TimeControl time_control;
    std::string start_fen;
    Clock clock;
    bool rated = false;
    std::optional<PlayerRating> red_rating = {};
    std::optional<PlayerRating> black_rating = {};
    std::uint32_t spectator_delay = 0;
    friend bool operator==(const GameStarted&, const GameStarted&) = default;
};

struct MoveMade {
    GameId game_id = 0;
    Version version = 0;
    std::uint32_t ply = 0;      // plies played including this one (1 for the first move)
    std::string move;           // ICCS
    Clock clock;                // after the move (increment added); the opponent's clock runs
    std::uint64_t move_id = 0;  // only in the mover's copy: acknowledges its MakeMove
    std::uint32_t lag_credit_ms = 0;  // lag compensation given back to the mover (in `clock`)
    friend bool operator==(const MoveMade&, const MoveMade&) = default;
};

struct OfferMade {
    GameId game_id = 0;
    Version version = 0;
    Offer offer;
    friend bool operator==(const OfferMade&, const OfferMade&) = default;
};

struct OfferAnswered {
    GameId game_id = 0;
    Version version = 0;
    OfferKind kind = OfferKind::Draw;
    Side side = Side::Red;  // who answered
    bool accepted = false;
    friend bool operator==(const OfferAnswered&, const OfferAnswered&) = default;
};

struct TakebackApplied {
    GameId game_id = 0;
    Version version = 0;
    std::uint32_t plies_removed = 0;
    std::uint32_t ply = 0;  // plies played after the takeback
    Clock clock;
    friend bool operator==(const TakebackApplied&, const TakebackApplied&) = default;
};

struct ChatLine {
    GameId game_id = 0;
    Version version = 0;  // 0 on the spectator channel: not part of the game's event log
    ChatChannel channel = ChatChannel::Players;
    std::string from;
    std::optional<Side> side;  // the speaker's seat; none for spectators
    std::string text;
    friend bool operator==(const ChatLine&, const ChatLine&) = default;
};

struct GameEnded {
    GameId game_id = 0;
    Version version = 0;
    Outcome outcome;
    Clock clock;  // final clocks, none running
    std::optional<RatingChange> red_change = {};  // rated games that changed ratings
    std::optional<RatingChange> black_change = {};
    friend bool operator==(const GameEnded&, const GameEnded&) = default;
};

struct GameAborted {
    GameId game_id = 0;
    Version version = 0;
    std::optional<Side> side;  // who aborted; none when the server did
    std::string explanation;
    friend bool operator==(const GameAborted&, const GameAborted&) = default;
};

// In the old game, once a rematch offer was accepted: both players sit in the new game.
struct RematchStarted {
    GameId game_id = 0;
    Version version = 0;
    GameId new_game_id = 0;
    friend bool operator==(const RematchStarted&, const RematchStarted&) = default;
};

// Unversioned room notices: the current state, which a Snapshot or Resumed also carries.
struct SpectatorCount {
    GameId game_id = 0;
    std::uint32_t count = 0;
    friend bool operator==(const SpectatorCount&, const SpectatorCount&) = default;
};

struct PlayerConnection {
    GameId game_id = 0;
    Side side = Side::Red;
    PlayerInfo player;  // connected, or the grace time left before the opponent may claim
    friend bool operator==(const PlayerConnection&, const PlayerConnection&) = default;
};

// A versioned event as replayed by Resumed.
using RoomEvent = std::variant<GameStarted, MoveMade, OfferMade, OfferAnswered, TakebackApplied, ChatLine,
                               GameEnded, GameAborted, RematchStarted>;

// Everything needed to show a game from scratch: the reply to WatchGame, and to Resume when the
// missed events are no longer in the room's log.
struct Snapshot {
    GameId game_id = 0;
    Version version = 0;
    GameStatus status = GameStatus::Waiting;
    TimeControl time_control;
    bool is_private = false;
    std::string start_fen;
    std::vector<std::string> moves;  // ICCS, in order
    Clock clock;
    PlayerInfo red;
    PlayerInfo black;
    std::optional<Outcome> outcome;  // once finished
    std::vector<Offer> pending_offers;
    std::uint32_t spectators = 0;
    std::optional<Side> your_side;  // the receiver's seat; none for spectators
    std::vector<ChatLine> chat;     // recent lines the receiver may see
    bool rated = false;
    std::uint32_t spectator_delay = 0;  // a spectator's snapshot is that many moves behind
    GameId rematch_game_id = 0;         // the rematch, once one started
    friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

// The reply to Resume when every missed event is still in the room's log.
struct Resumed {
    GameId game_id = 0;
    std::optional<Side> your_side;
    std::vector<RoomEvent> events;  // every event after last_version, in order
    Clock clock;
    PlayerInfo red;
    PlayerInfo black;
    std::uint32_t spectators = 0;
    friend bool operator==(const Resumed&, const Resumed&) = default;
};

struct ArchiveList {
    std::vector<ArchiveEntry> games;
    std::uint32_t total = 0;  // matching games over all pages
    std::string next = {};    // ListArchive::after for the next page; "" on the last page
    bool total_capped = false;  // the server stopped counting at `total`: there are more
    friend bool operator==(const ArchiveList&, const ArchiveList&) = default;
};

struct ArchivedGame {
    ArchiveEntry entry;
    std::string start_fen;
    std::vector<std::string> moves;  // ICCS
    std::string pgn;
    friend bool operator==(const ArchivedGame&, const ArchivedGame&) = default;
};

// Who the session is after Register, Login, Logout or ChangePassword.
struct LoggedIn {
    std::string name;
    bool guest = false;
    std::string session_token;       // password logins, Register, ChangePassword; "" otherwise
    std::int64_t expires_at_ms = 0;  // the token's expiry, Unix milliseconds
    std::vector<Seated> seats;       // the account's seats in live games, with fresh resume tokens
    friend bool operator==(const LoggedIn&, const LoggedIn&) = default;
};

// After a successful Resume: the seat's new resume token (the old one is dead).
struct ResumeToken {
    GameId game_id = 0;
    std::string resume_token;
    friend bool operator==(const ResumeToken&, const ResumeToken&) = default;
};

struct RatingPoint {
    std::int64_t at_ms = 0;  // when the game ended, Unix milliseconds
    std::int32_t rating = 0;  // after that game
    std::int32_t deviation = 0;
    GameId game_id = 0;
    friend bool operator==(const RatingPoint&, const RatingPoint&) = default;
};

struct SpeedRecord {
    Speed speed = Speed::Blitz;
    PlayerRating rating;  // the starting rating for a speed never played
    std::uint32_t games = 0;  // rated games at this speed
    std::vector<RatingPoint> history;  // oldest first; the most recent 500 at most
    friend bool operator==(const SpeedRecord&, const SpeedRecord&) = default;
};

struct Profile {
    std::string name;
    bool computer = false;
    std::int64_t created_at_ms = 0;
    std::vector<SpeedRecord> speeds;  // one per speed, bullet to classical
    std::uint32_t wins = 0;  // finished games, rated and casual
    std::uint32_t draws = 0;
    std::uint32_t losses = 0;
    friend bool operator==(const Profile&, const Profile&) = default;
};

struct LeaderboardRow {
    std::uint32_t rank = 0;
    std::string name;
    PlayerRating rating;
    std::uint32_t games = 0;
    bool computer = false;
    friend bool operator==(const LeaderboardRow&, const LeaderboardRow&) = default;
};

struct Leaderboard {
    Speed speed = Speed::Blitz;
    std::vector<LeaderboardRow> rows;  // best first, 100 at most, no provisional ratings
    std::uint32_t min_games = 0;       // rated games needed to appear
    friend bool operator==(const Leaderboard&, const Leaderboard&) = default;
};

using ServerBody =
    std::variant<Welcome, Pong, Error, GameList, Seated, Seeking, Left, Snapshot, Resumed, GameStarted,
                 MoveMade, OfferMade, OfferAnswered, TakebackApplied, ChatLine, GameEnded, GameAborted,
                 SpectatorCount, PlayerConnection, ArchiveList, ArchivedGame, LoggedIn, ResumeToken, Ping,
                 Profile, Leaderboard, RematchStarted>;

struct ServerMessage {
    std::uint64_t request_id = 0;  // the request this answers; 0 for pushed events
    ServerBody body;
    friend bool operator==(const ServerMessage&, const ServerMessage&) = default;
};

}  // namespace xq::proto
