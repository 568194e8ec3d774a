// The server run: per game two bot players and S spectators, each its own connection, speaking
// the real protocol. Red creates a public game, the spectators watch it, Black joins; the players
// then play random legal moves, and every participant follows the game in its own mirror and
// records the result it saw.

#include <algorithm>
#include <optional>

#include "client/mirror/game_mirror.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "loadgen.h"
#include "proto/codec.h"
#include "proto/frame.h"

namespace xq::loadgen {
namespace {

using proto::ServerMessage;

// What one participant saw of the current game.
struct Seat {
    Conn* conn = nullptr;
    std::uint64_t next_rid = 1;
    client::GameMirror mirror;  // the game as this participant saw it, with its last version
    std::string result;  // "red_wins/checkmate/57" once ended
    bool ended = false;
    bool gap = false;  // an event that did not follow (a move out of step, say)
    bool away = false;          // dropped, not yet back (--reconnect)
    bool connecting = false;    // away, and a reconnection attempt is under way
    bool resyncing = false;     // back, Resume or WatchGame sent, its answer not yet in
    bool asked_archive = false; // the game was not live after a restart: looked up in the archive
};

struct Player : Seat {
    Color color = Color::Red;
    std::uint64_t move_id = 0;
    std::uint64_t pending_rid = 0;  // the MakeMove awaiting its MoveMade
    Move last_sent;
    Clock::time_point sent_at;
    std::vector<Move> banned;  // refused by the repetition rules in this position
    std::optional<asio::steady_timer> timer;
    std::string token;  // from Seated, for Resume
    std::optional<proto::MakeMove> unacked;  // resent with the same move id after a reconnect
    std::vector<std::pair<std::uint32_t, std::string>> acked;  // (ply, move) acknowledged this game
    std::vector<std::uint64_t> crossed;  // request ids of moves that crossed the game's end
};

enum class Phase { Idle, Creating, Watching, Joining, Playing };

struct Slot {
    proto::GameId game = 0;
    Phase phase = Phase::Idle;
    std::uint64_t create_rid = 0;
    Player players[2];
    std::vector<Seat> spectators;
    std::size_t watching = 0;
    std::size_t ended = 0;
    bool dead = false;  // a connection dropped: the slot plays no more
    bool ever_started = false;

    std::size_t seats() const { return 2 + spectators.size(); }
    Seat& seat(std::size_t who) { return who < 2 ? static_cast<Seat&>(players[who]) : spectators[who - 2]; }
};

std::uint64_t send(Seat& seat, proto::ClientBody body) {
    const std::uint64_t rid = seat.next_rid++;
    seat.conn->send(proto::encode_frame(proto::ClientMessage{rid, std::move(body)}));
    return rid;
}

std::string result_text(const proto::Outcome& o) {
    return std::string(proto::to_string(o.result)) + "/" + o.reason + "/" + std::to_string(o.ply);
}

class ServerDriver final : public Driver {
public:
    explicit ServerDriver(Run& run) : run_(run) {
        for (int i = 0; i < run_.options.games; ++i) {
            auto slot = std::make_unique<Slot>();
            slot->players[1].color = Color::Black;
            slot->spectators.resize(static_cast<std::size_t>(run_.options.spectators));
            for (auto& p : slot->players) p.timer.emplace(run_.io);
            slots_.push_back(std::move(slot));
        }
    }

    asio::awaitable<std::string> setup() override {
        std::vector<std::pair<Slot*, std::size_t>> todo;
        for (auto& slot : slots_)
            for (std::size_t who = 0; who < slot->seats(); ++who) todo.emplace_back(slot.get(), who);
        std::size_t next = 0, done = 0;
        std::string failure;
        // A window of connectors, so the server's accept backlog never overflows.
        const int window = std::max(1, run_.options.connect_window);
        for (int w = 0; w < window; ++w)
            asio::co_spawn(
                run_.io,
                [&]() -> asio::awaitable<void> {
                    while (next < todo.size() && failure.empty()) {
                        auto [slot, who] = todo[next++];
                        Seat& seat = slot->seat(who);
                        seat.conn = &conns_.emplace_back(run_.io);
                        auto error = co_await seat.conn->connect(
                            run_.options.server, [this, slot, who](std::string_view p) { on_payload(*slot, who, p); },
                            [this, slot, who](const std::string& why) { dropped(*slot, who, why); });
                        if (!error.empty()) failure = "connect: " + error;
                        else send(seat, proto::Hello{"xq-loadgen", "bot", proto::kProtocolVersion});
                    }
                    ++done;
                },
                asio::detached);
        asio::steady_timer poll(run_.io);
        const auto deadline = Clock::now() + std::chrono::seconds(180);
        // The connectors refer to this frame's locals: wait for all of them before leaving.
        while (done < static_cast<std::size_t>(window) ||
               (welcomed_ < todo.size() && failure.empty() && Clock::now() < deadline && run_.stats.errors == 0)) {
            poll.expires_after(std::chrono::milliseconds(10));
            boost::system::error_code ec;
            co_await poll.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        }
        if (!failure.empty()) co_return failure + " after " + std::to_string(welcomed_) + " connections";
        if (welcomed_ < todo.size())
            co_return "only " + std::to_string(welcomed_) + " of " + std::to_string(todo.size()) + " sessions opened";
        co_return std::string();
    }

