#include "server.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <sys/random.h>

#include "proto/codec.h"
#include "server/log.h"
#include "server/recovery.h"
#include "server/wire.h"

namespace xq::server {
namespace {

// Tokens and join codes are secrets, so they come from the kernel's CSPRNG, not a seeded PRNG;
// fetched 32 values at a time, as every new game asks for several.
std::uint64_t secure_random() {
    thread_local std::array<std::uint64_t, 32> pool;
    thread_local std::size_t left = 0;
    if (left == 0) {
        auto* bytes = reinterpret_cast<char*>(pool.data());
        for (std::size_t got = 0; got < sizeof pool;) {
            const auto n = getrandom(bytes + got, sizeof pool - got, 0);
            if (n > 0) got += static_cast<std::size_t>(n);
        }
        left = pool.size();
    }
    // Each value is handed out once, then forgotten.
    return std::exchange(pool[--left], 0);
}

Store open_store(const std::filesystem::path& path) {
    auto store = Store::open(path);
    if (!store) throw std::runtime_error("cannot open the database: " + store.error().message);
    return std::move(*store);
}


}  // namespace

Server::Server(asio::io_context& io, ServerConfig config)
    : io_(io),
      config_(std::move(config)),
      store_(open_store(config_.db)),
      lobby_(secure_random, [] { return std::chrono::system_clock::now(); },
             [this](const FinishedGame& game) { on_archive(game); }),
      listener_(io, config_.listen, config_.connections, config_.session, *this),
      flag_timer_(io),
      sweep_timer_(io),
      count_timer_(io) {
    // The loop's connection never checkpoints; a thread of the store does (store_checkpoint.h).
    if (auto c = Checkpointer::start(config_.db, std::chrono::milliseconds(200)); c && store_.hand_checkpoints_over())
        checkpointer_ = std::move(*c);
    recover();
    if (config_.discovery) {
        discovery_.emplace(io, udp::endpoint(config_.listen.address(), *config_.discovery), [this] {
            return proto::DiscoveryReply{config_.name, listener_.port(),
                                         static_cast<std::uint32_t>(lobby_.open_games(0).size()),
                                         static_cast<std::uint32_t>(lobby_.live_games(0).size()),
                                         proto::kProtocolVersion};
        });
    }
}

Server::~Server() { flush_archive(); }

void Server::start() {
    listener_.start();
    if (discovery_) discovery_->start();
    sweep_finished_rooms();
    arm_flag_timer(nullptr);  // restored games' clocks
    log(LogLevel::Info, "listening on ", config_.listen.address().to_string(), ":", listener_.port(),
        discovery_ ? ", discovery on UDP " + std::to_string(discovery_->port()) : std::string());
}

void Server::stop() {
    listener_.stop();
    if (discovery_) discovery_->stop();
    flag_timer_.cancel();
    count_timer_.cancel();
    std::vector<std::shared_ptr<Session>> sessions;
    for (auto& [id, client] : clients_) sessions.push_back(client.session);
    for (auto& session : sessions) session->close(CloseReason::ByServer);
    flush_archive();
}

std::optional<std::uint16_t> Server::discovery_port() const {
    if (!discovery_) return std::nullopt;
    return discovery_->port();
}

void Server::on_frame(const std::shared_ptr<Session>& session, std::string_view payload) {
    auto [it, fresh] = clients_.try_emplace(session->id());
    Client& client = it->second;
    if (fresh) client.session = session;
    auto message = proto::decode_client(payload);
    // Every request but a Ping spends a credit, undecodable ones too; a flooder is refused, then cut off.
    if (!message || !std::holds_alternative<proto::Ping>(message->body)) {
        const auto verdict = client.rate.take(config_.rate, now());
        if (verdict != RateLimiter::Verdict::Allowed) {
            send(client, wire::error(message ? message->request_id : 0, proto::ErrorCode::RateLimited,
                                     "too many requests: slow down"));
            if (verdict == RateLimiter::Verdict::Close) session->close(CloseReason::ByServer, true);
            return;
        }
    }
    if (!message) {
        const auto& e = message.error();
        switch (e.code) {
            case proto::DecodeErrorCode::UnknownKind:
            case proto::DecodeErrorCode::EmptyOneof:  // proto/README.md: an empty body is an unknown message
                send(client, wire::error(e.request_id, proto::ErrorCode::UnknownMessage, e.message));
                return;
            case proto::DecodeErrorCode::InvalidValue:
                send(client, wire::error(e.request_id, proto::ErrorCode::BadRequest, e.message));
                return;
            default:
                // A frame that does not parse at all: the stream cannot be trusted any more.
                send(client, wire::error(0, proto::ErrorCode::MalformedFrame, e.message));
                session->close(CloseReason::BadFrame, true);
                return;
        }
    }
    dispatch(client, *message);
}

void Server::on_bad_frame(const std::shared_ptr<Session>& session, const proto::DecodeError& error) {
    const auto code = error.code == proto::DecodeErrorCode::Oversize ? proto::ErrorCode::FrameTooLarge
                                                                     : proto::ErrorCode::MalformedFrame;
    deliver(session, proto::encode(wire::error(0, code, error.message)));
}

void Server::on_closed(const std::shared_ptr<Session>& session, CloseReason reason) {
    listener_.released(*session);
    log(LogLevel::Debug, "session ", session->id(), " closed: ", to_string(reason));
    const auto it = clients_.find(session->id());
    if (it == clients_.end()) return;
    leave_all(it->second);
    clients_.erase(it);
}

void Server::send(Client& client, const proto::ServerMessage& message) { deliver(client.session, proto::encode(message)); }

void Server::broadcast(const RoomId& id, const Events& events, ParticipantId asker, std::uint64_t request_id) {
    const Room* room = lobby_.find(id);
    if (!room) return;
    // Every change to a room passes through here, so this is where its clock deadline is noted,
    // and where what must be durable before anyone hears of it is journaled.
    arm_flag_timer(room);
    if (journal_.note(*room, events, lobby_, asker, request_id)) journal_pending();
    const auto members = members_.find(id);
    if (members == members_.end()) return;
    bool answered = false;
    for (const Event& e : events) {
        if (std::holds_alternative<SpectatorCount>(e.body)) {
            spectators_changed(id);
            continue;
        }
        const auto body = wire::event(*room, e, false);
        if (!body) continue;
        // Encoded once for everyone but the asker and the mover, who get their own copies.
        const std::string shared = proto::encode({0, *body});
        const auto* move = std::get_if<MoveMade>(&e.body);
        for (const auto& [who, role] : members->second) {
            if (!e.visible_to(role)) continue;
            const auto client = clients_.find(who);
            if (client == clients_.end()) continue;
            const bool mover = move && room->seat_of(who) == move->mover;
            const bool is_asker = who == asker && !answered;
            if (!mover && !is_asker) {
                deliver(client->second.session, shared, &id);
                continue;
            }
            // The mover's copy differs from everyone's only by its move id.
            proto::ServerMessage own{is_asker ? request_id : 0, *body};
            if (mover) std::get<proto::MoveMade>(own.body).move_id = move->move_id;
            deliver(client->second.session, proto::encode(own), &id);
            answered |= is_asker;
        }
    }
}

void Server::enter(Client& client, const RoomId& id, Role role) {
    members_[id][client.session->id()] = role;
    client.rooms.insert(id);
}

void Server::leave_all(Client& client) {
    const ParticipantId who = client.session->id();
    if (lobby_.is_waiting(who)) (void)lobby_.cancel_quick_match(who);
    for (const RoomId& id : client.rooms) {
        if (auto members = members_.find(id); members != members_.end()) {
            members->second.erase(who);
            if (members->second.empty()) members_.erase(members);
        }
        Room* room = lobby_.find(id);
        if (!room) continue;
        const auto events =
            room->seat_of(who) ? room->set_connected(who, false, now(), config_.grace) : room->remove_spectator(who);
        if (events) broadcast(id, *events);
    }
    client.rooms.clear();
}

void Server::arm_flag_timer(const Room* room) {
    const auto deadline = room ? room->deadline() : lobby_.next_deadline();
    if (!deadline || (flag_timer_at_ && *flag_timer_at_ <= *deadline)) return;
    flag_timer_at_ = *deadline;
    flag_timer_.expires_at(*deadline);
    flag_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) on_flag_timer();
    });
}

