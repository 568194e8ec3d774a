#include "fuzz/dispatch_driver.h"

#include <string_view>
#include <tuple>
#include <variant>

#include "common/iccs.h"
#include "common/movegen.h"
#include "common/pgn.h"
#include "fuzz/fuzz_check.h"
#include "proto/codec.h"
#include "server/wire.h"

namespace xq::fuzz {
namespace {

using PE = proto::ErrorCode;

// Copied from server/dispatch.cpp (file-local there): display names are trimmed, stripped of
// control characters and cut to 32 bytes on a character boundary.
std::string clean_name(std::string_view raw, std::uint64_t session) {
    std::string name;
    for (char ch : raw)
        if (static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7f) name += ch;
    while (!name.empty() && name.front() == ' ') name.erase(name.begin());
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (name.size() > 32) {
        name.resize(32);
        while (!name.empty() && (static_cast<unsigned char>(name.back()) & 0xC0) == 0x80) name.pop_back();
        if (!name.empty() && static_cast<unsigned char>(name.back()) >= 0xC0) name.pop_back();
    }
    return name.empty() ? "guest-" + std::to_string(session) : name;
}

template <class T>
proto::GameId game_of(const T& m) {
    if constexpr (requires { m.game_id; }) return m.game_id;
    return 0;
}

// The moves, ICCS separated by spaces, are legal one after another from the start.
void check_legal(const Position& start, const std::vector<Move>& moves) {
    Position pos = start;
    for (Move m : moves) {
        XQ_FUZZ_CHECK(is_legal(pos, m), "a room's game holds only legal moves");
        pos.play(m);
    }
}

}  // namespace

DispatchDriver::DispatchDriver()
    : lobby_(
          [this] {
              // splitmix64: deterministic, so a crash reproduces from its input alone.
              std::uint64_t z = (random_state_ += 0x9e3779b97f4a7c15ULL);
              z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
              z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
              return z ^ (z >> 31);
          },
          [] { return server::WallTime{}; }, [this](const server::FinishedGame& g) { on_archive(g); }) {
    for (Client& c : clients_) c.id = next_session_++;
}

std::optional<server::RoomId> DispatchDriver::room_of(proto::GameId id) const {
    if (id >= 1 && id <= 16) {
        if (id <= created_.size()) return created_[id - 1];
        return std::nullopt;
    }
    return server::wire::room_id(id);
}

DispatchDriver::Client* DispatchDriver::client_by_id(server::ParticipantId id) {
    for (Client& c : clients_)
        if (c.id == id) return &c;
    return nullptr;
}

void DispatchDriver::send(const proto::ServerMessage& message) {
    const std::string bytes = proto::encode(message);
    XQ_FUZZ_CHECK(bytes.size() <= proto::kMaxFrameBytes, "every server message fits in a frame");
    const auto back = proto::decode_server(bytes);
    XQ_FUZZ_CHECK(back.has_value(), "every server message decodes");
    XQ_FUZZ_CHECK(*back == message, "every server message decodes to itself");
}

void DispatchDriver::error(std::uint64_t rid, const server::Error& e, proto::GameId game) {
    XQ_FUZZ_CHECK(!e.detail.empty(), "a refusal says why");
    send(server::wire::error(rid, e, game));
}

void DispatchDriver::check_events(const server::RoomId& id, const server::Events& events) {
    std::uint64_t& seen = versions_[id];
    for (const server::Event& e : events) {
        // Notices (spectator counts, presence, spectators' chat) carry no version and skip the log.
        if (e.version == 0) {
            XQ_FUZZ_CHECK(!server::versioned(e.body), "only unversioned notices carry version 0");
            continue;
        }
        XQ_FUZZ_CHECK(e.version == seen + 1, "a room's versions go up by one per event");
        seen = e.version;
    }
}

void DispatchDriver::broadcast(const server::RoomId& id, const server::Events& events, std::uint64_t rid) {
    check_events(id, events);
    const server::Room* room = lobby_.find(id);
    if (!room) return;
    for (const server::Event& e : events)
        if (auto body = server::wire::event(*room, e, true)) send({rid, std::move(*body)});
}

void DispatchDriver::request(int slot, const proto::ClientMessage& message) {
    Client& c = clients_[static_cast<std::size_t>(slot)];
    dispatch(c, message.request_id, message.body);
    check_rooms();
}

void DispatchDriver::dispatch(Client& c, std::uint64_t rid, const proto::ClientBody& body) {
    if (const auto* hello = std::get_if<proto::Hello>(&body)) {
        if (hello->protocol_version != proto::kProtocolVersion) return;  // refused, connection closed
        c.name = clean_name(hello->player_name, c.id);
        c.greeted = true;
        return send({rid, proto::Welcome{"fuzz", proto::kProtocolVersion, std::to_string(c.id)}});
    }
    if (const auto* ping = std::get_if<proto::Ping>(&body)) return send({rid, proto::Pong{ping->nonce}});
    if (!c.greeted) return;
    std::visit(
        [&](const auto& m) {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, proto::ListGames>) {
                proto::GameList list;
                for (const auto& g : lobby_.open_games(c.id)) list.open.push_back(server::wire::summary(g));
                for (const auto& g : lobby_.live_games(c.id)) list.live.push_back(server::wire::summary(g));
                send({rid, std::move(list)});
            } else if constexpr (std::is_same_v<T, proto::CreateGame>) on_create(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::JoinGame>) on_join(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::QuickMatch>) on_quick_match(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::Leave>) on_leave(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::WatchGame>) on_watch(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::MakeMove>) on_move(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::Resume>) on_resume(c, rid, m);
            else if constexpr (std::is_same_v<T, proto::Resign> || std::is_same_v<T, proto::Abort> ||
                               std::is_same_v<T, proto::MakeOffer> || std::is_same_v<T, proto::AnswerOffer> ||
                               std::is_same_v<T, proto::SendChat>)
                on_room_request(c, rid, body, game_of(m));
            // Claim, ListArchive and GetArchived need the store or the grace timers: not driven here.
        },
        body);
}