    void start() override {
        for (auto& slot : slots_) new_game(*slot);
    }
    std::size_t started() const override { return started_; }

    void stop() override {
        for (auto& slot : slots_)
            for (auto& p : slot->players) p.timer->cancel();
    }

    std::string unsettled() const override {
        if (run_.outstanding > 0) return std::to_string(run_.outstanding) + " moves unacknowledged";
        if (run_.crossed > 0) return std::to_string(run_.crossed) + " moves sent as their game ended not yet refused";
        for (const auto& slot : slots_) {
            if (slot->dead) continue;
            const std::string game = "game " + std::to_string(slot->game);
            for (std::size_t who = 0; who < slot->seats(); ++who)
                if (slot->seat(who).away || slot->seat(who).resyncing)
                    return game + ": participant " + std::to_string(who) + " is reconnecting";
            if (slot->phase != Phase::Playing) continue;
            if (slot->ended != 0 && slot->ended != slot->seats())
                return game + ": " + std::to_string(slot->ended) + " of " + std::to_string(slot->seats()) +
                       " participants saw it end";
            for (std::size_t who = 1; who < slot->seats(); ++who)
                if (slot->seat(who).mirror.ply_count() != slot->players[0].mirror.ply_count())
                    return game + ": participant " + std::to_string(who) + " has " +
                           std::to_string(slot->seat(who).mirror.ply_count()) + " moves, red " +
                           std::to_string(slot->players[0].mirror.ply_count());
        }
        return "";
    }

    void finish() override {
        finished_ = true;
        for (auto& slot : slots_) {
            if (slot->dead || slot->phase != Phase::Playing || slot->ended == slot->seats()) continue;
            ++run_.stats.checked_live;
            if (!agree(*slot)) ++run_.stats.mismatches;
            for (auto& p : slot->players) check_acked(p);
        }
        for (auto& conn : conns_) conn.close();
    }

private:
    void new_game(Slot& s) {
        if (run_.stopping || s.dead) return;
        s.game = 0;
        s.watching = s.ended = 0;
        for (std::size_t who = 0; who < s.seats(); ++who) {
            Seat& seat = s.seat(who);
            seat.mirror.clear();
            seat.result.clear();
            seat.ended = seat.gap = seat.asked_archive = false;
        }
        for (auto& p : s.players) {
            p.unacked.reset();
            p.acked.clear();
            p.pending_rid = 0;
        }
        s.phase = Phase::Creating;
        s.create_rid = send(s.players[0], proto::CreateGame{{10, 5, std::nullopt}, proto::ColorChoice::Red, false});
    }

    void on_payload(Slot& s, std::size_t who, std::string_view payload) {
        auto message = proto::decode_server(payload);
        if (!message) return run_.stats.error("undecodable frame: " + message.error().message);
        std::visit([&](const auto& body) { on_message(s, who, message->request_id, body); }, message->body);
    }

    // A versioned event of this slot's game into the participant's mirror. One that does not
    // follow is a gap (a mismatch when the game is compared) and an error saying what it was.
    std::optional<client::MirrorUpdate> follow(Slot& s, std::size_t who, const proto::RoomEvent& event) {
        const proto::GameId game = std::visit([](const auto& e) { return e.game_id; }, event);
        if (game != s.game || game == 0) return std::nullopt;
        Seat& seat = s.seat(who);
        auto update = seat.mirror.apply(event);
        if (update) return *update;
        seat.gap = true;
        run_.stats.error(update.error());
        return std::nullopt;
    }

    // ---- Reconnection (--reconnect) ----

