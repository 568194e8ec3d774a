#pragma once
// The protocol's shared vocabulary as plain C++: sides, time controls, clocks, outcomes, error
// codes. Mirrors xiangqi.proto (package xiangqi.v1) without exposing any generated type.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xq::proto {

// Hello and Welcome carry this; a client speaking another version is refused (UnsupportedVersion).
inline constexpr std::uint32_t kProtocolVersion = 1;
// The largest payload a frame may announce; larger frames are refused before they are read.
inline constexpr std::size_t kMaxFrameBytes = 64 * 1024;
// The longest chat line, in bytes of UTF-8, the server accepts (longer: ChatTooLong).
inline constexpr std::size_t kMaxChatBytes = 280;

using GameId = std::uint64_t;   // 0 is never a game
using Version = std::uint64_t;  // a room's event version: 1 for its first event, +1 per event
using Millis = std::int64_t;

enum class Side : std::uint8_t { Red, Black };
enum class ColorChoice : std::uint8_t { Random, Red, Black };
enum class GameStatus : std::uint8_t { Waiting, Playing, Finished, Aborted };
enum class GameResult : std::uint8_t { Ongoing, RedWins, BlackWins, Draw };
// Rematch: after the game ended, the same time control and rated-ness with colours swapped.
enum class OfferKind : std::uint8_t { Draw, Takeback, Rematch };
// Players: versioned, seen by everyone in the room. Spectators: unversioned, hidden from players.
enum class ChatChannel : std::uint8_t { Players, Spectators };
// After the opponent's reconnection grace period ran out: take the win, or settle for a draw.
enum class ClaimKind : std::uint8_t { Win, Draw };

// The values match Error.Code in xiangqi.proto; codes from a newer server decode as Unspecified.
enum class ErrorCode : std::uint8_t {
    Unspecified = 0,
    UnsupportedVersion = 1,  // Hello.protocol_version is not kProtocolVersion; the session closes
    HelloRequired = 2,       // a request before Hello
    BadRequest = 3,          // a field out of range (time control, limit, channel, ...)
    NoSuchGame = 4,
    GameFull = 5,
    WrongJoinCode = 6,
    AlreadySeated = 7,  // already playing, seeking or hosting a game
    NotAPlayer = 8,     // a player-only request from someone not seated in that game
    NotYourTurn = 9,
    IllegalMove = 10,
    InvalidMoveSyntax = 11,   // not ICCS text
    BannedByRepetition = 12,  // legal, but would lose by perpetual check/chase (see reason)
    StalePosition = 13,       // MakeMove.ply is not the game's current ply
    GameOver = 14,
    GameNotStarted = 15,
    AlreadyStarted = 16,  // leave/abort once it is too late
    NoPendingOffer = 17,
    OfferAlreadyPending = 18,
    NothingToTakeBack = 19,
    ClaimNotAllowed = 20,  // the opponent is connected or still within the grace period
    ChatTooLong = 21,
    RateLimited = 22,
    BadToken = 23,        // Resume with a token that does not hold that seat
    FrameTooLarge = 24,   // the session closes
    MalformedFrame = 25,  // the session closes
    UnknownMessage = 26,  // a message kind this server does not know
    Internal = 27,
    NoComputer = 28,  // CreateGame.computer_level: no computer of that level is free
    NameTaken = 29,         // Register: an account has that name (its canonical key)
    BadName = 30,           // Register: the name breaks the name rule
    BadCredentials = 31,    // Login/ChangePassword: wrong name, password or token
    AccountRequired = 32,   // --accounts required and not logged in; or the request needs an account
    AccountsDisabled = 33,  // --accounts off
    WeakPassword = 34,      // a password outside 8-128 bytes
    TryLater = 35,          // throttled, or the password workers are busy (Error.retry_after_ms)
    AlreadyGreeted = 36,  // a second Hello on a session: refused, nothing changes
    TooManyGames = 37,    // the address already hosts the most waiting games allowed
    BadText = 38,         // chat text with control characters (newlines, tabs, bidi overrides)
    NoSuchAccount = 39,   // GetProfile: no account has that name
    NoRematch = 40,       // the opponent left, or this game's rematch was already played
    WatchOnly = 41,       // a browser's session (WebSocket) only watches: no play, chat or login
};
inline constexpr int kErrorCodeCount = 42;

// Rating pools by estimated duration (common/speed.h holds the rule and the names).
enum class Speed : std::uint8_t { Bullet, Blitz, Rapid, Classical };
inline constexpr int kSpeedCount = 4;

// How a server treats accounts (Welcome.accounts).
enum class AccountsMode : std::uint8_t { Optional, Required, Off };

