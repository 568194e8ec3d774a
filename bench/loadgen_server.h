#pragma once
// The server run (loadgen_server*.cpp): per game two bot players and S spectators, each its own
// connection, speaking the real protocol. Red creates a public game, the spectators watch it,
// Black joins; the players then play random legal moves, and every participant follows the game
// in its own mirror and records the result it saw, so the run can check that they all agree.

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/mirror/game_mirror.h"
#include "loadgen.h"
#include "loadgen_web_watchers.h"

namespace xq::loadgen {

// What one participant saw of the current game.
struct Seat {
    Conn* conn = nullptr;
    std::size_t node = 0;  // which of --server's nodes the connection is to
    std::uint64_t next_rid = 1;
    client::GameMirror mirror;  // the game as this participant saw it, with its last version
    std::string result;         // "red_wins/checkmate/57" once ended
    bool ended = false;
    bool gap = false;            // an event that did not follow (a move out of step, say)
    bool away = false;           // dropped, not yet back (--reconnect)
    bool connecting = false;     // away, and a reconnection attempt is under way
    bool resyncing = false;      // back, Resume or WatchGame sent, its answer not yet in
    bool asked_archive = false;  // the game was not live after a restart: looked up in the archive
};

struct Player : Seat {
    Color color = Color::Red;
    std::uint64_t move_id = 0;
    std::uint64_t pending_rid = 0;  // the MakeMove awaiting its MoveMade
    Move last_sent;
    Clock::time_point sent_at;
    std::vector<Move> banned;  // refused by the repetition rules in this position
    std::optional<asio::steady_timer> timer;
    std::string token;                       // from Seated, for Resume
    std::optional<proto::MakeMove> unacked;  // resent with the same move id after a reconnect
    std::vector<std::pair<std::uint32_t, std::string>> acked;  // (ply, move) acknowledged this game
    std::vector<std::uint64_t> crossed;  // request ids of moves that crossed the game's end
};

enum class Phase { Idle, Creating, Watching, Joining, Playing };

struct Slot {
    std::size_t index = 0;  // which game of the run: places its bots on a cluster's nodes
    proto::GameId game = 0;
    Phase phase = Phase::Idle;
    std::uint64_t create_rid = 0;
    std::uint64_t leave_rid = 0;  // Red cancelling a game that never began, before creating anew
    Player players[2];
    std::vector<Seat> spectators;
    std::size_t watching = 0;
    std::size_t ended = 0;
    bool dead = false;  // a connection dropped: the slot plays no more
    bool ever_started = false;
    std::vector<Clock::time_point> sent_at;  // [ply - 1]: when its player sent the move played there
    Clock::time_point progress;  // the last move acknowledged, or game begun or ended

