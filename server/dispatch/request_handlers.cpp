// Request handlers: each checks what the protocol alone can check, asks the lobby or the room,
// answers the asker and broadcasts the room's events.

#include <cctype>
#include <cstdio>

#include "proto/codec.h"
#include "proto/types.h"
#include "server/accounts/secret.h"
#include "server/log/log.h"
#include "server/dispatch/chat_text.h"
#include "server/dispatch/dispatcher.h"
#include "server/dispatch/wire.h"

namespace xq::server {
namespace {

using PE = proto::ErrorCode;

constexpr std::size_t kMaxNameBytes = 32;

// Display names: trimmed, control characters dropped, cut to `max_bytes` (32) on a character boundary.
std::string clean_name(std::string_view raw, std::uint64_t session, std::size_t max_bytes = kMaxNameBytes) {
    std::string name;
    for (char ch : raw)
        if (static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7f) name += ch;
    while (!name.empty() && name.front() == ' ') name.erase(name.begin());
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (name.size() > max_bytes) {
        name.resize(max_bytes);
        while (!name.empty() && (static_cast<unsigned char>(name.back()) & 0xC0) == 0x80) name.pop_back();
        if (!name.empty() && static_cast<unsigned char>(name.back()) >= 0xC0) name.pop_back();
    }
    return name.empty() ? "guest-" + std::to_string(session) : name;
}

// "bot level ..." in any case of ASCII letters, as the server's computers are named.
bool looks_like_a_computer(std::string_view name) {
    constexpr std::string_view kPrefix = "bot level";
    if (name.size() < kPrefix.size()) return false;
    for (std::size_t i = 0; i < kPrefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(name[i])) != kPrefix[i]) return false;
    return true;
}

template <class T>
proto::GameId game_of(const T& m) {
    if constexpr (requires { m.game_id; }) return m.game_id;
    return 0;
}

}  // namespace

// One game waiting for an opponent per session, so one client cannot fill the lobby.
std::optional<RoomId> Dispatcher::waiting_room(const Client& c) const {
    const ParticipantId who = c.peer->id();
    for (const RoomId& id : c.rooms)
        if (const Room* room = lobby_.find(id); room && room->status() == Status::Waiting && room->seat_of(who))
            return id;
    return std::nullopt;
}

void Dispatcher::dispatch(Client& c, const proto::ClientMessage& message) {
    const std::uint64_t rid = message.request_id;
    const auto& body = message.body;
    // Not a request: never answered, so any request id will do (round_trips.cpp).
    if (const auto* pong = std::get_if<proto::Pong>(&body)) {
        if (router_ && !c.remote && !answers_ping(c, body))
            return router_->forward_pong(c.peer, identity(c), proto::encode(message));
        return on_pong(c, *pong);
    }
    // Its reply would carry 0 like a pushed event: a retried move's acknowledgement would read as
    // that event arriving twice.
    if (rid == 0)
        return send(c, wire::error(0, PE::BadRequest,
                                   "request_id 0 is for messages the server sends on its own; number requests from 1"));
    if (c.peer->watch_only() && !watcher_may(body))
        return send(c, wire::error(rid, PE::WatchOnly, "a browser only watches: play, chat and accounts are in the desktop client"));
    if (const auto* hello = std::get_if<proto::Hello>(&body)) return on_hello(c, rid, *hello);
    if (const auto* ping = std::get_if<proto::Ping>(&body)) return send(c, {rid, proto::Pong{ping->nonce}});
    if (!c.greeted) return send(c, wire::error(rid, PE::HelloRequired, "send Hello first"));
    if (const auto* r = std::get_if<proto::Register>(&body)) return on_register(c, rid, *r);
    if (const auto* l = std::get_if<proto::Login>(&body)) return on_login(c, rid, *l);
    if (std::holds_alternative<proto::Logout>(body)) return on_logout(c, rid);
    if (const auto* p = std::get_if<proto::ChangePassword>(&body)) return on_change_password(c, rid, *p);
    // --accounts required: nothing but logging in before a login (the server's own computers,
    // which proved themselves with its key, excepted).
    if (config_.accounts == proto::AccountsMode::Required && c.account.empty() && c.computer_level == 0)
        return send(c, wire::error(rid, PE::AccountRequired, "this server requires an account: register or log in"));
    if (refused_while_seeking(c, rid, body) || forwarded(c, message)) return;
    std::visit(
        [&](const auto& m) {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, proto::ListGames>) on_list(c, rid);
            else if constexpr (std::is_same_v<T, proto::CreateGame>) on_create(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::JoinGame>) on_join(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::QuickMatch>) on_quick_match(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::Leave>) on_leave(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::WatchGame>) on_watch(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::MakeMove>) on_move(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::Resume>) on_resume(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::ListArchive>) on_list_archive(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::GetArchived>) on_get_archived(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::Mute>) on_mute(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::GetProfile>) on_get_profile(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::GetLeaderboard>) on_get_leaderboard(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::Hello> || std::is_same_v<T, proto::Ping> || std::is_same_v<T, proto::Pong> ||
                               std::is_same_v<T, proto::Register> || std::is_same_v<T, proto::Login> ||
                               std::is_same_v<T, proto::Logout> || std::is_same_v<T, proto::ChangePassword>) {
            } else on_room_request(c, rid, body);
        },
        body);
}

