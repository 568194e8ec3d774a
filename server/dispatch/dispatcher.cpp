#include "server/dispatch/dispatcher.h"

#include <algorithm>

#include "server/log/log.h"
#include "server/dispatch/recovery.h"
#include "server/dispatch/wire.h"

namespace xq::server {

Dispatcher::Dispatcher(DispatchConfig config, Store& store, DispatchLoop& loop, RandomSource random,
                       PasswordWork* passwords)
    : config_(std::move(config)),
      store_(store),
      loop_(loop),
      outbox_(store, [&loop] { loop.post_release(); }),
      random_(std::move(random)),
      lobby_(random_, [] { return std::chrono::system_clock::now(); },
             [this](const FinishedGame& game) { return on_archive(game); }),
      join_guard_(config_.join_codes),
      passwords_(passwords ? *passwords : inline_passwords_),
      address_throttle_(config_.address_backoff),
      account_throttle_(config_.account_backoff),
      registrations_(config_.registrations_per_hour, std::chrono::hours(1)) {
    lobby_.set_first_move_time(std::chrono::duration_cast<Millis>(config_.first_move));
    lobby_.set_site(config_.name);
}

Dispatcher::~Dispatcher() { *alive_ = false; }

std::vector<std::shared_ptr<Peer>> Dispatcher::peers() const {
    std::vector<std::shared_ptr<Peer>> out;
    out.reserve(clients_.size());
    for (const auto& [id, client] : clients_) out.push_back(client.peer);
    return out;
}

void Dispatcher::on_frame(const std::shared_ptr<Peer>& peer, std::string_view payload) {
    auto [it, fresh] = clients_.try_emplace(peer->id());
    Client& client = it->second;
    if (fresh) {
        client.peer = peer;
        groups_[peer->address_group()].members.insert(peer->id());
    }
    auto message = proto::decode_client(payload);
    // Every request but a Ping (or the Pong the server awaits) spends a credit, undecodable ones
    // too; a flooder is refused, then cut off.
    if (!message || !(std::holds_alternative<proto::Ping>(message->body) || answers_ping(client, message->body))) {
        const auto verdict = client.rate.take(config_.rate, now());
        if (verdict != RateLimiter::Verdict::Allowed) {
            // A readable envelope's id is echoed even when the body does not decode (proto/README.md).
            const std::uint64_t rid = message ? message->request_id : message.error().request_id;
            send(client, wire::error(rid, proto::ErrorCode::RateLimited, "too many requests: slow down"));
            if (verdict == RateLimiter::Verdict::Close) peer->close(CloseReason::ByServer, true);
            return;
        }
        // The connections of one address share a larger allowance too: opening 64 of them does
        // not make 64 times the requests. No strikes here: one flooder must not get its
        // neighbours behind the same address cut off.
        const RateLimits& r = config_.rate;
        if (r.per_second > 0 && !groups_[peer->address_group()].requests.take(r.group_per_second, r.group_burst, now())) {
            const std::uint64_t rid = message ? message->request_id : message.error().request_id;
            return send(client, wire::error(rid, proto::ErrorCode::RateLimited, "too many requests from your address: slow down"));
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
                peer->close(CloseReason::BadFrame, true);
                return;
        }
    }
    dispatch(client, *message);
}

void Dispatcher::on_bad_frame(const std::shared_ptr<Peer>& peer, const proto::DecodeError& error) {
    const auto code = error.code == proto::DecodeErrorCode::Oversize ? proto::ErrorCode::FrameTooLarge
                                                                     : proto::ErrorCode::MalformedFrame;
    outbox_.deliver(peer, proto::encode(wire::error(0, code, error.message)));
}

void Dispatcher::on_closed(const Peer& peer) {
    const auto it = clients_.find(peer.id());
    if (it == clients_.end()) return;
    leave_all(it->second);
    // The group stays while its chat allowance refills (sweep_finished_rooms forgets it then), so
    // reconnecting does not refill it.
    if (auto group = groups_.find(peer.address_group()); group != groups_.end()) group->second.members.erase(peer.id());
    clients_.erase(it);
}

void Dispatcher::send(Client& client, const proto::ServerMessage& message, const RoomId* room) {
    std::string bytes = proto::encode(message);
    // Every frame must fit the cap, or the client has to drop the connection; the sources are
    // bounded, so this only guards against a mistake.
    if (bytes.size() > proto::kMaxFrameBytes) {
        log(LogLevel::Error, "a reply of ", bytes.size(), " bytes exceeds the frame cap; sending an error instead");
        bytes = proto::encode(wire::error(message.request_id, proto::ErrorCode::Internal, "the reply was too large"));
    }
    outbox_.deliver(client.peer, bytes, room, message.request_id);
}

void Dispatcher::broadcast(const RoomId& id, const Events& events, ParticipantId asker, std::uint64_t request_id) {
    const Room* room = lobby_.find(id);
    if (!room) return;
    // Every change to a room passes through here, so this is where its clock deadline is noted,
    // and where what must be durable before anyone hears of it is journaled.
    arm_flag_timer(room);
    outbox_.note(*room, events, lobby_, asker, request_id);
    const auto members = members_.find(id);
    if (members == members_.end()) return;
    bool answered = false;
    bool ping = false;
    // A delayed room's spectators get versioned events only as the delay reveals them.
    const bool delayed = room->spectator_delay() > 0;
    if (delayed) reveal_to_spectators(id, *room);
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
        ping |= move || std::holds_alternative<GameStarted>(e.body);
        for (const auto& [who, role] : members->second) {
            if (!e.visible_to(role) || (delayed && role == Role::Spectator && e.version != 0)) continue;
            const auto client = clients_.find(who);
            if (client == clients_.end()) continue;
            const bool mover = move && room->seat_of(who) == move->mover;
            const bool is_asker = who == asker && !answered;
            if (const auto* line = std::get_if<proto::ChatLine>(&*body); line && who != asker) {
                const auto seat = room->seat_of(who);
                if (muted_for(client->second, id, *line, seat ? std::optional(wire::side(*seat)) : std::nullopt)) continue;
            }
            if (!mover && !is_asker) {
                outbox_.deliver(client->second.peer, shared, &id);
                continue;
            }
            // The mover's copy differs from everyone's only by its move id.
            proto::ServerMessage own{is_asker ? request_id : 0, *body};
            if (mover) std::get<proto::MoveMade>(own.body).move_id = move->move_id;
            outbox_.deliver(client->second.peer, proto::encode(own), &id, is_asker ? request_id : 0);
            answered |= is_asker;
        }
    }
    if (ping) ping_players(id);
}

