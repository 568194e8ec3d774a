#include "fuzz/dispatch_driver.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <variant>

#include "common/iccs.h"
#include "common/movegen.h"
#include "common/pgn.h"
#include "fuzz/fuzz_check.h"
#include "server/store/sqlite/sqlite_store.h"
#include "proto/codec.h"
#include "server/log/log.h"
#include "server/dispatch/wire.h"

namespace xq::fuzz {
namespace {

// XQ_FUZZ_TRACE=1 prints every message a participant receives (to read a finding).
const bool kTrace = std::getenv("XQ_FUZZ_TRACE") != nullptr;

// The process's one in-memory store: opening one, the schema parsed and every statement prepared
// again, was most of an input's time. Each driver leaves it empty, as opened.
server::Store& shared_store() {
    static server::SqliteStore store = [] {
        auto opened = server::SqliteStore::open(":memory:");
        XQ_FUZZ_CHECK(opened.has_value(), "an in-memory store opens");
        return std::move(*opened);
    }();
    return store;
}

// The moves are legal one after another from the start.
void check_legal(const Position& start, const std::vector<Move>& moves) {
    Position pos = start;
    for (Move m : moves) {
        XQ_FUZZ_CHECK(is_legal(pos, m), "a room's game holds only legal moves");
        pos.play(m);
    }
}

// The game and version of a versioned room event (RoomEvent alternatives), if `body` is one.
template <class T>
std::optional<std::pair<proto::GameId, std::uint64_t>> versioned(const T& body) {
    if constexpr (requires { body.version; body.game_id; }) {
        if constexpr (!std::is_same_v<T, proto::Snapshot>) return std::pair{body.game_id, body.version};
    }
    return std::nullopt;
}

}  // namespace

void DispatchDriver::FakePeer::deliver(std::string_view payload) {
    // As a session: nothing more goes out once a close was asked for.
    if (open_ && !closing_) inbox.emplace_back(payload);
}

DispatchDriver::DispatchDriver()
    : store_(shared_store()),
      dispatcher_([] {
          server::DispatchConfig config;
          config.name = "fuzz";
          // Argon2id at its least: an input must run in milliseconds, not 64 MiB a hash.
          config.password_cost = server::minimal_cost();
          return config;
      }(), store_, *this, [this] {
          // splitmix64: deterministic, so a finding reproduces from its input alone.
          std::uint64_t z = (random_state_ += 0x9e3779b97f4a7c15ULL);
          z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
          z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
          return z ^ (z >> 31);
      }) {
    server::set_log_level(server::LogLevel::Off);
    for (int slot = 0; slot < kParticipants; ++slot) new_peer(slot);
}

DispatchDriver::~DispatchDriver() {
    // Emptied now, not as the next input starts, so that an input frees what it allocated:
    // libFuzzer runs again, to look for a leak, any input that does not.
    XQ_FUZZ_CHECK(store_.clear().has_value(), "the store empties");
}

void DispatchDriver::new_peer(int slot) {
    peers_[static_cast<std::size_t>(slot)] = std::make_shared<FakePeer>(next_peer_++);
    views_[static_cast<std::size_t>(slot)] = {};
}

proto::GameId DispatchDriver::game_of(proto::GameId id) const {
    if (id >= 1 && id <= 16 && id <= games_.size()) return games_[id - 1];
    return id;
}

const server::Room* DispatchDriver::room(proto::GameId id) const {
    const auto rid = server::wire::room_id(id);
    return rid ? dispatcher_.lobby().find(*rid) : nullptr;
}

proto::ClientMessage DispatchDriver::with_secrets(proto::ClientMessage m) const {
    std::visit(
        [&](auto& body) {
            using T = std::decay_t<decltype(body)>;
            if constexpr (requires { body.game_id; }) body.game_id = game_of(body.game_id);
            if constexpr (requires { body.join_code; }) {
                if (body.join_code == "*")
                    if (const auto code = join_codes_.find(body.game_id); code != join_codes_.end())
                        body.join_code = code->second;
            }
            if constexpr (std::is_same_v<T, proto::Resume>) {
                if (body.token == "r" || body.token == "b") {
                    const auto side = body.token == "r" ? proto::Side::Red : proto::Side::Black;
                    if (const auto token = tokens_.find({body.game_id, side}); token != tokens_.end())
                        body.token = token->second;
                }
            }
        },
        m.body);
    return m;
}

void DispatchDriver::request(int slot, std::string_view payload) {
    FakePeer& peer = *peers_[static_cast<std::size_t>(slot)];
    asked_ = {};
    asked_.slot = slot;
    std::string rewritten;
    if (auto message = proto::decode_client(payload)) {
        const proto::ClientMessage real = with_secrets(*message);
        if (!(real == *message)) {
            rewritten = proto::encode(real);
            payload = rewritten;
        }
        // A Pong is not a request: never answered, whatever id it carries (round_trips.cpp).
        asked_.request_id = std::holds_alternative<proto::Pong>(real.body) ? 0 : real.request_id;
        if (const auto* move = std::get_if<proto::MakeMove>(&real.body))
            if (const server::Room* r = room(move->game_id)) asked_.plies_before = r->game().ply_count();
        if (const auto* join = std::get_if<proto::JoinGame>(&real.body))
            if (const server::Room* r = room(join->game_id)) asked_.joined_at = {join->game_id, r->version()};
        asked_.message = real;
    } else {
        // An envelope that was readable is answered with its request id; garbage with 0.
        asked_.request_id = message.error().request_id;
    }
    dispatcher_.on_frame(peers_[static_cast<std::size_t>(slot)], payload);
    (void)peer;
    end_turn();
    // Every request is answered exactly once with its id (pushed events carry 0).
    if (asked_.request_id != 0)
        XQ_FUZZ_CHECK(asked_.replies == 1, "a request gets exactly one reply carrying its request id");
    asked_ = {};
}

void DispatchDriver::reconnect(int slot) {
    auto& peer = peers_[static_cast<std::size_t>(slot)];
    peer->open_ = false;
    dispatcher_.on_closed(*peer);
    new_peer(slot);
    end_turn();
}

void DispatchDriver::sweep() {
    dispatcher_.sweep_finished_rooms();
    end_turn();
}

void DispatchDriver::advance(server::Millis by) {
    now_ += by;
    // The flag timer: each firing checks the due rooms and arms the next deadline.
    for (int fired = 0; flag_at_ && *flag_at_ <= now_; ++fired) {
        XQ_FUZZ_CHECK(fired < 64, "the flag timer is not re-armed for a deadline already past");
        flag_at_.reset();
        dispatcher_.on_flag_timer();
    }
    if (count_at_ && *count_at_ <= now_) {
        count_at_.reset();
        dispatcher_.on_count_timer();
    }
    if (const auto next = dispatcher_.lobby().next_deadline()) {
        XQ_FUZZ_CHECK(*next > now_, "no flag is left unchecked");
        XQ_FUZZ_CHECK(flag_at_ && *flag_at_ <= *next, "the flag timer is armed for the earliest deadline");
    }
    end_turn();
}

void DispatchDriver::end_turn() {
    // The release the dispatcher posted: the journal commits, then the held frames go out.
    if (release_posted_) {
        release_posted_ = false;
        dispatcher_.release();
    }
    XQ_FUZZ_CHECK(!release_posted_, "a release delivers without posting another");
    for (int slot = 0; slot < kParticipants; ++slot) {
        FakePeer& peer = *peers_[static_cast<std::size_t>(slot)];
        for (const std::string& bytes : std::exchange(peer.inbox, {})) {
            XQ_FUZZ_CHECK(bytes.size() <= proto::kMaxFrameBytes, "every server message fits in a frame");
            const auto message = proto::decode_server(bytes);
            XQ_FUZZ_CHECK(message.has_value(), "every server message decodes");
            XQ_FUZZ_CHECK(proto::encode(*message) == bytes, "every server message decodes to itself");
            check_message(slot, *message);
        }
    }
    // Closes the dispatcher asked for happen now (a session closes from a posted handler); the
    // participant comes back as a new connection.
    for (int slot = 0; slot < kParticipants; ++slot) {
        auto& peer = peers_[static_cast<std::size_t>(slot)];
        if (!peer->closing_) continue;
        peer->open_ = false;
        dispatcher_.on_closed(*peer);
        new_peer(slot);
    }
    check_rooms();
}

void DispatchDriver::check_message(int slot, const proto::ServerMessage& m) {
    View& view = views_[static_cast<std::size_t>(slot)];
    if (kTrace) {
        const auto* e = std::get_if<proto::Error>(&m.body);
        std::fprintf(stderr, "participant %d <- request %llu, body %zu%s%s\n", slot,
                     static_cast<unsigned long long>(m.request_id), m.body.index(), e ? ": " : "",
                     e ? e->message.c_str() : "");
    }
    if (m.request_id != 0) {
        XQ_FUZZ_CHECK(slot == asked_.slot && m.request_id == asked_.request_id,
                      "a reply goes to the asker and echoes its request id");
        ++asked_.replies;
    }
    std::visit(
        [&](const auto& body) {
            using T = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<T, proto::Seated>) {
                XQ_FUZZ_CHECK(body.game_id != 0, "a seat is in a game");
                if (std::find(games_.begin(), games_.end(), body.game_id) == games_.end())
                    games_.push_back(body.game_id);
                if (!body.join_code.empty()) join_codes_[body.game_id] = body.join_code;
                if (body.side) tokens_[{body.game_id, *body.side}] = body.resume_token;
                // A seat's events start after it: from the first for a new room, after the
                // room's version before the request for a seat joined.
                const bool joined = asked_.joined_at && asked_.joined_at->first == body.game_id;
                view.versions.try_emplace(body.game_id, joined ? asked_.joined_at->second : 0);
            } else if constexpr (std::is_same_v<T, proto::ResumeToken>) {
                // A resume replaced the seat's token: "r"/"b" stand for the newest one.
                for (auto& [seat, token] : tokens_)
                    if (seat.first == body.game_id && asked_.message &&
                        std::holds_alternative<proto::Resume>(asked_.message->body) &&
                        std::get<proto::Resume>(asked_.message->body).token == token)
                        token = body.resume_token;
            } else if constexpr (std::is_same_v<T, proto::LoggedIn>) {
                XQ_FUZZ_CHECK(body.guest || !body.name.empty(), "an account has a name");
                for (const auto& seat : body.seats)
                    if (seat.side) tokens_[{seat.game_id, *seat.side}] = seat.resume_token;
            } else if constexpr (std::is_same_v<T, proto::Snapshot>) {
                const server::Room* r = room(body.game_id);
                XQ_FUZZ_CHECK(r && body.version == r->version(), "a snapshot holds the room's version");
                view.versions[body.game_id] = body.version;
                const auto* mute = asked_.message ? std::get_if<proto::Mute>(&asked_.message->body) : nullptr;
                if (mute && mute->channel == proto::ChatChannel::Players && m.request_id != 0)
                    mute->muted ? (void)view.muted.insert(body.game_id) : (void)view.muted.erase(body.game_id);
            } else if constexpr (std::is_same_v<T, proto::Resumed>) {
                XQ_FUZZ_CHECK(asked_.message && std::holds_alternative<proto::Resume>(asked_.message->body),
                              "Resumed answers a Resume");
                std::uint64_t last = std::get<proto::Resume>(asked_.message->body).last_version;
                for (const proto::RoomEvent& e : body.events) {
                    const auto v = std::visit([](const auto& ev) { return ev.version; }, e);
                    XQ_FUZZ_CHECK(v == last + 1, "Resumed replays every missed event in order");
                    last = v;
                }
                const server::Room* r = room(body.game_id);
                XQ_FUZZ_CHECK(r && last == r->version(), "Resumed brings the client up to the room's version");
                view.versions[body.game_id] = last;
            } else if constexpr (std::is_same_v<T, proto::Left>) {
                view.versions.erase(body.game_id);
            } else if constexpr (std::is_same_v<T, proto::ArchivedGame>) {
                if (!body.pgn.empty()) {
                    const auto records = read_pgn(body.pgn);
                    XQ_FUZZ_CHECK(records.size() == 1 && records[0].ok(), "an archived game's PGN reads back");
                    XQ_FUZZ_CHECK(records[0].game.moves.size() == body.moves.size(), "the PGN holds every move");
                    for (std::size_t i = 0; i < body.moves.size(); ++i)
                        XQ_FUZZ_CHECK(to_iccs(records[0].game.moves[i]) == body.moves[i],
                                      "the PGN holds the game's moves");
                }
            } else if constexpr (std::is_same_v<T, proto::Error>) {
                XQ_FUZZ_CHECK(!body.message.empty(), "a refusal says why");
            } else if (const auto event = versioned(body); event && event->second != 0) {
                check_event(slot, event->first, event->second, m);
            }
        },
        m.body);
}