void Dispatcher::on_hello(Client& c, std::uint64_t rid, const proto::Hello& m) {
    // A session's name is fixed by its first Hello: a second one would rename a player in the
    // middle of its games and chat (or turn a person into "the computer").
    if (c.greeted)
        return send(c, wire::error(rid, PE::AlreadyGreeted,
                                   "this session has already said Hello; its name stays '" + c.name + "'"));
    if (m.protocol_version != proto::kProtocolVersion) {
        send(c, wire::error(rid, PE::UnsupportedVersion,
                            "this server speaks protocol version " + std::to_string(proto::kProtocolVersion) +
                                ", the client " + std::to_string(m.protocol_version)));
        c.peer->close(CloseReason::ByServer, true);
        return;
    }
    if (m.computer_level > kMaxComputerLevel)
        return send(c, wire::error(rid, PE::BadRequest, "a computer's level must be 1 to 8 (0 for a person)"));
    // Players ask for "the computer": only the bots this server started may answer as one.
    if (m.computer_level != 0 &&
        (config_.computer_key.empty() || !equal_in_constant_time(m.computer_key, config_.computer_key)))
        return send(c, wire::error(rid, PE::BadToken, "only this server's own computer opponents may give a level"));
    c.hello_name = clean_name(m.player_name, c.peer->id());
    // The server's computers are named "bot level N" (bot/player.cpp) and clients show such a host
    // as the computer: a person may not take that name, so the name is marked as a person's.
    constexpr std::string_view kPerson = " (person)";
    if (m.computer_level == 0 && looks_like_a_computer(c.hello_name))
        c.hello_name = clean_name(m.player_name, c.peer->id(), kMaxNameBytes - kPerson.size()) + std::string(kPerson);
    c.computer_level = m.computer_level;
    c.name = c.account.empty() ? guest_name(c) : c.name;
    if (c.computer_level != 0) use_computer_account(c);
    c.greeted = true;
    char id[20];
    std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(c.peer->id()));
    send(c, {rid, proto::Welcome{config_.name, proto::kProtocolVersion, id, config_.accounts, c.name}});
}