std::string_view code_name(ErrorCode code);  // "unsupported_version", ...; "unspecified"
std::string_view to_string(Side side);       // "red", "black"
std::string_view to_string(GameResult r);    // "ongoing", "red_wins", "black_wins", "draw"

// Both directions: the server measures round trips with its own Ping; a client keeps its
// connection alive with one. The other side answers with the nonce at once.
struct Ping {
    std::uint64_t nonce = 0;
    friend bool operator==(const Ping&, const Ping&) = default;
};

struct Pong {
    std::uint64_t nonce = 0;  // the Ping's
    friend bool operator==(const Pong&, const Pong&) = default;
};

// A Glicko-2 rating as shown (Glicko scale, rounded) at one speed.
struct PlayerRating {
    std::int32_t rating = 0;
    std::int32_t deviation = 0;
    bool provisional = false;  // deviation above 110: shown with a '?'
    friend bool operator==(const PlayerRating&, const PlayerRating&) = default;
};

// One side's rating before and after a rated game.
struct RatingChange {
    std::int32_t before = 0;
    std::int32_t after = 0;
    bool provisional = false;  // after the game
    friend bool operator==(const RatingChange&, const RatingChange&) = default;
};

// Base minutes plus a Fischer increment, with an optional cap on the time for any one move.
struct TimeControl {
    std::uint32_t base_minutes = 0;
    std::uint32_t increment_seconds = 0;
    std::optional<std::uint32_t> move_cap_seconds;
    friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

// Remaining time as of the moment the server produced the message. The receiver counts the running
// side down from when it receives the message; the server's clock is the authority.
struct Clock {
    Millis red_ms = 0;
    Millis black_ms = 0;
    std::optional<Side> running;        // none: no clock runs
    std::optional<Millis> move_cap_ms;  // time left under the per-move cap for the running side
    // Before the clocks start: the side to move's time left for its first move (then: aborted).
    std::optional<Millis> first_move_ms{};
    friend bool operator==(const Clock&, const Clock&) = default;
};

struct PlayerInfo {
    std::string name;  // "" while the seat is empty
    bool connected = false;
    std::optional<Millis> grace_ms;  // while disconnected: time before the opponent may claim
    std::optional<PlayerRating> rating = {};  // at the game's speed; accounts only
    std::uint32_t lag_ms = 0;                 // the server's measure of the round trip; 0: unknown
    bool computer = false;                    // one of the server's computer opponents
    friend bool operator==(const PlayerInfo&, const PlayerInfo&) = default;
};

struct Outcome {
    GameResult result = GameResult::Ongoing;
    std::string reason;       // xq::to_string(Reason): "checkmate", "perpetual_check", "timeout", ...
    std::string explanation;  // one sentence for people
    std::uint32_t ply = 0;    // plies played when the game ended
    std::vector<std::uint32_t> cycle_plies;  // plies that checked/chased (repetition rulings)
    friend bool operator==(const Outcome&, const Outcome&) = default;
};

struct Offer {
    OfferKind kind = OfferKind::Draw;
    Side side = Side::Red;  // who made it
    friend bool operator==(const Offer&, const Offer&) = default;
};

// One row of the lobby: an open game (Waiting) or a live one (Playing).
struct GameSummary {
    GameId game_id = 0;
    GameStatus status = GameStatus::Waiting;
    std::string host;  // the player who created it
    ColorChoice host_color = ColorChoice::Random;
    std::string red;  // "" until known
    std::string black;
    TimeControl time_control;
    std::uint32_t plies = 0;
    std::uint32_t spectators = 0;
    bool is_private = false;
    bool rated = false;
    std::optional<PlayerRating> host_rating = {};  // the host's, at this game's speed
    std::optional<PlayerRating> red_rating = {};   // live games
    std::optional<PlayerRating> black_rating = {};
    std::uint32_t spectator_delay = 0;  // moves spectators are kept behind
    // Live games as their spectators see them, for the lobby's small boards: "" / none otherwise.
    std::string fen = {};
    std::string last_move = {};  // ICCS, "" before the first move
    std::optional<Clock> clock = {};
    friend bool operator==(const GameSummary&, const GameSummary&) = default;
};

// One row of the archive.
struct ArchiveEntry {
    GameId game_id = 0;
    std::string red;
    std::string black;
    TimeControl time_control;
    Outcome outcome;
    std::int64_t ended_at_ms = 0;  // Unix time
    bool rated = false;
    std::string red_account = {};  // "" for a guest
    std::string black_account = {};
    std::optional<RatingChange> red_change = {};  // rated games that changed ratings
    std::optional<RatingChange> black_change = {};
    friend bool operator==(const ArchiveEntry&, const ArchiveEntry&) = default;
};

}  // namespace xq::proto
