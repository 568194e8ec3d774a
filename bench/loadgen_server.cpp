// The server run as a Driver: connecting, settling and the final checks; every message in.

#include "loadgen_server.h"

#include "loadgen_watch_file.h"

#include <algorithm>

#include "common/iccs.h"
#include "proto/codec.h"
#include "proto/frame.h"

namespace xq::loadgen {

std::uint64_t send(Seat& seat, proto::ClientBody body) {
    const std::uint64_t rid = seat.next_rid++;
    seat.conn->send(proto::encode_frame(proto::ClientMessage{rid, std::move(body)}));
    return rid;
}

std::string result_text(const proto::Outcome& o) {
    return std::string(proto::to_string(o.result)) + "/" + o.reason + "/" + std::to_string(o.ply);
}

std::size_t ServerDriver::node_for(const Slot& s, std::size_t who, int attempt) const {
    const std::size_t step = run_.options.spread_spectators ? who : std::min<std::size_t>(who, 2);
    return (s.index + step + static_cast<std::size_t>(attempt)) % run_.options.servers.size();
}

ServerDriver::ServerDriver(Run& run) : run_(run) {
    for (int i = 0; i < run_.options.games; ++i) {
        auto slot = std::make_unique<Slot>();
        slot->index = static_cast<std::size_t>(i);
        slot->players[1].color = Color::Black;
        slot->spectators.resize(static_cast<std::size_t>(run_.options.spectators));
        for (auto& p : slot->players) p.timer.emplace(run_.io);
        slots_.push_back(std::move(slot));
    }
    run_.stats.node_delivery_us.resize(run_.options.servers.size());
}

asio::awaitable<std::string> ServerDriver::setup() {
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
                    seat.conn = &conns_.emplace_back(run_.io, run_.tls.get());
                    seat.node = node_for(*slot, who);
                    auto error = co_await seat.conn->connect(
                        run_.options.servers[seat.node],
                        [this, slot, who](std::string_view p) { on_payload(*slot, who, p); },
                        [this, slot, who](const std::string& why) { dropped(*slot, who, why); });
                    if (!error.empty())
                        failure = "connect: " + error;
                    else
                        send(seat, proto::Hello{"xq-loadgen", "bot", proto::kProtocolVersion});
                }
                ++done;
            },
            asio::detached);
    asio::steady_timer poll(run_.io);
    const auto deadline = Clock::now() + std::chrono::seconds(180);
    // The connectors refer to this frame's locals: wait for all of them before leaving.
    while (done < static_cast<std::size_t>(window) ||
           (welcomed_ < todo.size() && failure.empty() && Clock::now() < deadline &&
            run_.stats.errors == 0)) {
        poll.expires_after(std::chrono::milliseconds(10));
        boost::system::error_code ec;
        co_await poll.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
    if (!failure.empty())
        co_return failure + " after " + std::to_string(welcomed_) + " connections";
    if (welcomed_ < todo.size())
        co_return "only " + std::to_string(welcomed_) + " of " + std::to_string(todo.size()) +
            " sessions opened";
    if (run_.options.web_watchers > 0) {
        Slot& first = *slots_.front();
        web_ = std::make_unique<WebWatchers>(
            run_, static_cast<std::size_t>(run_.options.web_watchers),
            [this, &first](std::uint64_t game) {
                if (game == first.game && first.phase == Phase::Watching && ++first.watching == watchers(first))
                    join_when_told(first);
            },
            [this, &first](std::uint64_t game, std::uint32_t ply) {
                if (game == first.game) delivered(first, ply, run_.stats.web_delivery_us);
            });
        co_return co_await web_->open();
    }
    co_return std::string();
}

void ServerDriver::start() {
    for (auto& slot : slots_) {
        slot->progress = Clock::now();
        new_game(*slot);
    }
}

void ServerDriver::stop() {
    const auto limit = std::chrono::duration<double>(run_.options.stuck_after_s);
    for (auto& slot : slots_) {
        for (auto& p : slot->players) p.timer->cancel();
        const std::chrono::duration<double> idle = Clock::now() - slot->progress;
        if (slot->dead || idle > limit) {
            ++run_.stats.games_stuck;
            run_.stats.error("game " + std::to_string(slot->game) + " (slot " + std::to_string(slot->index) +
                             ") stuck: no progress for " + std::to_string(static_cast<int>(idle.count())) + " s" +
                             (slot->dead ? ", its connection dropped" : ""));
        }
    }
}