void Server::on_flag_timer() {
    flag_timer_at_.reset();
    const TimePoint at = now();
    for (const RoomId& id : lobby_.due(at))
        if (Room* room = lobby_.find(id))
            if (auto events = room->check_flag(at)) broadcast(id, *events);
    arm_flag_timer(nullptr);
}

// Finished rooms stay a minute for those who watched the end, then live on only in the archive.
void Server::sweep_finished_rooms() {
    for (const RoomId& id : lobby_.remove_ended_before(now() - std::chrono::minutes(1))) {
        if (const auto members = members_.find(id); members != members_.end()) {
            for (const auto& [who, role] : members->second)
                if (auto client = clients_.find(who); client != clients_.end()) client->second.rooms.erase(id);
            members_.erase(members);
        }
        private_rooms_.erase(id);
    }
    sweep_timer_.expires_after(std::chrono::seconds(15));
    sweep_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) sweep_finished_rooms();
    });
}

void Server::spectators_changed(const RoomId& id) {
    const TimePoint at = now();
    auto [it, fresh] = counts_.try_emplace(id);
    if (fresh || at - it->second.sent >= config_.spectator_count_interval) {
        send_spectator_count(id, it->second, at);
    } else {
        it->second.pending = true;
    }
    arm_count_timer();
}

