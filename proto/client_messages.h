#pragma once
// Everything a client sends: one struct per request, gathered in the ClientBody variant. See
// proto/README.md for when each is valid and what the server answers.

#include <cstdint>
#include <string>
#include <variant>

#include "types.h"

namespace xq::proto {

// The first message of every session. A protocol_version other than kProtocolVersion is refused.
struct Hello {
    std::string client;       // client software, e.g. "xiangqi-sfml/0.1"
    std::string player_name;  // display name in games and chat
    std::uint32_t protocol_version = kProtocolVersion;
    std::uint32_t computer_level = 0;  // a computer opponent's level 1-8; 0 for a person
    std::string computer_key = {};     // with a level: the key the server gave its own bots
    friend bool operator==(const Hello&, const Hello&) = default;
};

struct ListGames {
    friend bool operator==(const ListGames&, const ListGames&) = default;
};

struct CreateGame {
    TimeControl time_control;
    ColorChoice color = ColorChoice::Random;
    bool is_private = false;  // the reply's Seated carries the join code
    std::uint32_t computer_level = 0;  // 1-8: play the server's computer of that level at once
    bool rated = false;                // needs an account (AccountRequired)
    std::uint32_t spectator_delay = 0;  // spectators see the game this many moves behind (0-20)
    friend bool operator==(const CreateGame&, const CreateGame&) = default;
};

struct JoinGame {
    GameId game_id = 0;
    std::string join_code;  // required for private games
    friend bool operator==(const JoinGame&, const JoinGame&) = default;
};

// Pairs the client with another waiting for the same time control and rated-ness; rated seeks by
// rating range, widening while they wait.
struct QuickMatch {
    TimeControl time_control;
    bool rated = false;
    friend bool operator==(const QuickMatch&, const QuickMatch&) = default;
};

// Cancels a game not yet started, stops watching one, or (game_id 0) cancels a quick-match seek.
struct Leave {
    GameId game_id = 0;
    friend bool operator==(const Leave&, const Leave&) = default;
};

struct WatchGame {
    GameId game_id = 0;
    std::string join_code;  // required for private games
    friend bool operator==(const WatchGame&, const WatchGame&) = default;
};

// A move, sent with a move id (retries reuse it: a move is applied at most once) and the ply the
// client moves at (plies already played): a move for an outdated position is refused.
struct MakeMove {
    GameId game_id = 0;
    std::string move;  // ICCS, "h2e2"
    std::uint64_t move_id = 0;
    std::uint32_t ply = 0;
    friend bool operator==(const MakeMove&, const MakeMove&) = default;
};

struct Resign {
    GameId game_id = 0;
    friend bool operator==(const Resign&, const Resign&) = default;
};

// Offers a draw, or asks to take back the requester's last move.
struct MakeOffer {
    GameId game_id = 0;
    OfferKind kind = OfferKind::Draw;
    friend bool operator==(const MakeOffer&, const MakeOffer&) = default;
};

struct AnswerOffer {
    GameId game_id = 0;
    OfferKind kind = OfferKind::Draw;
    bool accept = false;
    friend bool operator==(const AnswerOffer&, const AnswerOffer&) = default;
};

// Ends the game without a result; allowed until both sides have moved.
struct Abort {
    GameId game_id = 0;
    friend bool operator==(const Abort&, const Abort&) = default;
};

struct SendChat {
    GameId game_id = 0;
    ChatChannel channel = ChatChannel::Players;
    std::string text;  // at most kMaxChatBytes
    friend bool operator==(const SendChat&, const SendChat&) = default;
};

// Retakes a seat after a reconnection, with the token from Seated.
struct Resume {
    GameId game_id = 0;
    std::string token;
    Version last_version = 0;  // the last event version the client saw
    friend bool operator==(const Resume&, const Resume&) = default;
};

// Claims the game once the opponent's reconnection grace period has run out.
struct Claim {
    GameId game_id = 0;
    ClaimKind kind = ClaimKind::Win;
    friend bool operator==(const Claim&, const Claim&) = default;
};

struct ListArchive {
    std::uint32_t offset = 0;  // newest first; superseded by `after`
    std::uint32_t limit = 0;   // 0: the server's default; the server caps it
    std::string player;        // "": everyone
    std::string after = {};    // the previous page's ArchiveList::next; "": the first page
    friend bool operator==(const ListArchive&, const ListArchive&) = default;
};

struct GetArchived {
    GameId game_id = 0;
    friend bool operator==(const GetArchived&, const GetArchived&) = default;
};

// Stops or resumes delivering one chat channel of a game to this session (the reply: a Snapshot
// whose chat leaves the muted lines out).
struct Mute {
    GameId game_id = 0;
    ChatChannel channel = ChatChannel::Players;  // a player's opponent, or the other spectators
    bool muted = true;
    friend bool operator==(const Mute&, const Mute&) = default;
};

// Accounts (proto/README.md, "Accounts"): each is answered with LoggedIn or an Error.
struct Register {
    std::string name;  // the name rule: server/accounts/names.h
    std::string password;
    friend bool operator==(const Register&, const Register&) = default;
};

// name + password, or session_token alone.
struct Login {
    std::string name;
    std::string password;
    std::string session_token;
    friend bool operator==(const Login&, const Login&) = default;
};

struct Logout {
    friend bool operator==(const Logout&, const Logout&) = default;
};

struct ChangePassword {
    std::string old_password;
    std::string new_password;
    friend bool operator==(const ChangePassword&, const ChangePassword&) = default;
};

// An account's ratings, their history and its results (its games: ListArchive with `player`).
struct GetProfile {
    std::string name;
    friend bool operator==(const GetProfile&, const GetProfile&) = default;
};

// The best rated players at one speed.
struct GetLeaderboard {
    Speed speed = Speed::Blitz;
    friend bool operator==(const GetLeaderboard&, const GetLeaderboard&) = default;
};

using ClientBody =
    std::variant<Hello, Ping, ListGames, CreateGame, JoinGame, QuickMatch, Leave, WatchGame, MakeMove, Resign,
                 MakeOffer, AnswerOffer, Abort, SendChat, Resume, Claim, ListArchive, GetArchived, Mute, Register,
                 Login, Logout, ChangePassword, GetProfile, GetLeaderboard, Pong>;

struct ClientMessage {
    std::uint64_t request_id = 0;  // chosen by the client, echoed by the reply
    ClientBody body;
    friend bool operator==(const ClientMessage&, const ClientMessage&) = default;
};

}  // namespace xq::proto
