#pragma once
// The registry of rooms: creating and joining games (public, or private behind a join code),
// quick-match pairing, the open and live game lists, the rooms whose clocks are due, and the
// hand-over of finished games to the archive.
//
// Rooms are owned here and found by id; callers look a room up for each operation instead of
// keeping pointers, because remove_ended() deletes rooms. Single-threaded like the rooms.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/rooms/finished_game.h"
#include "server/rooms/room.h"
#include "server/rooms/seek_rules.h"

namespace xq::server {

enum class ColorChoice { Red, Black, Random };

using WallClock = std::function<WallTime()>;

struct CreateGame {
    std::string name;
    ParticipantId who = 0;
    TimeControl time_control;
    ColorChoice color = ColorChoice::Random;
    bool is_private = false;
    bool rated = false;  // accounts only (the dispatcher checks)
    int spectator_delay = 0;  // plies spectators are kept behind (Room::set_spectator_delay)
};

struct Created {
    RoomId id;
    Color color;
    std::string token;
    std::optional<std::string> join_code;  // private games: what the creator passes to a friend
    Events events;
};

struct Seated {
    RoomId id;
    Joined joined;  // colour, token, and the room's events (PlayerJoined, GameStarted)
};

// Two waiting players paired into a new, started room.
struct Match {
    RoomId id;
    ParticipantId red = 0;
    ParticipantId black = 0;
    std::string red_token;
    std::string black_token;
    Events events;
};

struct GameListing {
    RoomId id;
    std::string red;  // "" while the seat is free
    std::string black;
    TimeControl time_control;
    int moves = 0;
    std::size_t spectators = 0;
    bool is_private = false;
    Status status = Status::Waiting;
    bool rated = false;
    std::optional<SeatRating> red_rating{};
    std::optional<SeatRating> black_rating{};
    int spectator_delay = 0;
    // Live games listed with a time: the position, last move and clocks their spectators see, so
    // that a lobby can draw them without watching (and counting as a spectator).
    std::string fen{};
    std::string last_move{};  // ICCS, "" before the first move
    std::optional<ClockReading> clocks{};
};

class Lobby {
public:
    // `random` makes room ids, join codes, tokens and random colours; `wall` stamps archived games;
    // `archive` receives each finished game once.
    Lobby(RandomSource random, WallClock wall, ArchiveSink archive);
    Lobby(const Lobby&) = delete;  // rooms call back into this object
    Lobby& operator=(const Lobby&) = delete;

    // Each room's allowance for a first move (Room::kFirstMoveTime unless set), for rooms made or
    // adopted from now on.
    void set_first_move_time(Millis time) { first_move_time_ = time; }
    // The server's name, the Site tag of every archived game's PGN.
    void set_site(std::string site) { site_ = std::move(site); }

    // A new room with the creator seated (colour chosen, or drawn at random).
    std::expected<Created, Error> create(CreateGame request, TimePoint now);
    // Takes the free seat of a waiting game; a private one needs its join code. Starts the game.
    std::expected<Seated, Error> join(const RoomId& id, std::string name, ParticipantId who,
                                      std::string_view join_code, TimePoint now);
    // Waits for an opponent with the same time control, or pairs with the longest waiter:
    // nullopt means "waiting". Colours are drawn at random.
    std::expected<std::optional<Match>, Error> quick_match(std::string name, ParticipantId who,
                                                           TimeControl control, TimePoint now);
    // The same for any seek: a casual seek pairs like quick_match, a rated one with the longest
    // waiting rated seek of the time control within that waiter's range.
    std::expected<std::optional<Match>, Error> seek(Seek seek, TimePoint now);
    // Waiting rated seeks that have come within range of each other as their ranges widened,
    // paired (the longest waiter first); call when next_deadline() comes.
    std::vector<Match> pair_widened_seeks(TimePoint now);
    // Two seeks paired elsewhere (a cluster's matcher): a new, started room with both seated,
    // colours drawn at random. Neither waits here.
    Match pair(Seek first, Seek second, TimePoint now);
    // When the next rated seek's range widens, while two or more rated seeks wait.
    std::optional<TimePoint> next_seek_widening(TimePoint now) const;
    // Leaves the quick-match queue.
    std::expected<void, Error> cancel_quick_match(ParticipantId who);
    // The seated creator cancels a game nobody has joined yet: the room is removed.
    std::expected<void, Error> cancel_game(const RoomId& id, ParticipantId who);
    // Watches a game; a private game needs its join code.
    Reply watch(const RoomId& id, ParticipantId who, std::string_view join_code);
    // A player reconnects to its seat with the token it was given.
    std::expected<Joined, Error> resume(const RoomId& id, std::string_view token, ParticipantId who);