void Dispatcher::reveal_to_spectators(const RoomId& id, const Room& room) {
    const auto sent = spectators_sent_.try_emplace(id, 0).first;
    const std::uint64_t horizon = room.spectator_version();
    if (sent->second >= horizon) return;
    const auto events = room.events_since(sent->second, Role::Spectator);
    sent->second = horizon;
    const auto members = members_.find(id);
    if (!events || members == members_.end()) return;
    for (const Event& e : *events) {
        const auto body = wire::event(room, e, false);
        if (!body) continue;
        const std::string bytes = proto::encode({0, *body});
        for (const auto& [who, role] : members->second) {
            if (role != Role::Spectator) continue;
            const auto client = clients_.find(who);
            if (client == clients_.end()) continue;
            if (const auto* line = std::get_if<proto::ChatLine>(&*body); line && muted_for(client->second, id, *line, std::nullopt))
                continue;
            outbox_.deliver(client->second.peer, bytes, &id);
        }
    }
}

void Dispatcher::enter(Client& client, const RoomId& id, Role role) {
    members_[id][client.peer->id()] = role;
    client.rooms.insert(id);
    if (role == Role::Player && private_rooms_.contains(id)) client.private_seats.insert(id);
}

void Dispatcher::leave_all(Client& client) {
    const ParticipantId who = client.peer->id();
    if (lobby_.is_waiting(who)) (void)lobby_.cancel_quick_match(who);
    for (const RoomId& id : client.rooms) {
        if (auto members = members_.find(id); members != members_.end()) {
            members->second.erase(who);
            if (members->second.empty()) members_.erase(members);
        }
        client.muted.erase(id);
        Room* room = lobby_.find(id);
        if (!room) continue;
        const auto events =
            room->seat_of(who) ? room->set_connected(who, false, now(), config_.grace) : room->remove_spectator(who);
        if (events) broadcast(id, *events);
    }
    client.rooms.clear();
}