    void dropped(Slot& s, std::size_t who, const std::string& why) {
        if (!run_.options.reconnect || finished_) {
            run_.stats.error("connection dropped: " + why);
            s.dead = true;
            return;
        }
        Seat& seat = s.seat(who);
        // Away already and connecting: that attempt goes on. Away but connected (the new
        // connection dropped before its Welcome, say the server was killed meanwhile): again.
        if (seat.connecting) return;
        seat.away = true;
        seat.connecting = true;
        seat.resyncing = false;
        ++run_.stats.reconnects;
        if (who < 2) {
            Player& p = s.players[who];
            p.timer->cancel();
            p.pending_rid = 0;  // its answer is lost; the move stays in `unacked`
            run_.crossed -= p.crossed.size();  // so are the refusals still to come
            p.crossed.clear();
        }
        asio::co_spawn(
            run_.io,
            [this, &s, who]() -> asio::awaitable<void> {
                asio::steady_timer pause(run_.io);
                for (int attempt = 0; attempt < 600 && !finished_; ++attempt) {
                    pause.expires_after(std::chrono::milliseconds(attempt == 0 ? 10 : 50));
                    boost::system::error_code ec;
                    co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
                    Conn& conn = conns_.emplace_back(run_.io);
                    auto error = co_await conn.connect(
                        run_.options.server, [this, &s, who](std::string_view p) { on_payload(s, who, p); },
                        [this, &s, who](const std::string& reason) { dropped(s, who, reason); });
                    if (!error.empty()) continue;
                    s.seat(who).conn = &conn;
                    s.seat(who).connecting = false;
                    send(s.seat(who), proto::Hello{"xq-loadgen", "bot", proto::kProtocolVersion});
                    co_return;
                }
                s.seat(who).connecting = false;
                if (!finished_) run_.stats.error("could not reconnect within 30 s");
                s.dead = true;
            },
            asio::detached);
    }

    // Back and welcomed: a started game is resumed (players) or watched again (spectators); a
    // game not yet started (never journaled) is begun afresh once every seat is back.
    void returned(Slot& s, std::size_t who) {
        Seat& seat = s.seat(who);
        seat.away = false;
        if (s.phase != Phase::Playing) {
            for (std::size_t i = 0; i < s.seats(); ++i)
                if (s.seat(i).away) return;
            return new_game(s);
        }
        if (seat.ended) return;  // nothing left to learn about this game
        seat.resyncing = true;
        if (who < 2) send(seat, proto::Resume{s.game, s.players[who].token, seat.mirror.version()});
        else send(seat, proto::WatchGame{s.game, ""});
    }

    // Every move this player had acknowledged must be in its mirror (the game as the server has it).
    void check_acked(Player& p) {
        const std::vector<Move>& moves = p.mirror.moves();
        std::erase_if(p.acked, [&](const auto& a) {
            const bool lost = a.first > moves.size() || to_iccs(moves[a.first - 1]) != a.second;
            if (lost) ++run_.stats.acked_moves_lost;
            return lost;
        });
    }

    // After a resync: the unacknowledged move again with its move id (the server answers with the
    // original acknowledgement if it had played it), else the next move if it is our turn.
    void carry_on(Slot& s, std::size_t who) {
        s.seat(who).resyncing = false;
        if (who >= 2 || s.seat(who).ended) return;
        Player& p = s.players[who];
        if (p.unacked) {
            p.sent_at = Clock::time_point{};  // not sampled: its latency includes the outage
            p.pending_rid = send(p, *p.unacked);
            return;
        }
        if (p.mirror.position().side_to_move() == p.color) schedule(s, p);
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Resumed& m) {
        if (m.game_id != s.game || !s.seat(who).resyncing) return;
        for (const proto::RoomEvent& e : m.events)
            std::visit([&](const auto& body) { on_message(s, who, 0, body); }, e);
        carry_on(s, who);
    }

