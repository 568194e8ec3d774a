// The server run: per game two bot players and S spectators, each its own connection, speaking
// the real protocol. Red creates a public game, the spectators watch it, Black joins; the players
// then play random legal moves, and every participant records the moves and the result it saw.

#include <algorithm>
#include <optional>

#include "common/iccs.h"
#include "common/movegen.h"
#include "common/position.h"
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
    std::vector<std::string> moves;
    std::string result;  // "red_wins/checkmate/57" once ended
    bool ended = false;
    bool gap = false;  // a MoveMade whose ply did not follow the last one
};

struct Player : Seat {
    Color color = Color::Red;
    Position pos = Position::start();
    std::uint64_t move_id = 0;
    std::uint64_t pending_rid = 0;  // the MakeMove awaiting its MoveMade
    Move last_sent;
    Clock::time_point sent_at;
    std::vector<Move> banned;  // refused by the repetition rules in this position
    std::optional<asio::steady_timer> timer;
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
                            [this, slot](const std::string& why) {
                                run_.stats.error("connection dropped: " + why);
                                slot->dead = true;
                            });
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

    bool settled() const override {
        if (run_.outstanding > 0) return false;
        for (const auto& slot : slots_) {
            if (slot->dead || slot->phase != Phase::Playing) continue;
            if (slot->ended != 0 && slot->ended != slot->seats()) return false;
            for (std::size_t who = 1; who < slot->seats(); ++who)
                if (slot->seat(who).moves.size() != slot->players[0].moves.size()) return false;
        }
        return true;
    }

    void finish() override {
        for (auto& slot : slots_) {
            if (slot->dead || slot->phase != Phase::Playing || slot->ended == slot->seats()) continue;
            ++run_.stats.checked_live;
            if (!agree(*slot)) ++run_.stats.mismatches;
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
            seat.moves.clear();
            seat.result.clear();
            seat.ended = seat.gap = false;
        }
        s.phase = Phase::Creating;
        s.create_rid = send(s.players[0], proto::CreateGame{{10, 5, std::nullopt}, proto::ColorChoice::Red, false});
    }

    void on_payload(Slot& s, std::size_t who, std::string_view payload) {
        auto message = proto::decode_server(payload);
        if (!message) return run_.stats.error("undecodable frame: " + message.error().message);
        std::visit([&](const auto& body) { on_message(s, who, message->request_id, body); }, message->body);
    }

    void on_message(Slot&, std::size_t, std::uint64_t, const proto::Welcome&) { ++welcomed_; }

    void on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::Seated& m) {
        if (who != 0 || rid == 0 || rid != s.create_rid || s.phase != Phase::Creating) return;
        s.game = m.game_id;
        if (s.spectators.empty()) return join(s);
        s.phase = Phase::Watching;
        for (auto& spectator : s.spectators) send(spectator, proto::WatchGame{s.game, ""});
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Snapshot& m) {
        if (who < 2 || m.game_id != s.game || s.phase != Phase::Watching) return;
        s.seat(who).moves = m.moves;
        if (++s.watching == s.spectators.size()) join(s);
    }

    void join(Slot& s) {
        s.phase = Phase::Joining;
        send(s.players[1], proto::JoinGame{s.game, ""});
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::GameStarted& m) {
        if (m.game_id != s.game) return;
        s.phase = Phase::Playing;
        if (who != 0) return;
        ++run_.stats.games_started;
        if (!s.ever_started) {
            s.ever_started = true;
            ++started_;
        }
        Player& red = s.players[0];
        red.pos = s.players[1].pos = Position::start();
        schedule(s, red);
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::MoveMade& m) {
        if (m.game_id != s.game) return;
        Seat& seat = s.seat(who);
        if (m.ply != seat.moves.size() + 1) seat.gap = true;
        seat.moves.push_back(m.move);
        if (who >= 2) return;
        Player& p = s.players[who];
        if (rid != 0 && rid == p.pending_rid) {
            run_.sample(p.sent_at);
            --run_.outstanding;
            p.pending_rid = 0;
        }
        const auto move = parse_iccs(m.move);
        if (!move) return run_.stats.error("unreadable move " + m.move);
        p.pos.play(*move);
        p.banned.clear();
        if (p.pos.side_to_move() == p.color) schedule(s, p);
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::GameEnded& m) {
        if (m.game_id == s.game) ended(s, who, result_text(m.outcome));
    }
    void on_message(Slot& s, std::size_t who, std::uint64_t, const proto::GameAborted& m) {
        if (m.game_id == s.game) ended(s, who, "aborted");
    }

    void on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::Error& e) {
        if (who < 2 && rid != 0 && rid == s.players[who].pending_rid) {
            Player& p = s.players[who];
            --run_.outstanding;
            p.pending_rid = 0;
            if (e.code == proto::ErrorCode::BannedByRepetition) {
                ++run_.stats.refused;
                p.banned.push_back(p.last_sent);
                return play(s, p);
            }
        }
        // A move or resignation that crossed the game's end on the wire.
        if (who < 2 && e.code == proto::ErrorCode::GameOver) return;
        run_.stats.error("server error " + std::string(proto::code_name(e.code)) + ": " + e.message);
    }

    template <class T>
    void on_message(Slot&, std::size_t, std::uint64_t, const T&) {}  // counts, connections, ...

    void ended(Slot& s, std::size_t who, std::string result) {
        Seat& seat = s.seat(who);
        if (seat.ended) return;
        seat.ended = true;
        seat.result = std::move(result);
        if (who < 2) s.players[who].timer->cancel();
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
            if (seat.gap || seat.moves != red.moves || seat.result != red.result) return false;
        }
        return true;
    }

    void schedule(Slot& s, Player& p) {
        if (run_.stopping || p.ended) return;
        const int interval = run_.options.move_interval_ms;
        if (interval == 0) return asio::post(run_.io, [this, &s, &p] { play(s, p); });
        // The first move of a game waits a random part of the interval, so games do not move in step.
        int delay = interval;
        if (p.moves.empty()) delay = std::uniform_int_distribution<int>(0, interval - 1)(run_.random);
        p.timer->expires_after(std::chrono::milliseconds(delay));
        p.timer->async_wait([this, &s, &p](const boost::system::error_code& ec) {
            if (!ec) play(s, p);
        });
    }

    void play(Slot& s, Player& p) {
        if (run_.stopping || p.ended || s.dead || p.pending_rid != 0) return;
        if (p.moves.size() >= static_cast<std::size_t>(run_.options.max_plies)) {
            send(p, proto::Resign{s.game});
            return;
        }
        std::vector<Move> choices;
        for (Move m : legal_moves(p.pos))
            if (std::find(p.banned.begin(), p.banned.end(), m) == p.banned.end()) choices.push_back(m);
        if (choices.empty()) return;  // mated or stalemated: the server's GameEnded is on its way
        p.last_sent = choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(run_.random)];
        p.sent_at = Clock::now();
        ++run_.outstanding;
        p.pending_rid = send(p, proto::MakeMove{s.game, to_iccs(p.last_sent), ++p.move_id,
                                                static_cast<std::uint32_t>(p.moves.size())});
    }

    Run& run_;
    std::deque<Conn> conns_;
    std::vector<std::unique_ptr<Slot>> slots_;
    std::size_t welcomed_ = 0;
    std::size_t started_ = 0;
};

}  // namespace

std::unique_ptr<Driver> make_server_driver(Run& run) { return std::make_unique<ServerDriver>(run); }

}  // namespace xq::loadgen