void Dispatcher::arm_flag_timer(const Room* room) {
    auto deadline = room ? room->deadline() : lobby_.next_deadline();
    // The same timer widens waiting rated seeks' ranges (lobby.h).
    if (const auto widen = lobby_.next_seek_widening(now()); !room && widen && (!deadline || *widen < *deadline))
        deadline = widen;
    if (!deadline || (flag_timer_at_ && *flag_timer_at_ <= *deadline)) return;
    flag_timer_at_ = *deadline;
    loop_.arm_flag_timer(*deadline);
}

void Dispatcher::on_flag_timer() {
    flag_timer_at_.reset();
    const TimePoint at = now();
    for (const RoomId& id : lobby_.due(at))
        if (Room* room = lobby_.find(id))
            if (auto events = room->check_flag(at)) broadcast(id, *events);
    for (const Match& found : lobby_.pair_widened_seeks(at)) seat_match(found, 0, 0);
    arm_flag_timer(nullptr);
}

// Finished rooms stay a minute for those who watched the end, then live on only in the archive.
// Waiting games whose host left for good go too, with a word to whoever watched them.
void Dispatcher::sweep_finished_rooms() {
    for (const RoomId& id : lobby_.remove_ended_before(now() - std::chrono::minutes(1))) forget_room(id);
    for (const auto& [id, version] : lobby_.remove_abandoned(now())) {
        tell_cancelled(id, version, std::nullopt, "The host left and did not come back: the game is cancelled.");
        forget_room(id);
    }
    join_guard_.prune(now());
    std::erase_if(groups_, [&](const auto& kv) {
        const RateLimits& r = config_.rate;
        return kv.second.members.empty() && kv.second.chat.full(r.chat_per_second, r.chat_burst, now()) &&
               kv.second.requests.full(r.group_per_second, r.group_burst, now());
    });
}

// A waiting game is gone from the lobby: its watchers hear it as an abort (it was never journaled).
void Dispatcher::tell_cancelled(const RoomId& id, std::uint64_t version, std::optional<Color> by,
                                std::string explanation) {
    const auto members = members_.find(id);
    if (members == members_.end()) return;
    const proto::GameAborted aborted{wire::game_id(id), version + 1,
                                     by ? std::optional(wire::side(*by)) : std::nullopt, std::move(explanation)};
    const std::string bytes = proto::encode({0, aborted});
    for (const auto& [who, role] : members->second)
        if (auto client = clients_.find(who); client != clients_.end())
            outbox_.deliver(client->second.peer, bytes);
}

// Drops every trace of a room the lobby no longer has.
void Dispatcher::forget_room(const RoomId& id) {
    if (const auto members = members_.find(id); members != members_.end()) {
        for (const auto& [who, role] : members->second)
            if (auto client = clients_.find(who); client != clients_.end()) {
                client->second.rooms.erase(id);
                client->second.muted.erase(id);
            }
        members_.erase(members);
    }
    private_rooms_.erase(id);
    counts_.erase(id);
    spectators_sent_.erase(id);
    join_guard_.forget_game(id);
}

void Dispatcher::spectators_changed(const RoomId& id) {
    const TimePoint at = now();
    auto [it, fresh] = counts_.try_emplace(id);
    if (fresh || at - it->second.sent >= config_.spectator_count_interval) {
        send_spectator_count(id, it->second, at);
    } else {
        it->second.pending = true;
    }
    arm_count_timer();
}

void Dispatcher::send_spectator_count(const RoomId& id, CountThrottle& throttle, TimePoint at) {
    throttle.sent = at;
    throttle.pending = false;
    const Room* room = lobby_.find(id);
    const auto members = members_.find(id);
    if (!room || members == members_.end()) return;
    throttle.count = room->spectator_count();
    const std::string shared =
        proto::encode({0, proto::SpectatorCount{wire::game_id(id), static_cast<std::uint32_t>(throttle.count)}});
    for (const auto& [who, role] : members->second)
        if (const auto client = clients_.find(who); client != clients_.end())
            outbox_.deliver(client->second.peer, shared);
}

