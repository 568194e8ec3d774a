// One game of the server run: created, watched, joined, played with random moves, ended.

#include "loadgen_server.h"

#include "loadgen_watch_file.h"

#include <algorithm>

#include "common/iccs.h"
#include "common/movegen.h"

namespace xq::loadgen {

void ServerDriver::new_game(Slot& s) {
    if (run_.stopping || s.dead) return;
    // --game-file: the watcher processes follow the first game only.
    if (!run_.options.game_file.empty() && s.ever_started) return;
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
    s.sent_at.clear();
    s.phase = Phase::Creating;
    s.create_rid = send(s.players[0],
                        proto::CreateGame{{10, 5, std::nullopt}, proto::ColorChoice::Red, false, 0, run_.options.rated});
}

void ServerDriver::on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::Seated& m) {
    if (who < 2 && m.game_id != 0 && (m.game_id == s.game || rid == s.create_rid))
        s.players[who].token = m.resume_token;
    if (who != 0 || rid == 0 || rid != s.create_rid || s.phase != Phase::Creating) return;
    s.game = m.game_id;
    if (!run_.options.game_file.empty() && s.index == 0) write_game_id(run_.options.game_file, s.game);
    if (watchers(s) == 0) return join_when_told(s);
    s.phase = Phase::Watching;
    for (auto& spectator : s.spectators) send(spectator, proto::WatchGame{s.game, ""});
    if (web_ && &s == slots_.front().get()) web_->watch(s.game);
}

std::size_t ServerDriver::watchers(const Slot& s) const {
    return s.spectators.size() + (web_ && &s == slots_.front().get() ? web_->size() : 0);
}

void ServerDriver::delivered(Slot& s, std::uint32_t ply, std::vector<std::uint32_t>& into) {
    if (ply >= 1 && ply <= s.sent_at.size()) run_.sample_delivery(into, s.sent_at[ply - 1]);
}

void ServerDriver::on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Snapshot& m) {
    if (m.game_id == s.game && s.seat(who).resyncing) return resync_snapshot(s, who, m);
    if (who < 2 || m.game_id != s.game || s.phase != Phase::Watching) return;
    if (auto loaded = s.seat(who).mirror.load(m); !loaded) run_.stats.error(loaded.error());
    if (++s.watching == watchers(s)) join_when_told(s);
}

void ServerDriver::join_when_told(Slot& s) {
    if (run_.options.game_file.empty() || s.index != 0) return join(s);
    asio::co_spawn(
        run_.io,
        [this, &s]() -> asio::awaitable<void> {
            asio::steady_timer pause(run_.io);
            while (!file_exists(run_.options.game_file + ".go") && !s.dead) {
                pause.expires_after(std::chrono::milliseconds(50));
                boost::system::error_code ec;
                co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            }
            join(s);
        },
        asio::detached);
}

void ServerDriver::ask_again(Slot& s, std::size_t who) {
    asio::co_spawn(
        run_.io,
        [this, &s, who, game = s.game, phase = s.phase]() -> asio::awaitable<void> {
            asio::steady_timer pause(run_.io);
            pause.expires_after(std::chrono::milliseconds(100));
            boost::system::error_code ec;
            co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            if (s.game != game || s.phase != phase || s.dead) co_return;
            if (who == 1) send(s.players[1], proto::JoinGame{game, ""});
            else send(s.seat(who), proto::WatchGame{game, ""});
        },
        asio::detached);
}

void ServerDriver::join(Slot& s) {
    s.phase = Phase::Joining;
    send(s.players[1], proto::JoinGame{s.game, ""});
}

void ServerDriver::on_message(Slot& s, std::size_t who, std::uint64_t,
                              const proto::GameStarted& m) {
    if (m.game_id != s.game) return;
    (void)follow(s, who, m);
    s.phase = Phase::Playing;
    if (who != 0) return;
    ++run_.stats.games_started;
    s.progress = Clock::now();
    if (!s.ever_started) {
        s.ever_started = true;
        ++started_;
    }
    schedule(s, s.players[0]);
}

