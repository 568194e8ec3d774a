#include "bot/player.h"

#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <optional>
#include <vector>

#include "bot/decide.h"
#include "client/mirror/game_mirror.h"
#include "client/net/connection.h"
#include "common/iccs.h"
#include "engine/async_engine.h"
#include "engine/levels.h"

namespace xq::bot {
namespace {

using SteadyClock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kFirstConnectTimeout = 10s;  // no server at all: give up instead of retrying forever
constexpr auto kOfflineLimit = 60s;         // a lost server that does not come back

Color to_color(proto::Side side) { return side == proto::Side::Red ? Color::Red : Color::Black; }

void log(const std::string& text) { std::cerr << "xiangqi-bot: " << text << std::endl; }

}  // namespace

struct Player::Impl {
    struct Answer {
        std::uint64_t ticket = 0;
        engine::AsyncEngine::MoveResult result;
    };

    BotOptions options;
    engine::Level level;
    std::mutex mutex;
    std::condition_variable wake;
    bool woken = false;                 // guarded by mutex
    std::vector<Answer> answers;        // guarded by mutex
    client::Connection connection;
    engine::AsyncEngine engine;

    // The seat and the game as the server has told them.
    proto::GameId game_id = 0;
    std::string token;
    std::optional<Color> side;
    client::GameMirror mirror;  // the record, the rulings the moves are chosen by, the version
    proto::TimeControl time_control;
    proto::Clock clock;
    SteadyClock::time_point clock_at;

    std::uint64_t awaited_ticket = 0;   // the engine request whose answer we want (0: none)
    std::uint64_t next_ticket = 1;
    bool move_sent = false;             // a MakeMove awaits its MoveMade or Error
    Move sent_move;
    std::uint64_t move_request = 0;
    std::uint64_t move_id = 0;
    std::vector<Move> refused;          // moves the server refused at the current ply
    ResignTracker tracker;
    std::optional<engine::Evaluation> last_evaluation;
    std::optional<SteadyClock::time_point> claim_at;  // the opponent's grace period runs out

    std::uint64_t seat_request = 0;
    int games_done = 0;
    bool done = false;
    int exit_code = 0;
    bool ever_online = false;
    std::optional<SteadyClock::time_point> offline_since;
    const std::function<void(const GameReport&)>* on_game = nullptr;

    explicit Impl(BotOptions o)
        : options(std::move(o)),
          level(engine::level(options.level).value_or(*engine::level(3))),
          connection([this] { notify(); }),
          engine(engine_options()),
          tracker(options.policy) {
        engine.warm_up();
    }

    engine::EngineOptions engine_options() const {
        engine::EngineOptions e = options.engine;
        e.skill = level.skill;
        return e;
    }

    void notify() {
        {
            std::lock_guard lock(mutex);
            woken = true;
        }
        wake.notify_all();
    }

    void fail(const std::string& why) {
        log(why);
        done = true;
        exit_code = 1;
    }

    void request_seat() {
        if (options.quick_match)
            seat_request = connection.send(proto::QuickMatch{options.time_control});
        else
            seat_request = connection.send(proto::CreateGame{options.time_control, options.color, false});
    }

    void forget_game() {
        game_id = 0;
        token.clear();
        side.reset();
        mirror.clear();
        awaited_ticket = 0;
        move_sent = false;
        refused.clear();
        tracker.reset();
        last_evaluation.reset();
        claim_at.reset();
    }

    void finish_game(GameReport report) {
        report.level = options.level;
        report.side = side.value_or(Color::Red);
        (*on_game)(report);
        forget_game();
        ++games_done;
        if (options.quick_match && games_done >= options.games) {
            done = true;
            return;
        }
        request_seat();
    }

    // ---- thinking ----

