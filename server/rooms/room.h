#pragma once
// One game and everyone in it: the authoritative xq::Game, its clock, two seats, the spectators,
// pending offers, chat and a versioned event log. Single-threaded by design (one io_context
// thread), so a room has no locks; rooms share nothing mutable.
//
// Every operation validates first and changes nothing on an error. On success it returns the
// events to broadcast; each event names its audience and carries the next version, and the last
// kHistory events are kept so a client that reconnects can catch up (events_since).
//
// Policies:
// - The game starts when the second seat is taken, but no clock runs until each side has made
//   its first move (as on lichess and pychess): the side to move has first_move_time (30 s by
//   default) to make it, or the game is aborted, without a result, by the deadline timer
//   (check_flag). The clocks start with the second move, the first side's clock running.
// - A move arriving once the mover's flag has fallen is refused (game_over) and changes nothing:
//   the game ends when the caller's deadline timer calls check_flag(now).
// - Draw offers: offering while the opponent's offer stands accepts it; the offer stands until
//   the opponent answers or moves (a move declines it). The offerer's own moves keep it.
// - Takebacks: the requester's last move is taken back, with the opponent's reply if one came
//   after it (1 or 2 plies). Clocks go back to the times both sides had when the restored
//   position arose, and the side to move starts afresh at `now`. Any move cancels a request.
// - Abort: either player, only until both sides have moved once (taking moves back later does
//   not reopen it). Aborted games have no result and are not archived.
// - Exactly-once moves: a move id already used by that seat returns the original MoveMade
//   acknowledgement (even if later taken back) and plays nothing.

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/game.h"
#include "server/rooms/lag_tracker.h"
#include "server/rooms/room_types.h"

namespace xq::server {

struct RestoredGame;

struct Seat {
    bool taken = false;
    std::string name;
    ParticipantId participant = 0;
    // The hash (server/accounts/secret.h) of the seat's resume token: 128 random bits in hex, given
    // to the player once; a reconnecting player proves its seat with it. Replaced on each resume,
    // when it becomes "<new hash> <hash of the token just used>" (room.cpp, kept as one value so
    // the journal and the file carry both).
    std::string token;
    bool connected = false;
    std::optional<TimePoint> away_until{};  // disconnected: when its grace period ends
    Millis away_grace{};                    // the grace period it was given
    std::string account{};                  // the player's account key; "" for a guest
    std::optional<SeatRating> rating{};     // the account's rating at the game's speed
    Millis lag{};                           // its connection's measured round trip; 0: unknown
    Millis lag_shown{};                     // as last pushed in a PlayerConnection
    std::optional<TimePoint> lag_shown_at{};
};

struct SeatView {
    bool taken = false;
    std::string name;
    bool connected = false;
    std::optional<Millis> grace_left{};  // disconnected: time left to come back (0 once run out)
    Millis lag{};                        // measured round trip; 0: unknown
};

// What a client needs to draw the room from scratch.
struct Snapshot {
    RoomId id;
    TimeControl time_control;
    Status status = Status::Waiting;
    std::string start_fen;
    std::vector<std::string> moves;  // ICCS, "h2e2"
    ClockReading clocks;
    std::array<SeatView, 2> seats;  // indexed by index_of(Color)
    std::uint64_t version = 0;      // of the last event; events_since(version) continues from here
    Result result = Result::Ongoing;
    Reason reason = Reason::None;
    std::string explanation;
    std::optional<Color> draw_offer;        // who offered
    std::optional<Color> takeback_request;  // who asked
    std::size_t spectators = 0;
};

// A seat granted by join() or resume().
struct Joined {
    Color color;
    std::string token;  // the seat's new resume token, in clear (the seat keeps only its hash)
    Events events;
};

// The acknowledgement of a move (a MoveMade event) and what to broadcast. A duplicate move id
// returns the original acknowledgement with no events.
struct MoveDone {
    Event ack;
    Events events;
    bool duplicate = false;
};

class Room {
public:
    static constexpr std::size_t kHistory = 512;       // events kept for events_since
    static constexpr std::size_t kMoveIdsKept = 1024;  // per seat, for exactly-once moves
    static constexpr std::size_t kChatKept = 20;       // recent lines per channel, for snapshots

    // Called once, when the game ends with a result (not when aborted), before GameEnded is
    // emitted: what it returns (the rating changes the archive made) goes into GameEnded. It must
    // not destroy the room: the lobby archives from it.
    using EndHook = std::function<RatingShifts(const Room&, TimePoint now)>;

    Room(RoomId id, TimeControl control, RandomSource random, Position start = Position::start());

    // How long each side may take over its first move before the game is aborted.
    static constexpr Millis kFirstMoveTime{30000};
    void set_first_move_time(Millis time) { first_move_time_ = time; }