    // The game as the server has it now (a Snapshot or an archived game); what this seat saw
    // before must be its beginning.
    template <class Record>
    void resynced(Slot& s, std::size_t who, const Record& record) {
        Seat& seat = s.seat(who);
        const std::vector<Move> seen = seat.mirror.moves();
        if (auto loaded = seat.mirror.load(record); !loaded)
            return run_.stats.error("an illegal move in the restored game: " + loaded.error());
        const std::vector<Move>& moves = seat.mirror.moves();
        if (moves.size() < seen.size() || !std::equal(seen.begin(), seen.end(), moves.begin())) {
            ++run_.stats.mismatches;
            run_.stats.error("after a reconnect the game no longer holds the moves this bot had seen");
        }
        seat.gap = false;
        if (who >= 2) return;
        Player& p = s.players[who];
        check_acked(p);
        p.banned.clear();
        // The unacknowledged move is in the game already: it was played (its ack comes on resend).
        if (p.unacked && moves.size() > p.unacked->ply && to_iccs(moves[p.unacked->ply]) == p.unacked->move) {
            p.acked.emplace_back(p.unacked->ply + 1, p.unacked->move);
            p.unacked.reset();
            --run_.outstanding;
        }
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::ArchivedGame& m) {
        if (m.entry.game_id != s.game || !s.seat(who).resyncing) return;
        (void)rid;
        resynced(s, who, m);
        s.seat(who).resyncing = false;
        if (who < 2 && s.players[who].unacked) {
            s.players[who].unacked.reset();
            --run_.outstanding;
        }
        ended(s, who, result_text(m.entry.outcome));
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Welcome&) {
        ++welcomed_;
        if (s.seat(who).away) returned(s, who);
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::Seated& m) {
        if (who < 2 && m.game_id != 0 && (m.game_id == s.game || rid == s.create_rid)) s.players[who].token = m.resume_token;
        if (who != 0 || rid == 0 || rid != s.create_rid || s.phase != Phase::Creating) return;
        s.game = m.game_id;
        if (s.spectators.empty()) return join(s);
        s.phase = Phase::Watching;
        for (auto& spectator : s.spectators) send(spectator, proto::WatchGame{s.game, ""});
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Snapshot& m) {
        if (m.game_id == s.game && s.seat(who).resyncing) {
            resynced(s, who, m);
            if (m.outcome) {
                s.seat(who).resyncing = false;
                if (who < 2 && s.players[who].unacked) {
                    s.players[who].unacked.reset();
                    --run_.outstanding;
                }
                return ended(s, who, result_text(*m.outcome));
            }
            return carry_on(s, who);
        }
        if (who < 2 || m.game_id != s.game || s.phase != Phase::Watching) return;
        if (auto loaded = s.seat(who).mirror.load(m); !loaded) run_.stats.error(loaded.error());
        if (++s.watching == s.spectators.size()) join(s);
    }

    void join(Slot& s) {
        s.phase = Phase::Joining;
        send(s.players[1], proto::JoinGame{s.game, ""});
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::GameStarted& m) {
        if (m.game_id != s.game) return;
        (void)follow(s, who, m);
        s.phase = Phase::Playing;
        if (who != 0) return;
        ++run_.stats.games_started;
        if (!s.ever_started) {
            s.ever_started = true;
            ++started_;
        }
        schedule(s, s.players[0]);
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::MoveMade& m) {
        if (m.game_id != s.game) return;
        // Not Changed: a move seen already (a resent move's original acknowledgement, a replayed
        // event), or one that does not follow.
        const auto update = follow(s, who, m);
        if (who >= 2) return;
        Player& p = s.players[who];
        if (rid != 0 && rid == p.pending_rid) {
            if (p.sent_at != Clock::time_point{}) run_.sample(p.sent_at);
            --run_.outstanding;
            p.pending_rid = 0;
            p.unacked.reset();
            p.acked.emplace_back(m.ply, m.move);
        }
        if (update != client::MirrorUpdate::Changed) return;
        p.banned.clear();
        if (p.mirror.position().side_to_move() == p.color) schedule(s, p);
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::GameEnded& m) {
        if (m.game_id != s.game) return;
        (void)follow(s, who, m);
        ended(s, who, result_text(m.outcome));
    }
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::GameAborted& m) {
        if (m.game_id != s.game) return;
        (void)follow(s, who, m);
        ended(s, who, "aborted");
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::Error& e) {
        if (who < 2 && rid != 0)
            if (auto& crossed = s.players[who].crossed; std::erase(crossed, rid) > 0) {
                --run_.crossed;
                if (e.code != proto::ErrorCode::GameOver)
                    run_.stats.error("a move sent as its game ended was refused with " +
                                     std::string(proto::code_name(e.code)) + ", not game_over");
                return;
            }
        if (who < 2 && rid != 0 && rid == s.players[who].pending_rid) {
            Player& p = s.players[who];
            --run_.outstanding;
            p.pending_rid = 0;
            p.unacked.reset();
            if (e.code == proto::ErrorCode::BannedByRepetition) {
                ++run_.stats.refused;
                p.banned.push_back(p.last_sent);
                return play(s, p);
            }
        }
        // A move or resignation that crossed the game's end on the wire.
        if (who < 2 && e.code == proto::ErrorCode::GameOver) return;
        // Back after a restart, and the game is no longer live: it ended and went to the archive.
        if (e.code == proto::ErrorCode::NoSuchGame && s.seat(who).resyncing) {
            Seat& seat = s.seat(who);
            if (!seat.asked_archive) {
                seat.asked_archive = true;
                send(seat, proto::GetArchived{s.game});
                return;
            }
            // Neither live nor archived: the server lost the game, and every move acknowledged in it.
            seat.resyncing = false;
            run_.stats.error("a started game is gone after a restart");
            if (who < 2) {
                Player& p = s.players[who];
                run_.stats.acked_moves_lost += p.acked.size();
                p.acked.clear();
                if (p.unacked) {
                    p.unacked.reset();
                    --run_.outstanding;
                }
            }
            return ended(s, who, "lost");
        }
        run_.stats.error("server error " + std::string(proto::code_name(e.code)) + ": " + e.message);
    }

