#pragma once
// The rooms' own vocabulary: errors, participants and the events a room broadcasts. The
// dispatcher (server/dispatch/) maps protocol requests to Room/Lobby calls and these events to
// protocol messages; nothing here knows about sockets or the wire format.

#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/outcome.h"
#include "server/rooms/clock.h"

namespace xq::server {

enum class ErrorCode {
    NotAPlayer,  // the participant holds no seat (or is not in the room at all)
    NotYourTurn,
    IllegalMove,
    InvalidMoveSyntax,     // not ICCS text ("h2e2")
    BannedByRepetition,    // legal, but it would complete a cycle this side loses (detail explains)
    StalePosition,         // the client's expected ply is not the game's ply
    GameOver,              // finished or aborted, or the mover's flag has already fallen
    GameNotStarted,        // a seat is still empty
    AlreadyStarted,        // leaving, cancelling or joining a game that has begun
    GameFull,              // the asked seat (or every seat) is taken
    AlreadySeated,         // the participant already holds a seat here (or waits for a match)
    NoPendingOffer,        // nothing to accept or decline
    CannotAnswerOwnOffer,  // accepting or declining one's own draw offer or takeback request
    NothingToTakeBack,     // the requester has not moved yet
    AbortTooLate,          // both sides have moved
    ChatTooLong,           // over kMaxChatBytes
    WrongChatChannel,      // a player writing on the spectators' channel
    BadToken,              // resume with a token that matches no seat
    NoSuchGame,
    WrongJoinCode,
    ClaimNotAllowed,  // the opponent is connected or still within its grace period
    NoRematch,        // the opponent is gone, or this game's rematch was already played
};

// Stable snake_case name for protocol messages and logs: "not_a_player", "banned_by_repetition".
std::string_view code_name(ErrorCode code);

struct Error {
    ErrorCode code;
    std::string detail;            // a sentence for the player
    Reason ruling = Reason::None;  // banned_by_repetition: the ruling the move would complete
};

// Who a participant is to the server: its connection's Peer id (dispatch/peer.h), one per connection.
using ParticipantId = std::uint64_t;
using RoomId = std::string;
using MoveId = std::uint64_t;  // chosen by the client; unique per seat within a game
// 64 random bits per call. Production: a seeded std::mt19937_64; tests: a counter.
using RandomSource = std::function<std::uint64_t()>;

inline constexpr std::size_t kMaxChatBytes = 500;

enum class Status { Waiting, Playing, Finished, Aborted };
std::string_view to_string(Status s);  // "waiting", "playing", "finished", "aborted"

enum class ChatChannel { Players, Spectators };

// Who receives an event. Players' chat goes to everyone (spectators read it); spectators' chat
// goes to spectators only, so players are never coached or distracted by the gallery.
enum class Audience { Everyone, Players, Spectators };
enum class Role { Player, Spectator };

struct PlayerJoined {
    Color color;
    std::string name;
};
struct GameStarted {
    std::string red;
    std::string black;
    ClockReading clocks;
};
struct MoveMade {
    int ply;  // 1-based ply of this move
    Move move;
    ClockReading clocks;  // after the increment; the opponent's clock running
    MoveId move_id;
    Color mover;
    Millis lag_credit{};  // lag compensation given back to the mover (already in `clocks`)
};
struct DrawOffered {
    Color by;
};
struct DrawDeclined {
    Color by;              // the side that declined (or moved instead of answering)
    bool by_move = false;  // implicitly, by playing a move
};
struct TakebackRequested {
    Color by;
};
struct TakebackDeclined {
    Color by;
    bool by_move = false;
};
struct TakebackApplied {
    int plies;      // taken back
    int ply_count;  // the game's length afterwards
    ClockReading clocks;
};
struct ChatLine {
    ChatChannel channel;
    std::string from;  // player name, or "spectator <id>"
    std::string text;
    // The speaker's seat, recorded when said: names are not unique, so `from` cannot tell.
    std::optional<Color> side{};
};
// A rating as shown at one speed (Glicko scale, rounded): what the dispatcher gives a seat.
struct SeatRating {
    int rating = 0;
    int deviation = 0;
    bool provisional = false;
};
// One side's rating before and after a rated game.
struct RatingShift {
    int before = 0;
    int after = 0;
    bool provisional = false;  // after the game
};
// What the end of a game did to the ratings: none for casual, aborted-early or guests' games.
struct RatingShifts {
    std::optional<RatingShift> red;
    std::optional<RatingShift> black;
};
struct GameEnded {
    Result result;
    Reason reason;
    std::string explanation;
    std::vector<int> plies;  // the plies behind a repetition ruling
    int ply_count;
    ClockReading clocks;
    RatingShifts ratings{};  // rated games between accounts, once each side made two moves
};
struct GameAborted {
    std::optional<Color> by;  // none: the server aborted it (a first move never came)
    std::string explanation;  // "Red aborted the game."
};
struct SpectatorCount {
    std::size_t count;
};
struct PlayerConnection {
    Color color;
    bool connected;
    std::optional<Millis> grace{};  // while away: how long the player had left to come back, when sent
};
// An offer (draw) or request (takeback) accepted; GameEnded or TakebackApplied follows.
struct OfferAccepted {
    bool takeback = false;
    Color by;  // the side that accepted
};

// Rematch (room_rematch.cpp): offered after the game ended, declined, or accepted, when the new
// game has started (`game` its id).
struct RematchOffered {
    Color by;
};
struct RematchAnswered {
    Color by;  // the side that answered
    bool accepted = false;
};
struct RematchStarted {
    RoomId game;
};

using EventBody = std::variant<PlayerJoined, GameStarted, MoveMade, DrawOffered, DrawDeclined,
                               TakebackRequested, TakebackDeclined, TakebackApplied, ChatLine, GameEnded,
                               GameAborted, SpectatorCount, PlayerConnection, OfferAccepted, RematchOffered,
                               RematchAnswered, RematchStarted>;

// One entry of a room's log: versions count from 1 and every versioned event takes the next one,
// so a client that saw version V asks for everything after V. Unversioned events have version 0.
struct Event {
    std::uint64_t version = 0;
    Audience audience = Audience::Everyone;
    EventBody body;

    bool visible_to(Role role) const {
        return audience == Audience::Everyone || (audience == Audience::Players) == (role == Role::Player);
    }
};
using Events = std::vector<Event>;

// Notices (seats filling, presence, spectator counts and spectators' chat) are not part of the
// game's history: they carry no version, so the versions clients see go up by exactly 1.
inline bool versioned(const EventBody& body) {
    if (std::holds_alternative<PlayerJoined>(body) || std::holds_alternative<SpectatorCount>(body) ||
        std::holds_alternative<PlayerConnection>(body))
        return false;
    const auto* chat = std::get_if<ChatLine>(&body);
    return !chat || chat->channel == ChatChannel::Players;
}

// Most operations answer with the events to broadcast (possibly none) or an error; on an error
// nothing has changed.
using Reply = std::expected<Events, Error>;

}  // namespace xq::server