    const RoomId& id() const { return id_; }
    const TimeControl& time_control() const { return clock_.control(); }
    Status status() const { return status_; }
    const Game& game() const { return game_; }
    const GameClock& clock() const { return clock_; }
    std::uint64_t version() const { return version_; }
    // When the running side's flag falls, or a first move is overdue; the caller arms a timer and
    // calls check_flag().
    std::optional<TimePoint> deadline() const;
    // Both clocks, and before they start the first-move allowance.
    ClockReading reading(TimePoint now) const;
    std::optional<TimePoint> started_at() const { return started_at_; }
    std::optional<TimePoint> ended_at() const { return ended_at_; }
    const Seat& seat(Color c) const { return seats_[static_cast<std::size_t>(index_of(c))]; }
    std::optional<Color> seat_of(ParticipantId who) const;
    bool is_spectator(ParticipantId who) const;
    std::size_t spectator_count() const { return spectators_.size(); }
    const std::optional<Color>& draw_offer() const { return draw_offer_; }
    const std::optional<Color>& takeback_request() const { return takeback_by_; }
    void set_end_hook(EndHook hook) { on_end_ = std::move(hook); }

    // Seats. Taking the second seat starts the game (GameStarted follows PlayerJoined).
    std::expected<Joined, Error> join(Color color, std::string name, ParticipantId who, TimePoint now);
    // A player reconnects on a new participant id with its seat's token. The token is replaced:
    // the Joined carries the new one, and the one just used no longer works (a token captured
    // earlier is useless once its owner has come back).
    std::expected<Joined, Error> resume(std::string_view token, ParticipantId who);
    // A new resume token for `c`'s seat (the old one dies): for an account's player logging in
    // anew, who holds the seat by its account instead of by a token. Returns it in clear.
    std::string reissue_token(Color c);
    // The account that holds `c`'s seat ("" for a guest); set by the dispatcher as it seats one.
    void set_account(Color c, std::string account) { seat_mut(c).account = std::move(account); }
    // The seat's rating at this game's speed, as players and the lobby are shown it.
    void set_rating(Color c, std::optional<SeatRating> rating) { seat_mut(c).rating = rating; }
    // A rated game changes its players' ratings when it ends (set before it starts).
    bool rated() const { return rated_; }
    void set_rated(bool rated) { rated_ = rated; }
    // A player's connection dropped (it has `grace` to resume) or came back.
    Reply set_connected(ParticipantId who, bool connected, TimePoint now, Millis grace = Millis{60000});
    // For callers with no clock at hand (the fuzz driver): the grace period counts from now.
    Reply set_connected(ParticipantId who, bool connected) {
        return set_connected(who, connected, SteadyClock::now());
    }
    // Time left before the opponent of an absent `c` may claim; none while `c` is connected.
    std::optional<Millis> grace_left(Color c, TimePoint now) const;
    // The opponent has been away past its grace period: the claimer wins (or draws) by abandonment.
    Reply claim(ParticipantId who, bool win, TimePoint now);

    Reply add_spectator(ParticipantId who);
    Reply remove_spectator(ParticipantId who);
    // Players write to the players' channel, spectators to the spectators' channel; the other
    // channel is refused (not_a_player for a spectator, wrong_chat_channel for a player).
    // A spectator's line is signed with `spectator_name` (its Hello name), if given.
    Reply chat(ParticipantId who, ChatChannel channel, std::string_view text, std::string_view spectator_name = {});

    // Plays `iccs` for the participant's seat; `expected_ply` is the ply count the client saw.
    // `lag` is the mover's measured round trip: lag compensation gives back up to that much of
    // the move's time, within the seat's quota (lag_tracker.h).
    std::expected<MoveDone, Error> move(ParticipantId who, MoveId move_id, int expected_ply,
                                        std::string_view iccs, TimePoint now, Millis lag = {});
    // The measured round trip of `c`'s connection. A PlayerConnection follows when it changed
    // noticeably (25 ms and a fifth) and the last one for lag went out kLagShownInterval ago.
    static constexpr Millis kLagShownInterval{5000};
    Events set_lag(Color c, Millis lag, TimePoint now);
    const LagQuota& lag_quota(Color c) const { return lag_quota_[static_cast<std::size_t>(index_of(c))]; }
    Reply resign(ParticipantId who, TimePoint now);
    Reply offer_draw(ParticipantId who, TimePoint now);
    Reply accept_draw(ParticipantId who, TimePoint now);
    Reply decline_draw(ParticipantId who);
    Reply request_takeback(ParticipantId who);
    Reply accept_takeback(ParticipantId who, TimePoint now);
    Reply decline_takeback(ParticipantId who);
    Reply abort(ParticipantId who, TimePoint now);
    // Ends the game on time if the running side's flag has fallen at `now`, or aborts it if the
    // side to move's first move is overdue; otherwise no events.
    Reply check_flag(TimePoint now);

    // Rematch (room_rematch.cpp), once the game has ended with a result. Offering while the
    // opponent's offer stands is accepting it. Refused with no_rematch when the opponent is not
    // connected or this game's rematch was already played. The caller starts the new game after
    // rematch_accepted() and then calls rematch_started() with its id.
    Reply offer_rematch(ParticipantId who);
    Reply decline_rematch(ParticipantId who);
    // The acceptor's colour, the offer standing; changes nothing.
    std::expected<Color, Error> rematch_accepted(ParticipantId who) const;
    Events rematch_started(Color acceptor, RoomId game);
    const std::optional<Color>& rematch_offer() const { return rematch_offer_; }
    const RoomId& rematch_game() const { return rematch_game_; }