    // Offers, takebacks and chat only move the version on; counts, connections, ... nothing.
    template <class T>
    void on_message(Slot& s, std::size_t who, std::uint64_t, const T& m) {
        if constexpr (std::is_constructible_v<proto::RoomEvent, T>) (void)follow(s, who, m);
    }

    void ended(Slot& s, std::size_t who, std::string result) {
        Seat& seat = s.seat(who);
        if (seat.ended) return;
        seat.ended = true;
        seat.result = std::move(result);
        if (who < 2) {
            Player& p = s.players[who];
            p.timer->cancel();
            // A move still unanswered crossed the end on the wire (sent on the opponent's move
            // before its GameEnded was read): the server must refuse it with GAME_OVER, an answer
            // that may come after the next game began, so it is awaited apart.
            if (p.pending_rid != 0) {
                --run_.outstanding;
                ++run_.crossed;
                p.crossed.push_back(p.pending_rid);
                p.pending_rid = 0;
                p.unacked.reset();
            }
            check_acked(p);
        }
        if (++s.ended < s.seats()) return;
        ++run_.stats.games_completed;
        if (!agree(s)) ++run_.stats.mismatches;
        asio::post(run_.io, [this, &s] { new_game(s); });
    }

    // Every participant saw the same moves and the same result, with no gap.
    bool agree(Slot& s) {
        const Seat& red = s.players[0];
        for (std::size_t who = 0; who < s.seats(); ++who) {
            const Seat& seat = s.seat(who);
            if (seat.gap || seat.mirror.moves() != red.mirror.moves() || seat.result != red.result) return false;
        }
        return true;
    }

    void schedule(Slot& s, Player& p) {
        if (run_.stopping || p.ended) return;
        const int interval = run_.options.move_interval_ms;
        if (interval == 0) return asio::post(run_.io, [this, &s, &p] { play(s, p); });
        // The first move of a game waits a random part of the interval, so games do not move in step.
        int delay = interval;
        if (p.mirror.ply_count() == 0) delay = std::uniform_int_distribution<int>(0, interval - 1)(run_.random);
        p.timer->expires_after(std::chrono::milliseconds(delay));
        p.timer->async_wait([this, &s, &p](const boost::system::error_code& ec) {
            if (!ec) play(s, p);
        });
    }

    void play(Slot& s, Player& p) {
        if (run_.stopping || p.ended || s.dead || p.pending_rid != 0 || p.unacked || p.away || p.resyncing) return;
        if (p.mirror.ply_count() >= run_.options.max_plies) {
            send(p, proto::Resign{s.game});
            return;
        }
        std::vector<Move> choices;
        for (Move m : legal_moves(p.mirror.position()))
            if (std::find(p.banned.begin(), p.banned.end(), m) == p.banned.end()) choices.push_back(m);
        if (choices.empty()) return;  // mated or stalemated: the server's GameEnded is on its way
        p.last_sent = choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(run_.random)];
        p.sent_at = Clock::now();
        ++run_.outstanding;
        p.unacked = proto::MakeMove{s.game, to_iccs(p.last_sent), ++p.move_id, static_cast<std::uint32_t>(p.mirror.ply_count())};
        p.pending_rid = send(p, *p.unacked);
    }

    Run& run_;
    std::deque<Conn> conns_;
    std::vector<std::unique_ptr<Slot>> slots_;
    std::size_t welcomed_ = 0;
    std::size_t started_ = 0;
    bool finished_ = false;
};

}  // namespace

std::unique_ptr<Driver> make_server_driver(Run& run) { return std::make_unique<ServerDriver>(run); }

}  // namespace xq::loadgen