    // Waiting games whose host dropped and did not come back within its grace period: removed
    // (nobody else is seated, nothing was journaled); returns their ids.
    struct Abandoned {
        RoomId id;
        std::uint64_t version;  // the room's last event version
    };
    std::vector<Abandoned> remove_abandoned(TimePoint now);

    // Games waiting for an opponent (not those whose host is away), and games in play. Private
    // games are listed only to their own players. Live games listed at `now` carry their position
    // and clocks as of then.
    std::vector<GameListing> open_games(ParticipantId viewer) const;
    std::vector<GameListing> live_games(ParticipantId viewer, std::optional<TimePoint> now = std::nullopt) const;
    // Every room, private and ended ones too, each with whether a stranger's lobby lists it (live
    // ones with their position and clocks at `now`): what a cluster node publishes, so that other
    // nodes list its games and find their owner.
    std::vector<std::pair<GameListing, bool>> every_game(TimePoint now) const;

    Room* find(const RoomId& id);
    const Room* find(const RoomId& id) const;
    // The seats `account` holds in games not yet over, whoever is connected to them (none, after a
    // restart): where a login puts the account back.
    std::vector<std::pair<RoomId, Color>> seats_of_account(std::string_view account) const;
    std::size_t room_count() const { return rooms_.size(); }
    bool is_waiting(ParticipantId who) const;

    // Rooms whose running clock's deadline is at or before `now` (call check_flag on each), and
    // the earliest deadline of all, for arming the next timer.
    std::vector<RoomId> due(TimePoint now) const;
    std::optional<TimePoint> next_deadline() const;

    // Removes finished and aborted rooms (after their players have seen the end); returns how many.
    std::size_t remove_ended();
    // Removes the rooms that ended at or before `cutoff` and returns their ids, so that people
    // who watched the end can still look at it for a while.
    std::vector<RoomId> remove_ended_before(TimePoint cutoff);

    // Takes in a room rebuilt from the journal (recovery.cpp), replacing one of the same id. A
    // room that comes back already finished is handed to the archive at once. `join_code_hash`:
    // the hash the journal keeps.
    void adopt(std::unique_ptr<Room> room, std::optional<std::string> join_code_hash, TimePoint now);
    // A room this server no longer owns (a cluster node whose game another node took over): gone
    // from here without an end, archived by nobody here.
    void release_room(const RoomId& id) { rooms_.erase(id); }
    // The hash of a private room's join code (what the journal keeps); nullopt for a public room.
    std::optional<std::string> join_code(const RoomId& id) const;

private:
    struct Entry {
        std::unique_ptr<Room> room;
        std::optional<std::string> join_code;  // its hash (server/accounts/secret.h)
    };
    struct Waiter {
        Seek seek;
        TimePoint since;
    };
    Match start_match(Waiter first, Seek second, TimePoint now);

    Room& add_room(TimeControl control, std::optional<std::string> join_code);
    std::string random_text(std::string_view alphabet, int length);
    bool listed_to(const Entry& e, ParticipantId viewer) const;
    static bool host_away(const Room& room);
    GameListing listing(const Entry& e) const;
    static void add_position(GameListing& listing, const Room& room, TimePoint now);
    RatingShifts archive(const Room& room, TimePoint now);

    RandomSource random_;
    WallClock wall_;
    ArchiveSink archive_;
    Millis first_move_time_ = Room::kFirstMoveTime;
    std::string site_;
    // Looked up on every request: hashed, since finished rooms linger a minute (thousands under load).
    std::unordered_map<RoomId, Entry> rooms_;
    std::vector<Waiter> waiting_;
};

}  // namespace xq::server