    // Spectator delay (room_spectators.cpp): spectators see the game `plies` plies behind (the
    // players' chat and offers with it) until it ends; players are not delayed. Set before play.
    void set_spectator_delay(int plies) { spectator_delay_ = plies; }
    int spectator_delay() const { return spectator_delay_; }
    // The plies spectators may see, and the last event version they may see (it never goes back).
    int spectator_plies() const;
    std::uint64_t spectator_version() const { return spectator_version_; }
    // The clocks as spectators see them: running now, or (delayed) stopped as they stood when the
    // position they see arose.
    ClockReading spectator_clocks(TimePoint now) const;

    // A spectator's snapshot is the game as spectators may see it.
    Snapshot snapshot(TimePoint now, Role role = Role::Player) const;
    // The kept chat lines (ChatLine events) `role` may see, oldest first: players see only the
    // players' channel, spectators both.
    std::vector<Event> recent_chat(Role role) const;

    // Crash recovery (room_restore.cpp): a started game rebuilt from its journal. Clocks resume at
    // `now` from their values at the last journaled event (paused while the server was down).
    // An error names the journal entry that does not replay (an illegal move).
    static std::expected<std::unique_ptr<Room>, std::string> restore(RoomId id, TimeControl control,
                                                                     RandomSource random,
                                                                     const RestoredGame& game, TimePoint now);
    // Events after `version` that `role` may see; nullopt when some are no longer kept (or the
    // version is from the future): take a snapshot instead.
    std::optional<Events> events_since(std::uint64_t version, Role role) const;

private:
    Seat& seat_mut(Color c) { return seats_[static_cast<std::size_t>(index_of(c))]; }
    std::expected<Color, Error> player(ParticipantId who) const;
    std::expected<Color, Error> playing(ParticipantId who) const;  // a player of a live game
    void emit(Events& out, EventBody body, Audience audience = Audience::Everyone);
    void start(Events& out, TimePoint now);
    void finish(Events& out, TimePoint now);  // the Game has just ended
    void end_aborted(Events& out, std::optional<Color> by, std::string explanation, TimePoint now);
    // The clocks stand until both sides have moved: the wait for a first move restarts at `now`.
    void await_first_move(TimePoint now);
    std::optional<TimePoint> first_move_deadline() const;
    void clear_offers_after_move(Events& out, Color mover);
    void keep_chat(const Event& line);
    std::string new_token();

    RoomId id_;
    RandomSource random_;
    Game game_;
    GameClock clock_;
    Status status_ = Status::Waiting;
    std::array<Seat, 2> seats_;
    std::vector<ParticipantId> spectators_;
    std::optional<Color> draw_offer_;
    std::optional<Color> takeback_by_;
    int takeback_plies_ = 0;
    std::array<LagQuota, 2> lag_quota_;
    std::optional<Color> rematch_offer_;  // who offered a rematch
    RoomId rematch_game_;                 // the rematch, once started ("" before)
    int spectator_delay_ = 0;
    std::uint64_t spectator_version_ = 0;
    std::vector<std::uint64_t> move_versions_;  // the version of each ply's MoveMade (index ply - 1)
    // Keeps move_versions_ and spectator_version_ up to date after each versioned event.
    void note_for_spectators(const Event& e);
    std::expected<Color, Error> rematch_player(ParticipantId who) const;
    bool both_moved_ = false;
    Millis first_move_time_ = kFirstMoveTime;
    std::optional<TimePoint> first_move_since_;  // while a side's first move is awaited
    // Remaining times when each position of the game arose (index = ply), for takebacks.
    std::vector<std::array<GameClock::Duration, 2>> clock_history_;
    // Each seat's recent move ids with the version of the MoveMade that acknowledged each. The
    // event itself is in log_, or, once log_ has dropped it, in old_acks_ (games past kHistory
    // events only), so a live game keeps 16 bytes per move for exactly-once moves.
    struct Ack {
        MoveId id;
        std::uint64_t version;
    };
    std::array<std::vector<Ack>, 2> acks_;
    // Each seat's highest move id acknowledged: clients number moves upwards, so an id above it
    // is new without searching acks_.
    std::array<MoveId, 2> highest_ack_id_{};
    std::vector<Event> old_acks_;
    const Event& ack_event(std::uint64_t version) const;
    void forget_ack(std::uint64_t version);
    std::deque<Event> log_;
    // Both channels in the order said, at most kChatKept lines of each (so 2 * 20 * 500 bytes of
    // text at most): spectators' lines are not in log_, and players' lines leave it eventually.
    // A vector, not a deque: an empty deque allocates, and most rooms never chat.
    std::vector<Event> recent_chat_;
    std::uint64_t version_ = 0;
    std::optional<TimePoint> started_at_;
    std::optional<TimePoint> ended_at_;
    EndHook on_end_;
    bool rated_ = false;
};

}  // namespace xq::server