    std::size_t seats() const { return 2 + spectators.size(); }
    Seat& seat(std::size_t who) {
        return who < 2 ? static_cast<Seat&>(players[who]) : spectators[who - 2];
    }
};

// Sends `body` to the server as this participant; returns its request id.
std::uint64_t send(Seat& seat, proto::ClientBody body);
// "red_wins/checkmate/57": a result as every participant records it, to compare.
std::string result_text(const proto::Outcome& o);

class ServerDriver final : public Driver {
public:
    explicit ServerDriver(Run& run);
    asio::awaitable<std::string> setup() override;
    void start() override;
    void stop() override;
    std::string unsettled() const override;
    void finish() override;
    std::size_t started() const override { return started_; }

private:
    // ---- Every message in (loadgen_server.cpp) ----
    void on_payload(Slot& s, std::size_t who, std::string_view payload);
    // A versioned event of this slot's game into the participant's mirror. One that does not
    // follow is a gap (a mismatch when the game is compared) and an error saying what it was.
    std::optional<client::MirrorUpdate> follow(Slot& s, std::size_t who,
                                               const proto::RoomEvent& event);
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Welcome&);
    // The server measures round trips (lag compensation): answered at once, like any client.
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Ping& m) {
        if (s.seat(who).conn) (void)send(s.seat(who), proto::Pong{m.nonce});
    }
    // --rated: a player's session is ready once its account is registered.
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::LoggedIn&);
    // Offers, takebacks and chat only move the version on; counts, connections, ... nothing.
    template <class T>
    void on_message(Slot& s, std::size_t who, std::uint64_t, const T& m) {
        if constexpr (std::is_constructible_v<proto::RoomEvent, T>) (void)follow(s, who, m);
    }

    // ---- The checks (loadgen_server.cpp) ----
    // Every move this player had acknowledged must be in its mirror (the game as the server has
    // it).
    void check_acked(Player& p);
    // Every participant saw the same moves and the same result, with no gap.
    bool agree(Slot& s);

    // ---- A game from creation to its end (loadgen_server_play.cpp) ----
    void new_game(Slot& s);
    void on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::Seated& m);
    // A Resume replaced the seat's token: the next reconnection needs the new one.
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::ResumeToken& m) {
        if (who < 2 && m.game_id == s.game) s.players[who].token = m.resume_token;
    }
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Snapshot& m);
    void join(Slot& s);
    // Where a bot connects: its game's Red, Black and spectators on three successive nodes of
    // --server A,B,C; a reconnection (attempt > 0) tries the next node.
    std::size_t node_for(const Slot& s, std::size_t who, int attempt = 0) const;
    // A JoinGame or WatchGame sent on another node than the game's, before that node's copy of
    // the shared lobby had it: asked again a moment later.
    void ask_again(Slot& s, std::size_t who);
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::GameStarted& m);
    void on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::MoveMade& m);
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::GameEnded& m);
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::GameAborted& m);
    void on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::Error& e);
    void ended(Slot& s, std::size_t who, std::string result);
    void schedule(Slot& s, Player& p);
    void play(Slot& s, Player& p);

    // ---- Reconnection, --reconnect (loadgen_server_resync.cpp) ----
    void dropped(Slot& s, std::size_t who, const std::string& why);
    // Back and welcomed: a started game is resumed (players) or watched again (spectators); a
    // game not yet started (never journaled) is begun afresh once every seat is back.
    void returned(Slot& s, std::size_t who);
    // After a resync: the unacknowledged move again with its move id (the server answers with the
    // original acknowledgement if it had played it), else the next move if it is our turn.
    void carry_on(Slot& s, std::size_t who);
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Resumed& m);
    // The game as the server has it now (a Snapshot or an archived game); what this seat saw
    // before must be its beginning.
    template <class Record>
    void resynced(Slot& s, std::size_t who, const Record& record);
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::ArchivedGame& m);
    // The answer to Resume or WatchGame after a reconnect, when the missed events were not enough.
    void resync_snapshot(Slot& s, std::size_t who, const proto::Snapshot& m);
    // The game ended while this participant was away: an unacknowledged move was never played.
    void resynced_ended(Slot& s, std::size_t who, std::string result);
    // Back after a restart, and the game is no longer live: it ended and went to the archive, or
    // (neither live nor archived) the server lost it, and every move acknowledged in it.
    void not_live(Slot& s, std::size_t who);

    // How many watch this slot's game: its desktop spectators, and the WebSocket watchers (first
    // slot); play starts once they all have a snapshot.
    std::size_t watchers(const Slot& s) const;
    // A spectator received the move at `ply`: its delivery time, per kind of spectator.
    void delivered(Slot& s, std::uint32_t ply, std::vector<std::uint32_t>& into);
    // --game-file: Black joins the first game once FILE.go exists (every watcher process is in).
    void join_when_told(Slot& s);

    Run& run_;
    std::unique_ptr<WebWatchers> web_;  // --web-watchers
    std::deque<Conn> conns_;
    std::vector<std::unique_ptr<Slot>> slots_;
    std::size_t welcomed_ = 0;
    std::size_t accounts_ = 0;  // --rated: accounts asked for so far (their names' numbers)
    // --rated: players waiting to register, and registrations in flight (a few at a time, so the
    // server's password queue never overflows into TRY_LATER).
    std::deque<Seat*> to_register_;
    std::size_t registering_ = 0;
    static constexpr std::size_t kRegistrationsInFlight = 8;
    void register_next();
    std::size_t started_ = 0;
    bool finished_ = false;
};

}  // namespace xq::loadgen