void Dispatcher::on_create(Client& c, std::uint64_t rid, const proto::CreateGame& m) {
    const auto control = wire::time_control(m.time_control);
    if (!control) return send(c, wire::error(rid, PE::BadRequest, control.error()));
    if (hosts_waiting_game(c))
        return send(c, wire::error(rid, PE::AlreadySeated, "you already host a game waiting for an opponent"));
    const ColorChoice color = m.color == proto::ColorChoice::Red     ? ColorChoice::Red
                              : m.color == proto::ColorChoice::Black ? ColorChoice::Black
                                                                     : ColorChoice::Random;
    if (refuse_rated_guest(c, rid, m.rated)) return;
    if (m.spectator_delay > kMaxSpectatorDelay)
        return send(c, wire::error(rid, PE::BadRequest, "a spectator delay is 0 to " +
                                                            std::to_string(kMaxSpectatorDelay) + " moves"));
    if (m.computer_level != 0) return on_create_vs_computer(c, rid, m, *control, color);
    const std::string& group = c.peer->address_group();
    if (config_.max_waiting_per_group > 0 && c.computer_level == 0 &&
        waiting_games_of_group(group) >= config_.max_waiting_per_group)
        return send(c, wire::error(rid, PE::TooManyGames,
                                   "your address already hosts " + std::to_string(config_.max_waiting_per_group) +
                                       " games waiting for an opponent: wait for one to start, or cancel one"));
    auto created = lobby_.create(
        {c.name, c.peer->id(), *control, color, m.is_private, m.rated, static_cast<int>(m.spectator_delay)}, now());
    if (!created) return send(c, wire::error(rid, created.error()));
    if (m.is_private) private_rooms_.insert(created->id);
    enter(c, created->id, Role::Player);
    mark_accounts(created->id);
    send(c, {rid, proto::Seated{wire::game_id(created->id), wire::side(created->color),
                                created->join_code.value_or(""), created->token}});
    broadcast(created->id, created->events);
}

