// The server run with --reconnect: a dropped participant connects again, resumes or watches
// again, and checks that the game it comes back to still holds everything it had seen.

#include "loadgen_server.h"

#include <algorithm>

#include "common/iccs.h"

namespace xq::loadgen {

void ServerDriver::dropped(Slot& s, std::size_t who, const std::string& why) {
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
        p.pending_rid = 0;                 // its answer is lost; the move stays in `unacked`
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
                Conn& conn = conns_.emplace_back(run_.io, run_.tls.get());
                const std::size_t node = node_for(s, who, attempt);
                auto error = co_await conn.connect(
                    run_.options.servers[node],
                    [this, &s, who](std::string_view p) { on_payload(s, who, p); },
                    [this, &s, who](const std::string& reason) { dropped(s, who, reason); });
                if (!error.empty()) continue;
                s.seat(who).conn = &conn;
                s.seat(who).node = node;
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

void ServerDriver::returned(Slot& s, std::size_t who) {
    Seat& seat = s.seat(who);
    seat.away = false;
    if (s.phase != Phase::Playing) {
        for (std::size_t i = 0; i < s.seats(); ++i)
            if (s.seat(i).away) return;
        // Red may still host the game it created (only others dropped): cancelled first, or the
        // new CreateGame is refused (ALREADY_SEATED). If Red's session is new, the refusal of
        // this Leave is expected and ignored.
        if (s.game != 0) s.leave_rid = send(s.players[0], proto::Leave{s.game});
        return new_game(s);
    }
    if (seat.ended) return;  // nothing left to learn about this game
    seat.resyncing = true;
    if (who < 2)
        send(seat, proto::Resume{s.game, s.players[who].token, seat.mirror.version()});
    else
        send(seat, proto::WatchGame{s.game, ""});
}

void ServerDriver::carry_on(Slot& s, std::size_t who) {
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

void ServerDriver::on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Resumed& m) {
    if (m.game_id != s.game || !s.seat(who).resyncing) return;
    for (const proto::RoomEvent& e : m.events)
        std::visit([&](const auto& body) { on_message(s, who, 0, body); }, e);
    carry_on(s, who);
}

template <class Record>
void ServerDriver::resynced(Slot& s, std::size_t who, const Record& record) {
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
    if (p.unacked && moves.size() > p.unacked->ply &&
        to_iccs(moves[p.unacked->ply]) == p.unacked->move) {
        p.acked.emplace_back(p.unacked->ply + 1, p.unacked->move);
        ++run_.stats.acks_total;
        s.progress = Clock::now();
        p.unacked.reset();
        --run_.outstanding;
    }
}

void ServerDriver::on_message(Slot& s, std::size_t who, std::uint64_t,
                              const proto::ArchivedGame& m) {
    if (m.entry.game_id != s.game || !s.seat(who).resyncing) return;
    resynced(s, who, m);
    resynced_ended(s, who, result_text(m.entry.outcome));
}

void ServerDriver::resync_snapshot(Slot& s, std::size_t who, const proto::Snapshot& m) {
    resynced(s, who, m);
    if (m.outcome) return resynced_ended(s, who, result_text(*m.outcome));
    carry_on(s, who);
}

void ServerDriver::resynced_ended(Slot& s, std::size_t who, std::string result) {
    s.seat(who).resyncing = false;
    if (who < 2 && s.players[who].unacked) {
        s.players[who].unacked.reset();
        --run_.outstanding;
    }
    ended(s, who, std::move(result));
}

void ServerDriver::not_live(Slot& s, std::size_t who) {
    Seat& seat = s.seat(who);
    if (!seat.asked_archive) {
        seat.asked_archive = true;
        send(seat, proto::GetArchived{s.game});
        return;
    }
    run_.stats.error("a started game is gone after a restart");
    if (who < 2) {
        Player& p = s.players[who];
        run_.stats.acked_moves_lost += p.acked.size();
        p.acked.clear();
    }
    resynced_ended(s, who, "lost");
}

}  // namespace xq::loadgen