void Server::send_spectator_count(const RoomId& id, CountThrottle& throttle, TimePoint at) {
    throttle.sent = at;
    throttle.pending = false;
    const Room* room = lobby_.find(id);
    const auto members = members_.find(id);
    if (!room || members == members_.end()) return;
    throttle.count = room->spectator_count();
    const std::string shared =
        proto::encode({0, proto::SpectatorCount{wire::game_id(id), static_cast<std::uint32_t>(throttle.count)}});
    for (const auto& [who, role] : members->second)
        if (const auto client = clients_.find(who); client != clients_.end()) deliver(client->second.session, shared);
}

// One timer for all rooms, due when the oldest entry's interval ends. Entries with nothing pending
// are dropped then, so the map only holds rooms active within the last interval.
void Server::arm_count_timer() {
    if (count_timer_armed_ || counts_.empty()) return;
    TimePoint due = TimePoint::max();
    for (const auto& [id, throttle] : counts_) due = std::min(due, throttle.sent + config_.spectator_count_interval);
    count_timer_armed_ = true;
    count_timer_.expires_at(due);
    count_timer_.async_wait([this](const boost::system::error_code& ec) {
        count_timer_armed_ = false;
        if (ec) return;  // stopped
        const TimePoint at = now();
        for (auto it = counts_.begin(); it != counts_.end();) {
            CountThrottle& throttle = it->second;
            if (at - throttle.sent < config_.spectator_count_interval) {
                ++it;
            } else if (throttle.pending) {
                // Only a real change goes out: a join and a leave within one interval cancel out.
                const Room* room = lobby_.find(it->first);
                if (room && room->spectator_count() != throttle.count) send_spectator_count(it->first, throttle, at);
                else throttle.pending = false;
                ++it;
            } else {
                it = counts_.erase(it);
            }
        }
        arm_count_timer();
    });
}

void Server::on_archive(const FinishedGame& game) {
    journal_.note_finished(wire::archived(game));
    journal_pending();
}

void Server::deliver(const std::shared_ptr<Session>& session, std::string_view bytes, const RoomId* room) {
    if (!journal_.pending() && held_.empty()) return session->deliver(bytes);
    held_.push_back({session, std::string(bytes), room ? *room : RoomId()});
}

// Posted, so it runs once the handlers of this readiness burst are done: one commit for them all.
void Server::journal_pending() {
    if (release_posted_) return;
    release_posted_ = true;
    asio::post(io_, [this] { release(); });
}

void Server::release() {
    release_posted_ = false;
    Journal::Outcome outcome;
    if (journal_.pending()) outcome = journal_.commit(store_);
    std::vector<Held> held = std::exchange(held_, {});
    for (const Held& h : held)
        if (!outcome.failed.contains(h.room) && h.session->open()) h.session->deliver(h.bytes);
    if (outcome.failed.empty()) return;
    log(LogLevel::Error, "journal: ", outcome.failed.size(), " game(s) could not be stored; rolled back");
    for (const RoomId& id : outcome.failed) roll_back(id);
    for (const Journal::Asker& a : outcome.askers)
        if (auto client = clients_.find(a.who); client != clients_.end())
            send(client->second, wire::error(a.request_id, proto::ErrorCode::Internal,
                                             "the server could not store that; nothing was changed",
                                             wire::game_id(a.room)));
}

// The room goes back to what the journal holds. A game whose start was never stored is aborted.
void Server::roll_back(const RoomId& id) {
    Room* room = lobby_.find(id);
    if (!room) return;
    auto games = store_.load_recoverable_games();
    const RecoverableGame* found = nullptr;
    if (games)
        for (const RecoverableGame& g : *games)
            if (g.game.record.id == id) found = &g;
    if (!found) {
        log(LogLevel::Error, "journal: game ", id, " is not in the store; aborting it");
        for (Color c : {Color::Red, Color::Black})
            if (room->status() == Status::Playing && room->seat(c).participant != 0)
                if (auto events = room->abort(room->seat(c).participant, now()); events) return broadcast(id, *events);
        return;
    }
    auto rebuilt = restore_room(*found, secure_random, now(), std::chrono::duration_cast<Millis>(config_.grace), room);
    if (!rebuilt) return log(LogLevel::Error, "journal: ", rebuilt.error());
    lobby_.adopt(std::move(*rebuilt), lobby_.join_code(id), now());
    arm_flag_timer(lobby_.find(id));
}

void Server::recover() {
    const auto report =
        recover_games(store_, lobby_, secure_random, now(), std::chrono::duration_cast<Millis>(config_.grace));
    for (const RoomId& id : report.private_rooms) private_rooms_.insert(id);
    for (const std::string& e : report.errors) log(LogLevel::Error, "recovery: ", e);
    if (report.restored > 0) log(LogLevel::Info, "restored ", report.restored, " live game(s) from the journal");
}

}  // namespace xq::server