void ServerDriver::on_message(Slot& s, std::size_t who, std::uint64_t rid,
                              const proto::MoveMade& m) {
    if (m.game_id != s.game) return;
    // Not Changed: a move seen already (a resent move's original acknowledgement, a replayed
    // event), or one that does not follow.
    const auto update = follow(s, who, m);
    if (who >= 2) {
        if (update == client::MirrorUpdate::Changed) {
            delivered(s, m.ply, run_.stats.desktop_delivery_us);
            delivered(s, m.ply, run_.stats.node_delivery_us[s.seat(who).node]);
        }
        return;
    }
    Player& p = s.players[who];
    if (rid != 0 && rid == p.pending_rid) {
        if (p.sent_at != Clock::time_point{}) run_.sample(p.sent_at);
        ++run_.stats.acks_total;
        s.progress = Clock::now();
        --run_.outstanding;
        p.pending_rid = 0;
        p.unacked.reset();
        p.acked.emplace_back(m.ply, m.move);
    }
    if (update != client::MirrorUpdate::Changed) return;
    p.banned.clear();
    if (p.mirror.position().side_to_move() == p.color) schedule(s, p);
}

void ServerDriver::on_message(Slot& s, std::size_t who, std::uint64_t, const proto::GameEnded& m) {
    if (m.game_id != s.game) return;
    (void)follow(s, who, m);
    ended(s, who, result_text(m.outcome));
}

void ServerDriver::on_message(Slot& s, std::size_t who, std::uint64_t,
                              const proto::GameAborted& m) {
    if (m.game_id != s.game) return;
    (void)follow(s, who, m);
    ended(s, who, "aborted");
}

void ServerDriver::on_message(Slot& s, std::size_t who, std::uint64_t rid, const proto::Error& e) {
    if (who == 0 && rid != 0 && rid == s.leave_rid) return;
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
    if (e.code == proto::ErrorCode::NoSuchGame && s.seat(who).resyncing) return not_live(s, who);
    if (e.code == proto::ErrorCode::NoSuchGame && run_.options.servers.size() > 1 && e.game_id == s.game &&
        ((who == 1 && s.phase == Phase::Joining) || (who >= 2 && s.phase == Phase::Watching)))
        return ask_again(s, who);
    run_.stats.error("server error " + std::string(proto::code_name(e.code)) + ": " + e.message);
}

void ServerDriver::ended(Slot& s, std::size_t who, std::string result) {
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
    s.progress = Clock::now();
    if (!agree(s)) ++run_.stats.mismatches;
    asio::post(run_.io, [this, &s] { new_game(s); });
}

void ServerDriver::schedule(Slot& s, Player& p) {
    if (run_.stopping || p.ended) return;
    const int interval = run_.options.move_interval_ms;
    if (interval == 0) return asio::post(run_.io, [this, &s, &p] { play(s, p); });
    // The first move of a game waits a random part of the interval, so games do not move in step.
    int delay = interval;
    if (p.mirror.ply_count() == 0)
        delay = std::uniform_int_distribution<int>(0, interval - 1)(run_.random);
    p.timer->expires_after(std::chrono::milliseconds(delay));
    p.timer->async_wait([this, &s, &p](const boost::system::error_code& ec) {
        if (!ec) play(s, p);
    });
}

void ServerDriver::play(Slot& s, Player& p) {
    if (run_.stopping || p.ended || s.dead || p.pending_rid != 0 || p.unacked || p.away ||
        p.resyncing)
        return;
    if (p.mirror.ply_count() >= run_.options.max_plies) {
        send(p, proto::Resign{s.game});
        return;
    }
    std::vector<Move> choices;
    for (Move m : legal_moves(p.mirror.position()))
        if (std::find(p.banned.begin(), p.banned.end(), m) == p.banned.end()) choices.push_back(m);
    if (choices.empty()) return;  // mated or stalemated: the server's GameEnded is on its way
    p.last_sent =
        choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(run_.random)];
    p.sent_at = Clock::now();
    s.sent_at.resize(static_cast<std::size_t>(p.mirror.ply_count()) + 1);
    s.sent_at.back() = p.sent_at;
    if (!run_.options.game_file.empty() && s.index == 0)
        log_sent(run_.options.game_file, s.sent_at.size(), p.sent_at);
    ++run_.outstanding;
    p.unacked = proto::MakeMove{s.game, to_iccs(p.last_sent), ++p.move_id,
                                static_cast<std::uint32_t>(p.mirror.ply_count())};
    p.pending_rid = send(p, *p.unacked);
}

}  // namespace xq::loadgen