void DispatchDriver::on_create(Client& c, std::uint64_t rid, const proto::CreateGame& m) {
    const auto control = server::wire::time_control(m.time_control);
    if (!control) return send(server::wire::error(rid, PE::BadRequest, control.error()));
    const server::ColorChoice color = m.color == proto::ColorChoice::Red     ? server::ColorChoice::Red
                                      : m.color == proto::ColorChoice::Black ? server::ColorChoice::Black
                                                                             : server::ColorChoice::Random;
    auto created = lobby_.create({c.name, c.id, *control, color, m.is_private}, now_);
    if (!created) return error(rid, created.error());
    created_.push_back(created->id);
    XQ_FUZZ_CHECK(created->join_code.has_value() == m.is_private, "private games, and only they, get a code");
    if (created->join_code) join_codes_[created->id] = *created->join_code;
    c.rooms.insert(created->id);
    send({rid, proto::Seated{server::wire::game_id(created->id), server::wire::side(created->color),
                             created->join_code.value_or(""), created->token}});
    broadcast(created->id, created->events);
}

void DispatchDriver::on_join(Client& c, std::uint64_t rid, const proto::JoinGame& m) {
    const auto id = room_of(m.game_id);
    if (!id) return send(server::wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    // "*" stands for the room's real join code, which the fuzzer cannot know.
    const std::string code = m.join_code == "*" && join_codes_.contains(*id) ? join_codes_[*id] : m.join_code;
    auto seated = lobby_.join(*id, c.name, c.id, code, now_);
    if (!seated) return error(rid, seated.error(), m.game_id);
    c.rooms.insert(*id);
    send({rid, proto::Seated{m.game_id, server::wire::side(seated->joined.color), "", seated->joined.token}});
    broadcast(*id, seated->joined.events);
}

void DispatchDriver::on_quick_match(Client& c, std::uint64_t rid, const proto::QuickMatch& m) {
    const auto control = server::wire::time_control(m.time_control);
    if (!control) return send(server::wire::error(rid, PE::BadRequest, control.error()));
    auto match = lobby_.quick_match(c.name, c.id, *control, now_);
    if (!match) return error(rid, match.error());
    if (!*match) return send({rid, proto::Seeking{m.time_control}});
    const server::Match& found = **match;
    created_.push_back(found.id);
    XQ_FUZZ_CHECK(found.red != found.black, "a quick match pairs two participants");
    for (const auto& [who, color, token] : {std::tuple{found.red, Color::Red, found.red_token},
                                            std::tuple{found.black, Color::Black, found.black_token}}) {
        if (Client* seated = client_by_id(who)) seated->rooms.insert(found.id);
        send({who == c.id ? rid : 0,
              proto::Seated{server::wire::game_id(found.id), server::wire::side(color), "", token}});
    }
    broadcast(found.id, found.events);
}

void DispatchDriver::on_leave(Client& c, std::uint64_t rid, const proto::Leave& m) {
    if (m.game_id == 0) {
        if (auto left = lobby_.cancel_quick_match(c.id); !left) return error(rid, left.error());
        return send({rid, proto::Left{0}});
    }
    const auto id = room_of(m.game_id);
    server::Room* room = id ? lobby_.find(*id) : nullptr;
    if (!room) return send(server::wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    if (room->is_spectator(c.id)) {
        auto events = room->remove_spectator(c.id);
        c.rooms.erase(*id);
        send({rid, proto::Left{m.game_id}});
        if (events) broadcast(*id, *events);
        return;
    }
    if (auto cancelled = lobby_.cancel_game(*id, c.id); !cancelled) return error(rid, cancelled.error(), m.game_id);
    XQ_FUZZ_CHECK(lobby_.find(*id) == nullptr, "a cancelled game is gone");
    c.rooms.erase(*id);
    send({rid, proto::Left{m.game_id}});
}

void DispatchDriver::on_watch(Client& c, std::uint64_t rid, const proto::WatchGame& m) {
    const auto id = room_of(m.game_id);
    if (!id) return send(server::wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    const std::string code = m.join_code == "*" && join_codes_.contains(*id) ? join_codes_[*id] : m.join_code;
    auto events = lobby_.watch(*id, c.id, code);
    if (!events) return error(rid, events.error(), m.game_id);
    const server::Room* room = lobby_.find(*id);
    XQ_FUZZ_CHECK(room != nullptr, "a watched room exists");
    c.rooms.insert(*id);
    send({rid, server::wire::snapshot(*room, now_, join_codes_.contains(*id), room->seat_of(c.id))});
    broadcast(*id, *events);
}

void DispatchDriver::on_move(Client& c, std::uint64_t rid, const proto::MakeMove& m) {
    const auto id = room_of(m.game_id);
    server::Room* room = id ? lobby_.find(*id) : nullptr;
    if (!room) return send(server::wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    const int plies = room->game().ply_count();
    auto done = room->move(c.id, m.move_id, static_cast<int>(m.ply), m.move, now_);
    if (!done) {
        XQ_FUZZ_CHECK(room->game().ply_count() == plies, "a refused move changes nothing");
        return error(rid, done.error(), m.game_id);
    }
    if (done->duplicate) {
        XQ_FUZZ_CHECK(room->game().ply_count() == plies, "a retried move id plays nothing");
        if (auto body = server::wire::event(*room, done->ack, true)) send({rid, std::move(*body)});
        return;
    }
    XQ_FUZZ_CHECK(room->game().ply_count() == plies + 1, "an accepted move is played once");
    // ICCS is read case-insensitively ("H2E2", "h2-e2"), so compare moves, not text.
    XQ_FUZZ_CHECK(room->game().moves().back() == parse_iccs(m.move), "the move played is the move sent");
    broadcast(*id, done->events, rid);
}

void DispatchDriver::on_room_request(Client& c, std::uint64_t rid, const proto::ClientBody& body, proto::GameId game) {
    const auto id = room_of(game);
    server::Room* room = id ? lobby_.find(*id) : nullptr;
    if (!room) return send(server::wire::error(rid, PE::NoSuchGame, "no such game", game));
    const server::ParticipantId who = c.id;
    const server::TimePoint at = now_;
    server::Reply reply = std::visit(
        [&](const auto& m) -> server::Reply {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, proto::Resign>) return room->resign(who, at);
            else if constexpr (std::is_same_v<T, proto::Abort>) return room->abort(who, at);
            else if constexpr (std::is_same_v<T, proto::MakeOffer>)
                return m.kind == proto::OfferKind::Draw ? room->offer_draw(who, at) : room->request_takeback(who);
            else if constexpr (std::is_same_v<T, proto::AnswerOffer>) {
                if (m.kind == proto::OfferKind::Draw) return m.accept ? room->accept_draw(who, at) : room->decline_draw(who);
                return m.accept ? room->accept_takeback(who, at) : room->decline_takeback(who);
            } else if constexpr (std::is_same_v<T, proto::SendChat>) {
                if (m.text.size() > proto::kMaxChatBytes)
                    return std::unexpected(server::Error{server::ErrorCode::ChatTooLong, "too long"});
                return room->chat(who, m.text);
            } else {
                return std::unexpected(server::Error{server::ErrorCode::NotAPlayer, "not a room request"});
            }
        },
        body);
    if (!reply) return error(rid, reply.error(), game);
    if (reply->empty()) return send(server::wire::error(rid, PE::OfferAlreadyPending, "already pending", game));
    broadcast(*id, *reply, rid);
}

void DispatchDriver::on_resume(Client& c, std::uint64_t rid, const proto::Resume& m) {
    const auto id = room_of(m.game_id);
    if (!id) return send(server::wire::error(rid, PE::NoSuchGame, "no such game", m.game_id));
    std::string token = m.token;
    // "r" and "b" stand for the Red and Black seats' real tokens, which the fuzzer cannot know.
    if (const server::Room* room = lobby_.find(*id); room && (token == "r" || token == "b"))
        token = room->seat(token == "r" ? Color::Red : Color::Black).token;
    auto joined = lobby_.resume(*id, token, c.id);
    if (!joined) return error(rid, joined.error(), m.game_id);
    c.rooms.insert(*id);
    const server::Room* room = lobby_.find(*id);
    XQ_FUZZ_CHECK(room->seat(joined->color).participant == c.id, "a resumed seat belongs to its new session");
    if (const auto missed = room->events_since(m.last_version, server::Role::Player); !missed) {
        send({rid, server::wire::snapshot(*room, now_, join_codes_.contains(*id), joined->color)});
    } else {
        proto::Resumed resumed;
        resumed.game_id = m.game_id;
        resumed.your_side = server::wire::side(joined->color);
        for (const server::Event& e : *missed) {
            XQ_FUZZ_CHECK(e.version > m.last_version && e.version <= room->version(), "resume sends what was missed");
            if (auto re = server::wire::room_event(*room, e, false)) resumed.events.push_back(std::move(*re));
        }
        send({rid, std::move(resumed)});
    }
    broadcast(*id, joined->events);
}

void DispatchDriver::reconnect(int slot) {
    Client& c = clients_[static_cast<std::size_t>(slot)];
    for (const server::RoomId& id : c.rooms) {
        server::Room* room = lobby_.find(id);
        if (!room) continue;
        if (room->is_spectator(c.id)) {
            if (auto events = room->remove_spectator(c.id)) broadcast(id, *events);
        } else if (room->seat_of(c.id)) {
            if (auto events = room->set_connected(c.id, false)) broadcast(id, *events);
        }
    }
    if (lobby_.is_waiting(c.id)) (void)lobby_.cancel_quick_match(c.id);
    c = Client{next_session_++, false, "", {}};
    check_rooms();
}

void DispatchDriver::advance(server::Millis by) {
    now_ += by;
    for (const server::RoomId& id : lobby_.due(now_))
        if (server::Room* room = lobby_.find(id)) {
            auto events = room->check_flag(now_);
            XQ_FUZZ_CHECK(events.has_value(), "check_flag never refuses");
            broadcast(id, *events);
        }
    if (const auto next = lobby_.next_deadline()) XQ_FUZZ_CHECK(*next > now_, "no flag is left unchecked");
    check_rooms();
}

void DispatchDriver::sweep() {
    lobby_.remove_ended_before(now_ - std::chrono::minutes(1));
    check_rooms();
}

void DispatchDriver::on_archive(const server::FinishedGame& game) {
    ++archived_;
    XQ_FUZZ_CHECK(game.result != Result::Ongoing, "only finished games are archived");
    const auto records = read_pgn(game.pgn);
    XQ_FUZZ_CHECK(records.size() == 1 && records[0].ok(), "an archived game's PGN reads back");
    XQ_FUZZ_CHECK(records[0].game.moves.size() == game.moves.size(), "the PGN holds every move");
    for (std::size_t i = 0; i < game.moves.size(); ++i)
        XQ_FUZZ_CHECK(to_iccs(records[0].game.moves[i]) == game.moves[i], "the PGN holds the game's moves");
    auto out = server::wire::archived_game(server::wire::archived(game));
    if (out.pgn.size() + out.moves.size() * 6 > proto::kMaxFrameBytes - 4096) out.pgn.clear();
    send({1, std::move(out)});
}

void DispatchDriver::check_rooms() {
    for (const server::RoomId& id : created_) {
        const server::Room* room = lobby_.find(id);
        if (!room) continue;
        XQ_FUZZ_CHECK(room->version() == versions_[id], "every event of a room was broadcast");
        const Game& game = room->game();
        check_legal(game.start(), game.moves());
        const bool both = room->seat(Color::Red).taken && room->seat(Color::Black).taken;
        switch (room->status()) {
            case server::Status::Waiting:
                XQ_FUZZ_CHECK(!both && game.moves().empty(), "a waiting room has a free seat and no moves");
                break;
            case server::Status::Playing:
                XQ_FUZZ_CHECK(both && !game.is_over(), "a game in play has two players and no result");
                break;
            case server::Status::Finished:
                XQ_FUZZ_CHECK(game.is_over(), "a finished game has a result");
                break;
            case server::Status::Aborted:
                XQ_FUZZ_CHECK(!game.is_over(), "an aborted game has no result");
                break;
        }
        if (const auto log = room->events_since(0, server::Role::Spectator); log && !log->empty())
            XQ_FUZZ_CHECK(log->back().version <= room->version(), "the log holds no future event");
        send({0, server::wire::snapshot(*room, now_, join_codes_.contains(id), std::nullopt)});
    }
}

}  // namespace xq::fuzz