std::string ServerDriver::unsettled() const {
    if (run_.outstanding > 0) return std::to_string(run_.outstanding) + " moves unacknowledged";
    if (run_.crossed > 0)
        return std::to_string(run_.crossed) + " moves sent as their game ended not yet refused";
    for (const auto& slot : slots_) {
        if (slot->dead) continue;
        const std::string game = "game " + std::to_string(slot->game);
        for (std::size_t who = 0; who < slot->seats(); ++who)
            if (slot->seat(who).away || slot->seat(who).resyncing)
                return game + ": participant " + std::to_string(who) + " is reconnecting";
        if (slot->phase != Phase::Playing) continue;
        if (slot->ended != 0 && slot->ended != slot->seats())
            return game + ": " + std::to_string(slot->ended) + " of " +
                   std::to_string(slot->seats()) + " participants saw it end";
        for (std::size_t who = 1; who < slot->seats(); ++who)
            if (slot->seat(who).mirror.ply_count() != slot->players[0].mirror.ply_count())
                return game + ": participant " + std::to_string(who) + " has " +
                       std::to_string(slot->seat(who).mirror.ply_count()) + " moves, red " +
                       std::to_string(slot->players[0].mirror.ply_count());
    }
    return "";
}

void ServerDriver::finish() {
    finished_ = true;
    for (auto& slot : slots_) {
        if (slot->dead || slot->phase != Phase::Playing || slot->ended == slot->seats()) continue;
        ++run_.stats.checked_live;
        if (!agree(*slot)) ++run_.stats.mismatches;
        for (auto& p : slot->players) check_acked(p);
    }
    for (auto& conn : conns_) conn.close();
    if (web_) web_->close();
    if (!run_.options.game_file.empty()) touch_file(run_.options.game_file + ".done");
}

void ServerDriver::on_payload(Slot& s, std::size_t who, std::string_view payload) {
    auto message = proto::decode_server(payload);
    if (!message) return run_.stats.error("undecodable frame: " + message.error().message);
    std::visit([&](const auto& body) { on_message(s, who, message->request_id, body); },
               message->body);
}

std::optional<client::MirrorUpdate> ServerDriver::follow(Slot& s, std::size_t who,
                                                         const proto::RoomEvent& event) {
    const proto::GameId game = std::visit([](const auto& e) { return e.game_id; }, event);
    if (game != s.game || game == 0) return std::nullopt;
    Seat& seat = s.seat(who);
    auto update = seat.mirror.apply(event);
    if (update) return *update;
    seat.gap = true;
    run_.stats.error(update.error());
    return std::nullopt;
}

void ServerDriver::on_message(Slot& s, std::size_t who, std::uint64_t, const proto::Welcome&) {
    // Rated runs: a player first registers its account (counted once LoggedIn comes).
    if (run_.options.rated && who < 2 && !s.seat(who).away) {
        to_register_.push_back(&s.seat(who));
        return register_next();
    }
    ++welcomed_;
    if (s.seat(who).away) returned(s, who);
}

void ServerDriver::on_message(Slot&, std::size_t, std::uint64_t, const proto::LoggedIn& m) {
    if (m.guest) return run_.stats.error("registration refused");
    --registering_;
    ++welcomed_;
    register_next();
}

void ServerDriver::register_next() {
    while (registering_ < kRegistrationsInFlight && !to_register_.empty()) {
        Seat& seat = *to_register_.front();
        to_register_.pop_front();
        ++registering_;
        send(seat, proto::Register{"lg" + std::to_string(++accounts_), "loadgen password"});
    }
}

void ServerDriver::check_acked(Player& p) {
    const std::vector<Move>& moves = p.mirror.moves();
    std::erase_if(p.acked, [&](const auto& a) {
        const bool lost = a.first > moves.size() || to_iccs(moves[a.first - 1]) != a.second;
        if (lost) ++run_.stats.acked_moves_lost;
        return lost;
    });
}

bool ServerDriver::agree(Slot& s) {
    const Seat& red = s.players[0];
    for (std::size_t who = 0; who < s.seats(); ++who) {
        const Seat& seat = s.seat(who);
        if (seat.gap || seat.mirror.moves() != red.mirror.moves() || seat.result != red.result)
            return false;
    }
    return true;
}

std::unique_ptr<Driver> make_server_driver(Run& run) { return std::make_unique<ServerDriver>(run); }

}  // namespace xq::loadgen