void Dispatcher::on_join(Client& c, std::uint64_t rid, const proto::JoinGame& m) {
    const auto id = wire::room_id(m.game_id);
    if (!id) return send(c, wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    // A browser never watches a private game, and hears word for word what the lobby says of a
    // game that does not exist (web_net_test compares the two).
    if (c.peer->watch_only() && private_rooms_.contains(*id))
        return send(c, wire::error(rid, PE::NoSuchGame, "no game " + *id, m.game_id));
    if (auto why = join_code_refusal(c, *id); !why.empty())
        return send(c, wire::error(rid, PE::RateLimited, std::move(why), m.game_id));
    auto seated = lobby_.join(*id, c.name, c.peer->id(), m.join_code, now());
    if (!seated) {
        note_join_code(c, *id, wire::error_code(seated.error().code));
        return send(c, wire::error(rid, seated.error(), m.game_id));
    }
    enter(c, *id, Role::Player);
    mark_accounts(*id);
    send(c, {rid, proto::Seated{m.game_id, wire::side(seated->joined.color), "", seated->joined.token}});
    broadcast(*id, seated->joined.events);
}

void Dispatcher::on_quick_match(Client& c, std::uint64_t rid, const proto::QuickMatch& m) {
    const auto control = wire::time_control(m.time_control);
    if (!control) return send(c, wire::error(rid, PE::BadRequest, control.error()));
    if (hosts_waiting_game(c))
        return send(c, wire::error(rid, PE::AlreadySeated, "you already host a game waiting for an opponent"));
    if (refuse_rated_guest(c, rid, m.rated)) return;
    const double rating = m.rated ? ratings_.glicko(c.account, timekeeping::speed_of(*control)).rating : 0.0;
    if (router_ && !c.remote) {  // a cluster's seek waits for its matcher (router.h)
        if (router_->seeking(c.peer->id()))
            return send(c, wire::error(rid, PE::AlreadySeated, "you are already waiting for a match"));
        return router_->seek(c.peer, rid, {identity(c), m.time_control, m.rated, rating});
    }
    auto match = lobby_.seek({c.name, c.peer->id(), *control, m.rated, rating}, now());
    if (!match) return send(c, wire::error(rid, match.error()));
    if (!*match) {
        send(c, {rid, proto::Seeking{m.time_control, m.rated}});
        return arm_flag_timer(nullptr);  // two rated seeks out of range: their ranges widen on the timer
    }
    seat_match(**match, c.peer->id(), rid);
}

void Dispatcher::seat_match(const Match& found, ParticipantId asker, std::uint64_t rid) {
    const proto::GameId game = wire::game_id(found.id);
    for (const auto& [who, color, token] : {std::tuple{found.red, Color::Red, found.red_token},
                                            std::tuple{found.black, Color::Black, found.black_token}}) {
        const auto client = clients_.find(who);
        if (client == clients_.end()) continue;
        enter(client->second, found.id, Role::Player);
        send(client->second, {who == asker ? rid : 0, proto::Seated{game, wire::side(color), "", token}});
    }
    mark_accounts(found.id);
    broadcast(found.id, found.events);
}

void Dispatcher::on_leave(Client& c, std::uint64_t rid, const proto::Leave& m) {
    const ParticipantId who = c.peer->id();
    if (m.game_id == 0) {
        if (router_ && !c.remote) return router_->cancel_seek(c.peer, rid);
        if (auto left = lobby_.cancel_quick_match(who); !left) return send(c, wire::error(rid, left.error()));
        return send(c, {rid, proto::Left{0}});
    }
    const auto id = wire::room_id(m.game_id);
    Room* room = id ? lobby_.find(*id) : nullptr;
    if (!room) return send(c, wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    if (room->is_spectator(who)) {
        auto events = room->remove_spectator(who);
        members_[*id].erase(who);
        c.rooms.erase(*id);
        send(c, {rid, proto::Left{m.game_id}});
        if (events) broadcast(*id, *events);
        return;
    }
    const std::uint64_t version = room->version();
    const auto host = room->seat_of(who);
    if (auto cancelled = lobby_.cancel_game(*id, who); !cancelled)
        return send(c, wire::error(rid, cancelled.error(), m.game_id));
    members_[*id].erase(who);
    tell_cancelled(*id, version, host, "The host cancelled the game.");
    forget_room(*id);
    c.rooms.erase(*id);
    send(c, {rid, proto::Left{m.game_id}});
}

void Dispatcher::on_watch(Client& c, std::uint64_t rid, const proto::WatchGame& m) {
    const auto id = wire::room_id(m.game_id);
    if (!id) return send(c, wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    // A browser never watches a private game, and hears word for word what the lobby says of a
    // game that does not exist (web_net_test compares the two).
    if (c.peer->watch_only() && private_rooms_.contains(*id))
        return send(c, wire::error(rid, PE::NoSuchGame, "no game " + *id, m.game_id));
    if (auto why = join_code_refusal(c, *id); !why.empty())
        return send(c, wire::error(rid, PE::RateLimited, std::move(why), m.game_id));
    auto events = lobby_.watch(*id, c.peer->id(), m.join_code);
    if (!events) {
        note_join_code(c, *id, wire::error_code(events.error().code));
        return send(c, wire::error(rid, events.error(), m.game_id));
    }
    const Room* room = lobby_.find(*id);
    const auto seat = room->seat_of(c.peer->id());
    spectators_sent_.try_emplace(*id, room->spectator_version());
    enter(c, *id, seat ? Role::Player : Role::Spectator);
    auto snapshot = wire::snapshot(*room, now(), private_rooms_.contains(*id), seat);
    drop_muted(c, *id, snapshot.chat, seat ? std::optional(wire::side(*seat)) : std::nullopt);
    send(c, {rid, std::move(snapshot)}, &*id);
    broadcast(*id, *events);
}

void Dispatcher::on_move(Client& c, std::uint64_t rid, const proto::MakeMove& m) {
    const auto id = wire::room_id(m.game_id);
    Room* room = id ? lobby_.find(*id) : nullptr;
    if (!room) return send(c, wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    auto done = room->move(c.peer->id(), m.move_id, static_cast<int>(m.ply), m.move, now(), c.round_trip.estimate());
    if (!done) return send(c, wire::error(rid, done.error(), m.game_id));
    // A retried move id: the original acknowledgement again, nothing played.
    if (done->duplicate) return send(c, {rid, *wire::event(*room, done->ack, true)}, &*id);
    broadcast(*id, done->events, c.peer->id(), rid);
}

void Dispatcher::on_room_request(Client& c, std::uint64_t rid, const proto::ClientBody& body) {
    const proto::GameId game = std::visit([](const auto& m) { return game_of(m); }, body);
    const auto id = wire::room_id(game);
    Room* room = id ? lobby_.find(*id) : nullptr;
    if (!room) return send(c, wire::error(rid, PE::NoSuchGame, "no such game", game));
    const ParticipantId who = c.peer->id();
    const TimePoint at = now();
    if (const auto* o = std::get_if<proto::MakeOffer>(&body); o && o->kind == proto::OfferKind::Rematch)
        return on_rematch(c, rid, *id, true, true);
    if (const auto* a = std::get_if<proto::AnswerOffer>(&body); a && a->kind == proto::OfferKind::Rematch)
        return on_rematch(c, rid, *id, false, a->accept);
    if (const auto* chat = std::get_if<proto::SendChat>(&body)) {
        // Refused, not cleaned: a line broken in two, or read right to left from its middle, could
        // pass for something someone else said.
        if (const auto bad = control_character(chat->text); !bad.empty())
            return send(c, wire::error(rid, PE::BadText, "chat text may not hold " + bad, game));
        if (config_.rate.per_second > 0 &&
            !groups_[c.peer->address_group()].chat.take(config_.rate.chat_per_second, config_.rate.chat_burst, at))
            return send(c, wire::error(rid, PE::RateLimited, "too much chat from your address: wait a moment", game));
    }
    Reply reply = std::visit(
        [&](const auto& m) -> Reply {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, proto::Resign>) return room->resign(who, at);
            else if constexpr (std::is_same_v<T, proto::Abort>) return room->abort(who, at);
            else if constexpr (std::is_same_v<T, proto::MakeOffer>)
                return m.kind == proto::OfferKind::Draw ? room->offer_draw(who, at) : room->request_takeback(who);
            else if constexpr (std::is_same_v<T, proto::AnswerOffer>) {
                if (m.kind == proto::OfferKind::Draw)
                    return m.accept ? room->accept_draw(who, at) : room->decline_draw(who);
                return m.accept ? room->accept_takeback(who, at) : room->decline_takeback(who);
            } else if constexpr (std::is_same_v<T, proto::SendChat>) {
                if (m.text.size() > proto::kMaxChatBytes)
                    return std::unexpected(server::Error{server::ErrorCode::ChatTooLong, "a chat line holds at most " +
                                                                             std::to_string(proto::kMaxChatBytes) +
                                                                             " bytes"});
                const auto channel = m.channel == proto::ChatChannel::Players ? server::ChatChannel::Players
                                                                               : server::ChatChannel::Spectators;
                return room->chat(who, channel, m.text, c.name);
            } else if constexpr (std::is_same_v<T, proto::Claim>) {
                return room->claim(who, m.kind == proto::ClaimKind::Win, at);
            } else {
                return std::unexpected(server::Error{server::ErrorCode::NotAPlayer, "not a room request"});
            }
        },
        body);
    if (!reply) return send(c, wire::error(rid, reply.error(), game));
    // Offering again what is already offered changes nothing, which the asker is told.
    if (reply->empty())
        return send(c, wire::error(rid, PE::OfferAlreadyPending, "that offer is already pending", game));
    broadcast(*id, *reply, who, rid);
}

void Dispatcher::on_resume(Client& c, std::uint64_t rid, const proto::Resume& m) {
    const auto id = wire::room_id(m.game_id);
    if (!id) return send(c, wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    const Room* before = lobby_.find(*id);
    // The seat's previous connection, if still open, no longer speaks for it.
    std::optional<ParticipantId> previous;
    if (before)
        for (Color color : {Color::Red, Color::Black})
            if (before->seat(color).taken && matches_hash(m.token, before->seat(color).token))
                previous = before->seat(color).participant;
    auto joined = lobby_.resume(*id, m.token, c.peer->id());
    if (!joined) return send(c, wire::error(rid, joined.error(), m.game_id));
    if (previous && *previous != c.peer->id()) {
        members_[*id].erase(*previous);
        if (auto old = clients_.find(*previous); old != clients_.end()) old->second.rooms.erase(*id);
    }
    enter(c, *id, Role::Player);
    const Room* room = lobby_.find(*id);
    // The token just used is dead: its replacement is committed before the reply goes out.
    outbox_.note_seat_token(*room, joined->color);
    const auto missed = room->events_since(m.last_version, Role::Player);
    // Too many missed events for one frame (a long chat while away): a snapshot instead.
    const auto too_large = [](const proto::ServerMessage& reply) {
        return proto::encode(reply).size() > proto::kMaxFrameBytes;
    };
    if (!missed) {
        send(c, {rid, wire::snapshot(*room, now(), private_rooms_.contains(*id), joined->color)}, &*id);
    } else {
        proto::Resumed resumed;
        resumed.game_id = m.game_id;
        resumed.your_side = wire::side(joined->color);
        for (const Event& e : *missed)
            if (auto re = wire::room_event(*room, e, false)) resumed.events.push_back(std::move(*re));
        const auto snap = wire::snapshot(*room, now(), false, joined->color);
        resumed.clock = snap.clock;
        resumed.red = snap.red;
        resumed.black = snap.black;
        resumed.spectators = snap.spectators;
        proto::ServerMessage reply{rid, std::move(resumed)};
        if (too_large(reply)) reply = {rid, wire::snapshot(*room, now(), private_rooms_.contains(*id), joined->color)};
        send(c, reply, &*id);
    }
    send(c, {0, proto::ResumeToken{m.game_id, joined->token}}, &*id);
    broadcast(*id, joined->events);
}

std::string Dispatcher::join_code_refusal(const Client& c, const RoomId& id) const {
    const Room* room = lobby_.find(id);
    // Only a private game's code is checked, and never against its own players.
    if (!room || !lobby_.join_code(id) || room->seat_of(c.peer->id())) return "";
    return join_guard_.refusal(c.peer->address_group(), id, now());
}

void Dispatcher::note_join_code(const Client& c, const RoomId& id, proto::ErrorCode error) {
    if (error == PE::WrongJoinCode) join_guard_.wrong(c.peer->address_group(), id, now());
}

std::size_t Dispatcher::waiting_games_of_group(const std::string& group) const {
    const auto it = groups_.find(group);
    if (it == groups_.end()) return 0;
    std::size_t waiting = 0;
    for (const ParticipantId who : it->second.members)
        if (const auto client = clients_.find(who); client != clients_.end() && client->second.computer_level == 0)
            waiting += hosts_waiting_game(client->second) ? 1 : 0;
    return waiting;
}

bool Dispatcher::muted_for(const Client& c, const RoomId& id, const proto::ChatLine& line,
                           std::optional<proto::Side> own) const {
    const auto it = c.muted.find(id);
    if (it == c.muted.end()) return false;
    if (line.channel == proto::ChatChannel::Players) return (it->second & 1u) && !(own && line.side == own);
    return (it->second & 2u) != 0;
}

void Dispatcher::drop_muted(const Client& c, const RoomId& id, std::vector<proto::ChatLine>& lines,
                            std::optional<proto::Side> own) const {
    std::erase_if(lines, [&](const proto::ChatLine& line) { return muted_for(c, id, line, own); });
}

// The reply is the game as the muter now sees it: a Snapshot whose chat leaves the muted lines out.
void Dispatcher::on_mute(Client& c, std::uint64_t rid, const proto::Mute& m) {
    const auto id = wire::room_id(m.game_id);
    const Room* room = id ? lobby_.find(*id) : nullptr;
    if (!room) return send(c, wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    if (!c.rooms.contains(*id))
        return send(c, wire::error(rid, PE::NotAPlayer, "you neither play nor watch that game", m.game_id));
    const unsigned bit = m.channel == proto::ChatChannel::Players ? 1u : 2u;
    unsigned& mask = c.muted[*id];
    mask = m.muted ? (mask | bit) : (mask & ~bit);
    if (mask == 0) c.muted.erase(*id);
    const auto seat = room->seat_of(c.peer->id());
    auto snapshot = wire::snapshot(*room, now(), private_rooms_.contains(*id), seat);
    drop_muted(c, *id, snapshot.chat, seat ? std::optional(wire::side(*seat)) : std::nullopt);
    send(c, {rid, std::move(snapshot)}, &*id);
}

}  // namespace xq::server