    std::int64_t elapsed_ms() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - clock_at).count();
    }

    int think_ms() const {
        int level_ms = level.think_time_ms;
        if (options.max_think_ms) level_ms = std::min(level_ms, *options.max_think_ms);
        const bool mine_runs = clock.running && side && to_color(*clock.running) == *side;
        std::int64_t remaining = *side == Color::Red ? clock.red_ms : clock.black_ms;
        std::optional<std::int64_t> cap_left;
        if (mine_runs) {
            remaining -= elapsed_ms();
            // The server may leave move_cap_ms out: then the whole cap is left when our clock starts.
            if (clock.move_cap_ms)
                cap_left = *clock.move_cap_ms - elapsed_ms();
            else if (time_control.move_cap_seconds)
                cap_left = std::int64_t{*time_control.move_cap_seconds} * 1000 - elapsed_ms();
        }
        return engine::think_time_ms(level_ms, remaining, std::int64_t{time_control.increment_seconds} * 1000,
                                     cap_left);
    }

    const Game& game() const { return mirror.rules(); }

    bool my_turn() const {
        return mirror.has_game() && !game().is_over() && side &&
               game().position().side_to_move() == *side;
    }

    void maybe_think() {
        if (!my_turn() || move_sent || awaited_ticket != 0) return;
        if (auto quick = decide_without_engine(game(), refused)) return send_move(quick->move);
        const std::uint64_t ticket = next_ticket++;
        awaited_ticket = ticket;
        const int think = think_ms();
        if (options.verbose) log("ply " + std::to_string(game().ply_count()) + ": thinking " + std::to_string(think) + " ms");
        auto limits = search_limits(game(), think, refused);
        limits.answer_by = SteadyClock::now() + std::chrono::milliseconds(think);
        engine.best_move(game().start(), game().moves(), std::move(limits),
                         [this, ticket](engine::AsyncEngine::MoveResult result) {
                             {
                                 std::lock_guard lock(mutex);
                                 answers.push_back(Answer{ticket, std::move(result)});
                                 woken = true;
                             }
                             wake.notify_all();
                         });
    }

    void handle_answer(Answer& answer) {
        if (answer.ticket != awaited_ticket) return;  // for a position that is gone
        awaited_ticket = 0;
        if (!my_turn() || move_sent) return;
        if (!answer.result) {
            // A broken engine must not lose on time: play an allowed move; the engine restarts next time.
            log("engine: " + std::string(engine::code_name(answer.result.error().code)) + ": " +
                answer.result.error().message);
            return send_move(allowed_moves(game(), refused).front());
        }
        last_evaluation = answer.result->evaluation;
        if (tracker.record(answer.result->evaluation, *side)) {
            connection.send(proto::Resign{game_id});
            move_sent = true;  // nothing more to play; GameEnded follows
            return;
        }
        send_move(answer.result->move);
    }

    void send_move(Move m) {
        const auto ply = static_cast<std::uint32_t>(mirror.ply_count());
        if (options.verbose)
            log("ply " + std::to_string(ply) + ": " + to_iccs(m) + " after " + std::to_string(elapsed_ms()) + " ms" +
                (last_evaluation ? " (" + last_evaluation->to_string() + ")" : ""));
        move_request = connection.send(proto::MakeMove{game_id, to_iccs(m), ++move_id, ply});
        if (move_request == 0) return;  // offline: thought again after the resume
        move_sent = true;
        sent_move = m;
    }

    // ---- server messages ----

    void set_clock(const proto::Clock& c) {
        clock = c;
        clock_at = SteadyClock::now();
    }

    // A versioned event of our game into the mirror; nullopt (logged) if it does not follow.
    std::optional<client::MirrorUpdate> follow(const proto::RoomEvent& event) {
        auto update = mirror.apply(event);
        if (!update) {
            log(update.error());
            return std::nullopt;
        }
        return *update;
    }

    void on_event(const proto::ServerMessage& message) {
        std::visit([&](const auto& body) { handle(message.request_id, body); }, message.body);
    }

    void handle(std::uint64_t, const proto::Seated& s) {
        game_id = s.game_id;
        token = s.resume_token;
        if (s.side) side = to_color(*s.side);
    }

    // A Resume replaced the seat's token: the next reconnection needs the new one.
    void handle(std::uint64_t, const proto::ResumeToken& t) {
        if (t.game_id == game_id) token = t.resume_token;
    }

    void handle(std::uint64_t, const proto::GameStarted& g) {
        if (game_id != 0 && g.game_id != game_id) return;
        if (follow(g) != client::MirrorUpdate::Changed) return;
        game_id = g.game_id;
        time_control = g.time_control;
        set_clock(g.clock);
        if (!side) side = g.red == player_name() ? Color::Red : Color::Black;
        tracker.reset();
        last_evaluation.reset();
        engine.new_game();
        maybe_think();
    }

    void handle(std::uint64_t, const proto::MoveMade& m) {
        if (m.game_id != game_id || !mirror.has_game()) return;
        if (follow(m) == client::MirrorUpdate::Changed) {
            refused.clear();
            move_sent = false;
            awaited_ticket = 0;
        }
        set_clock(m.clock);
        maybe_think();
    }

    void handle(std::uint64_t, const proto::OfferMade& o) {
        if (o.game_id != game_id) return;
        // Our own offers, and one answered before (replayed), need no answer.
        if (follow(o) != client::MirrorUpdate::Changed) return;
        if (!side || to_color(o.offer.side) == *side) return;
        const bool accept = o.offer.kind == proto::OfferKind::Draw && mirror.has_game() &&
                            accept_draw(options.policy, last_evaluation, *side, mirror.ply_count());
        connection.send(proto::AnswerOffer{game_id, o.offer.kind, accept});
    }

    void handle(std::uint64_t, const proto::OfferAnswered& a) {
        if (a.game_id == game_id) (void)follow(a);
    }

    void handle(std::uint64_t, const proto::TakebackApplied& t) {
        if (t.game_id != game_id || !mirror.has_game()) return;
        (void)follow(t);
        awaited_ticket = 0;
        move_sent = false;
        refused.clear();
        set_clock(t.clock);
        maybe_think();
    }

    void handle(std::uint64_t, const proto::ChatLine& c) {
        if (c.game_id == game_id) (void)follow(c);
    }

    void handle(std::uint64_t, const proto::GameEnded& e) {
        if (e.game_id != game_id) return;
        finish_game(GameReport{std::string(proto::to_string(e.outcome.result)), e.outcome.reason,
                               static_cast<int>(e.outcome.ply), 0, Color::Red});
    }

    void handle(std::uint64_t, const proto::GameAborted& a) {
        if (a.game_id != game_id) return;
        finish_game(GameReport{"aborted", "", mirror.ply_count(), 0, Color::Red});
    }

    void handle(std::uint64_t, const proto::PlayerConnection& p) {
        if (p.game_id != game_id || !side || to_color(p.side) == *side) return;
        if (!p.player.connected && p.player.grace_ms)
            claim_at = SteadyClock::now() + std::chrono::milliseconds(*p.player.grace_ms) + 250ms;
        else
            claim_at.reset();
    }

    void handle(std::uint64_t, const proto::Snapshot& s) {
        if (s.game_id != game_id) return;
        if (auto loaded = mirror.load(s); !loaded) return log(loaded.error());
        time_control = s.time_control;
        set_clock(s.clock);
        if (s.your_side) side = to_color(*s.your_side);
        move_sent = false;
        awaited_ticket = 0;
        if (s.status == proto::GameStatus::Finished && s.outcome)
            return finish_game(GameReport{std::string(proto::to_string(s.outcome->result)), s.outcome->reason,
                                          static_cast<int>(s.outcome->ply), 0, Color::Red});
        if (s.status == proto::GameStatus::Aborted) return finish_game(GameReport{"aborted", "", mirror.ply_count(), 0, Color::Red});
        maybe_think();
    }

    void handle(std::uint64_t, const proto::Resumed& r) {
        if (r.game_id != game_id) return;
        if (r.your_side) side = to_color(*r.your_side);
        move_sent = false;
        awaited_ticket = 0;
        for (const auto& event : r.events) {
            std::visit([&](const auto& body) { handle(0, body); }, event);
            if (game_id == 0) return;  // the game ended while we were away
        }
        set_clock(r.clock);
        maybe_think();
    }

    void handle(std::uint64_t request_id, const proto::Error& e) {
        const std::string what = std::string(proto::code_name(e.code)) + ": " + e.message;
        if (request_id != 0 && request_id == seat_request) return fail("the server refused a seat: " + what);
        if (request_id != 0 && request_id == move_request) {
            move_sent = false;
            if (e.code == proto::ErrorCode::StalePosition || e.code == proto::ErrorCode::GameOver) return;
            log("move " + to_iccs(sent_move) + " refused: " + what);
            refused.push_back(sent_move);
            return maybe_think();
        }
        if (e.code == proto::ErrorCode::ClaimNotAllowed) {
            claim_at = SteadyClock::now() + 1s;
            return;
        }
        if (e.code == proto::ErrorCode::BadToken || e.code == proto::ErrorCode::NoSuchGame) {
            // The seat is gone (the server restarted or the game was swept): start afresh.
            if (game_id != 0) {
                log("lost the seat: " + what);
                finish_game(GameReport{"aborted", "lost_seat", mirror.ply_count(), 0, Color::Red});
            }
            return;
        }
        log(what);
    }

    template <class T>
    void handle(std::uint64_t, const T&) {}  // lobby lists, spectators, archive: not the bot's business

    std::string player_name() const {
        return options.name.empty() ? "bot level " + std::to_string(options.level) : options.name;
    }

    void on_net(client::NetEvent& event) {
        if (std::holds_alternative<client::LinkUp>(event)) {
            ever_online = true;
            offline_since.reset();
            if (game_id != 0)
                connection.send(proto::Resume{game_id, token, mirror.version()});
            else
                request_seat();
        } else if (auto* down = std::get_if<client::LinkDown>(&event)) {
            awaited_ticket = 0;
            move_sent = false;
            if (!down->retrying) return fail("connection closed: " + down->reason);
            if (!offline_since) offline_since = SteadyClock::now();
        } else if (auto* in = std::get_if<client::Incoming>(&event)) {
            on_event(in->message);
        }
    }

    int run(const std::function<void(const GameReport&)>& callback, const std::atomic<bool>& stop) {
        on_game = &callback;
        const auto began = SteadyClock::now();
        // A hosting bot that its server started (and so gave the key, XQ_COMPUTER_KEY) offers
        // itself to players who ask for the computer at their own time control
        // (CreateGame.computer_level); any other bot plays people only.
        const char* key = std::getenv("XQ_COMPUTER_KEY");
        const bool computer = !options.quick_match && key && *key;
        connection.set_security(options.security);
        connection.open(options.server, player_name(), computer ? static_cast<std::uint32_t>(options.level) : 0,
                        computer ? key : "");
        while (!done && !stop.load()) {
            std::vector<Answer> ready;
            {
                std::unique_lock lock(mutex);
                wake.wait_for(lock, 100ms, [&] { return woken; });
                woken = false;
                ready.swap(answers);
            }
            for (auto& event : connection.poll()) {
                on_net(event);
                if (done) break;
            }
            for (auto& answer : ready)
                if (!done) handle_answer(answer);
            const auto now = SteadyClock::now();
            if (claim_at && now >= *claim_at && game_id != 0) {
                connection.send(proto::Claim{game_id, proto::ClaimKind::Win});
                claim_at = now + 2s;
            }
            if (!ever_online && now - began > kFirstConnectTimeout)
                fail("cannot reach the server at " + client::to_string(options.server));
            if (offline_since && now - *offline_since > kOfflineLimit) fail("the server has been gone for a minute");
        }
        connection.close();
        return exit_code;
    }
};

Player::Player(BotOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Player::~Player() = default;

int Player::run(const std::function<void(const GameReport&)>& on_game, const std::atomic<bool>& stop) {
    return impl_->run(on_game, stop);
}

}  // namespace xq::bot