// One timer for all rooms, due when the oldest entry's interval ends. Entries with nothing pending
// are dropped then, so the map only holds rooms active within the last interval.
void Dispatcher::arm_count_timer() {
    if (count_timer_armed_ || counts_.empty()) return;
    TimePoint due = TimePoint::max();
    for (const auto& [id, throttle] : counts_) due = std::min(due, throttle.sent + config_.spectator_count_interval);
    count_timer_armed_ = true;
    loop_.arm_count_timer(due);
}

void Dispatcher::on_count_timer() {
    count_timer_armed_ = false;
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
}

// The game's rating (rating_book.h) goes into its archive record, so the new ratings are written
// in the transaction that archives it; its players hear the changes in GameEnded.
RatingShifts Dispatcher::on_archive(const FinishedGame& game) {
    RatedGame rated = ratings_.rate(game);
    ArchivedGame record = wire::archived(game);
    record.red_rating = std::move(rated.red);
    record.black_rating = std::move(rated.black);
    outbox_.note_finished(std::move(record));
    return rated.shifts;
}

void Dispatcher::release() {
    const TurnJournal::Outcome outcome = outbox_.release();
    if (outcome.failed.empty()) return;
    log(LogLevel::Error, "journal: ", outcome.failed.size(), " game(s) could not be stored; rolled back");
    for (const RoomId& id : outcome.failed)
        if (!outcome.fenced.contains(id)) roll_back(id);
    for (const TurnJournal::Asker& a : outcome.askers)
        if (auto client = clients_.find(a.who); client != clients_.end())
            send(client->second, wire::error(a.request_id, proto::ErrorCode::Internal,
                                             "the server could not store that; nothing was changed",
                                             wire::game_id(a.room)));
    for (const RoomId& id : outcome.fenced) give_up(id);
}

void Dispatcher::give_up(const RoomId& id) {
    log(LogLevel::Warn, "journal: game ", id, " belongs to another node now; leaving it to that node");
    if (const auto members = members_.find(id); members != members_.end())
        for (const auto& [who, role] : members->second)
            if (auto client = clients_.find(who); client != clients_.end()) client->second.peer->close(CloseReason::ByServer, true);
    forget_room(id);
    lobby_.release_room(id);
}

std::vector<RoomId> Dispatcher::adopt_games(const std::vector<RecoverableGame>& games) {
    const auto report = restore_games(games, lobby_, random_, now(), std::chrono::duration_cast<Millis>(config_.grace));
    take_in(report, "takeover");
    for (const RoomId& id : report.rooms) arm_flag_timer(lobby_.find(id));
    return report.rooms;
}

void Dispatcher::take_in(const RecoveryReport& report, std::string_view what) {
    for (const RoomId& id : report.private_rooms) private_rooms_.insert(id);
    for (const RoomId& id : report.rooms) mark_accounts(id);  // the players' ratings, as shown
    for (const std::string& e : report.errors) log(LogLevel::Error, what, ": ", e);
}

// The room goes back to what the journal holds. A game whose start was never stored is aborted.
void Dispatcher::roll_back(const RoomId& id) {
    Room* room = lobby_.find(id);
    if (!room) return;
    // A refused archive took its rating change along: the book reads these accounts again.
    for (Color c : {Color::Red, Color::Black}) ratings_.forget(room->seat(c).account);
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
    auto rebuilt = restore_room(*found, random_, now(), std::chrono::duration_cast<Millis>(config_.grace), room);
    if (!rebuilt) return log(LogLevel::Error, "journal: ", rebuilt.error());
    lobby_.adopt(std::move(*rebuilt), lobby_.join_code(id), now());
    mark_accounts(id);  // the seats' ratings, as shown
    // The journal does not hold spectators: the rebuilt room takes back those still watching.
    if (Room* rebuilt_room = lobby_.find(id); rebuilt_room)
        if (const auto members = members_.find(id); members != members_.end())
            for (const auto& [who, role] : members->second)
                if (role == Role::Spectator) (void)rebuilt_room->add_spectator(who);
    arm_flag_timer(lobby_.find(id));
}

void Dispatcher::recover() {
    const auto report =
        recover_games(store_, lobby_, random_, now(), std::chrono::duration_cast<Millis>(config_.grace));
    take_in(report, "recovery");
    if (report.restored > 0) log(LogLevel::Info, "restored ", report.restored, " live game(s) from the journal");
}

}  // namespace xq::server