void DispatchDriver::check_event(int slot, proto::GameId game, std::uint64_t version, const proto::ServerMessage& m) {
    View& view = views_[static_cast<std::size_t>(slot)];
    const auto seen = view.versions.find(game);
    XQ_FUZZ_CHECK(seen != view.versions.end(), "a room's events reach only those seated in it or watching it");
    const auto* made = std::get_if<proto::MoveMade>(&m.body);
    const auto* asked_move = asked_.message ? std::get_if<proto::MakeMove>(&asked_.message->body) : nullptr;
    const bool ack = made && asked_move && m.request_id != 0;
    if (ack) {
        XQ_FUZZ_CHECK(made->move_id == asked_move->move_id, "a move's acknowledgement carries its move id");
        const server::Room* r = room(game);
        XQ_FUZZ_CHECK(r != nullptr, "an acknowledged move's room exists");
        if (version <= seen->second) {
            // A retried move id: the original acknowledgement again, nothing played.
            XQ_FUZZ_CHECK(r->game().ply_count() == asked_.plies_before, "a retried move id plays nothing");
            return;
        }
        // A move acknowledged is in the game, once, as sent.
        XQ_FUZZ_CHECK(r->game().ply_count() == asked_.plies_before + 1, "an accepted move is played once");
        XQ_FUZZ_CHECK(made->ply == static_cast<std::uint32_t>(r->game().ply_count()), "the ack names the move's ply");
        const auto played = parse_iccs(made->move);
        XQ_FUZZ_CHECK(played && r->game().moves().back() == *played, "the acknowledged move is the game's last");
        XQ_FUZZ_CHECK(parse_iccs(asked_move->move) == played, "the move played is the move sent");
    }
    XQ_FUZZ_CHECK(version == seen->second + 1 || (view.muted.contains(game) && version > seen->second),
                  "each client sees a room's versions one by one, with no gap (but for the lines it muted)");
    seen->second = version;
}

void DispatchDriver::check_rooms() {
    for (const proto::GameId game : games_) {
        const server::Room* r = room(game);
        if (!r) continue;
        auto& last = room_versions_[game];
        XQ_FUZZ_CHECK(r->version() >= last, "a room's version never goes back");
        last = r->version();
        const Game& g = r->game();
        check_legal(g.start(), g.moves());
        const bool both = r->seat(Color::Red).taken && r->seat(Color::Black).taken;
        switch (r->status()) {
            case server::Status::Waiting:
                XQ_FUZZ_CHECK(!both && g.moves().empty(), "a waiting room has a free seat and no moves");
                break;
            case server::Status::Playing:
                XQ_FUZZ_CHECK(both && !g.is_over(), "a game in play has two players and no result");
                break;
            case server::Status::Finished:
                XQ_FUZZ_CHECK(g.is_over(), "a finished game has a result");
                break;
            case server::Status::Aborted:
                XQ_FUZZ_CHECK(!g.is_over(), "an aborted game has no result");
                break;
        }
        if (const auto log = r->events_since(0, server::Role::Spectator); log && !log->empty())
            XQ_FUZZ_CHECK(log->back().version <= r->version(), "the log holds no future event");
    }
}

}  // namespace xq::fuzz
