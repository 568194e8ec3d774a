#include "server/rooms/lobby.h"

#include <algorithm>
#include <array>

#include "common/fen.h"
#include "common/iccs.h"
#include "server/accounts/secret.h"

namespace xq::server {
namespace {

constexpr std::string_view kHex = "0123456789abcdef";
// Join codes are read aloud and typed: no 0/O or 1/I/L.
constexpr std::string_view kCodeLetters = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
constexpr int kRoomIdLength = 12;
constexpr int kJoinCodeLength = 6;

std::unexpected<Error> fail(ErrorCode code, std::string detail) {
    return std::unexpected(Error{code, std::move(detail)});
}

}  // namespace

Lobby::Lobby(RandomSource random, WallClock wall, ArchiveSink archive)
    : random_(std::move(random)), wall_(std::move(wall)), archive_(std::move(archive)) {}

std::string Lobby::random_text(std::string_view alphabet, int length) {
    std::string text;
    for (int i = 0; i < length; ++i) text += alphabet[random_() % alphabet.size()];
    return text;
}

Room& Lobby::add_room(TimeControl control, std::optional<std::string> join_code) {
    RoomId id;
    do id = random_text(kHex, kRoomIdLength);
    while (rooms_.contains(id));
    // Rooms draw tokens from the lobby's one source: copying a stateful std::function would let
    // two rooms repeat each other's tokens.
    auto room = std::make_unique<Room>(id, control, [this] { return random_(); });
    room->set_end_hook([this](const Room& r, TimePoint now) { return archive(r, now); });
    room->set_first_move_time(first_move_time_);
    Room& ref = *room;
    rooms_.emplace(id, Entry{std::move(room), std::move(join_code)});
    return ref;
}

RatingShifts Lobby::archive(const Room& room, TimePoint now) {
    if (!archive_) return {};
    const WallTime ended = wall_();
    const auto played = room.started_at() ? now - *room.started_at() : SteadyClock::duration{};
    const WallTime started = ended - std::chrono::duration_cast<WallTime::duration>(played);
    FinishedGame game = make_finished_game(room, started, ended, site_);
    game.is_private = join_code(room.id()).has_value();
    return archive_(game);
}

std::expected<Created, Error> Lobby::create(CreateGame request, TimePoint now) {
    if (is_waiting(request.who))
        return fail(ErrorCode::AlreadySeated, "you are waiting for a quick match; cancel it first");
    Color color = Color::Red;
    if (request.color == ColorChoice::Black) color = Color::Black;
    if (request.color == ColorChoice::Random) color = (random_() & 1) ? Color::Black : Color::Red;
    std::optional<std::string> code;
    if (request.is_private) code = random_text(kCodeLetters, kJoinCodeLength);
    // The lobby keeps only the code's hash; the creator is told the code once (Created).
    Room& room = add_room(request.time_control, code ? std::optional<std::string>(secret_hash(*code)) : std::nullopt);
    room.set_rated(request.rated);
    room.set_spectator_delay(request.spectator_delay);
    auto joined = room.join(color, std::move(request.name), request.who, now);
    return Created{room.id(), joined->color, joined->token, code, std::move(joined->events)};
}

std::expected<Seated, Error> Lobby::join(const RoomId& id, std::string name, ParticipantId who,
                                         std::string_view join_code, TimePoint now) {
    if (is_waiting(who))
        return fail(ErrorCode::AlreadySeated, "you are waiting for a quick match; cancel it first");
    const auto it = rooms_.find(id);
    if (it == rooms_.end()) return fail(ErrorCode::NoSuchGame, "no game " + id);
    const Entry& entry = it->second;
    if (entry.join_code && !matches_hash(join_code, *entry.join_code))
        return fail(ErrorCode::WrongJoinCode, "that is not the join code of game " + id);
    Room& room = *entry.room;
    const Color free = room.seat(Color::Red).taken ? Color::Black : Color::Red;
    auto joined = room.join(free, std::move(name), who, now);
    if (!joined) return std::unexpected(joined.error());
    return Seated{id, std::move(*joined)};
}

bool Lobby::is_waiting(ParticipantId who) const {
    return std::ranges::any_of(waiting_, [&](const Waiter& w) { return w.seek.who == who; });
}

std::expected<std::optional<Match>, Error> Lobby::quick_match(std::string name, ParticipantId who,
                                                              TimeControl control, TimePoint now) {
    return seek(Seek{std::move(name), who, control}, now);
}

std::expected<std::optional<Match>, Error> Lobby::seek(Seek s, TimePoint now) {
    if (is_waiting(s.who)) return fail(ErrorCode::AlreadySeated, "you are already waiting for a match");
    // waiting_ is in arrival order: the longest waiter in range is the partner.
    const auto partner = std::ranges::find_if(waiting_, [&](const Waiter& w) {
        return seek_accepts(w.seek, std::chrono::duration_cast<Millis>(now - w.since), s);
    });
    if (partner == waiting_.end()) {
        waiting_.push_back(Waiter{std::move(s), now});
        return std::optional<Match>{};
    }
    Waiter other = std::move(*partner);
    waiting_.erase(partner);
    return std::optional<Match>{start_match(std::move(other), std::move(s), now)};
}

std::vector<Match> Lobby::pair_widened_seeks(TimePoint now) {
    std::vector<WaitingSeek> seeks;
    for (const Waiter& w : waiting_) seeks.push_back({&w.seek, std::chrono::duration_cast<Millis>(now - w.since)});
    const auto pairs = pair_waiting_seeks(seeks);
    if (pairs.empty()) return {};
    std::vector<Match> matches;
    std::vector<bool> paired(waiting_.size(), false);
    for (const auto& [i, j] : pairs) {
        paired[i] = paired[j] = true;
        matches.push_back(start_match(std::move(waiting_[i]), std::move(waiting_[j].seek), now));
    }
    std::vector<Waiter> still;
    for (std::size_t i = 0; i < waiting_.size(); ++i)
        if (!paired[i]) still.push_back(std::move(waiting_[i]));
    waiting_ = std::move(still);
    return matches;
}

Match Lobby::pair(Seek first, Seek second, TimePoint now) { return start_match(Waiter{std::move(first), now}, std::move(second), now); }

Match Lobby::start_match(Waiter other, Seek s, TimePoint now) {
    const bool waiter_red = (random_() & 1) == 0;
    Room& room = add_room(s.control, std::nullopt);
    room.set_rated(s.rated);
    const ParticipantId who = s.who;
    auto first = room.join(waiter_red ? Color::Red : Color::Black, std::move(other.seek.name), other.seek.who, now);
    auto second = room.join(waiter_red ? Color::Black : Color::Red, std::move(s.name), who, now);
    Match match{room.id(), 0, 0, "", "", std::move(first->events)};
    match.red_token = waiter_red ? first->token : second->token;
    match.black_token = waiter_red ? second->token : first->token;
    for (auto& e : second->events) match.events.push_back(std::move(e));
    match.red = waiter_red ? other.seek.who : who;
    match.black = waiter_red ? who : other.seek.who;
    return match;
}

std::expected<void, Error> Lobby::cancel_quick_match(ParticipantId who) {
    if (std::erase_if(waiting_, [&](const Waiter& w) { return w.seek.who == who; }) == 0)
        return fail(ErrorCode::NotAPlayer, "you are not waiting for a match");
    return {};
}

std::expected<void, Error> Lobby::cancel_game(const RoomId& id, ParticipantId who) {
    const auto it = rooms_.find(id);
    if (it == rooms_.end()) return fail(ErrorCode::NoSuchGame, "no game " + id);
    const Room& room = *it->second.room;
    if (!room.seat_of(who)) return fail(ErrorCode::NotAPlayer, "only the game's creator can cancel it");
    if (room.status() != Status::Waiting)
        return fail(ErrorCode::AlreadyStarted, "the game has started: resign, offer a draw or abort");
    rooms_.erase(it);
    return {};
}

std::vector<Lobby::Abandoned> Lobby::remove_abandoned(TimePoint now) {
    std::vector<Abandoned> removed;
    std::erase_if(rooms_, [&](const auto& kv) {
        const Room& room = *kv.second.room;
        if (room.status() != Status::Waiting || !host_away(room)) return false;
        for (Color c : {Color::Red, Color::Black})
            if (room.seat(c).taken && room.grace_left(c, now) > Millis{}) return false;
        removed.push_back({kv.first, room.version()});
        return true;
    });
    return removed;
}

bool Lobby::host_away(const Room& room) {
    return std::ranges::any_of(std::array{Color::Red, Color::Black}, [&](Color c) {
        return room.seat(c).taken && !room.seat(c).connected;
    });
}

Reply Lobby::watch(const RoomId& id, ParticipantId who, std::string_view join_code) {
    const auto it = rooms_.find(id);
    if (it == rooms_.end()) return fail(ErrorCode::NoSuchGame, "no game " + id);
    // A player asking to watch its own game just wants a Snapshot (to resynchronise); the joiner
    // of a private game was never told its code.
    if (it->second.room->seat_of(who)) return Events{};
    if (it->second.join_code && !matches_hash(join_code, *it->second.join_code))
        return fail(ErrorCode::WrongJoinCode, "game " + id + " is private: it needs its join code");
    return it->second.room->add_spectator(who);
}

std::expected<Joined, Error> Lobby::resume(const RoomId& id, std::string_view token, ParticipantId who) {
    Room* room = find(id);
    if (!room) return fail(ErrorCode::NoSuchGame, "no game " + id);
    return room->resume(token, who);
}

bool Lobby::listed_to(const Entry& e, ParticipantId viewer) const {
    return !e.join_code || e.room->seat_of(viewer).has_value();
}

GameListing Lobby::listing(const Entry& e) const {
    const Room& r = *e.room;
    return GameListing{r.id(),
                       r.seat(Color::Red).name,
                       r.seat(Color::Black).name,
                       r.time_control(),
                       r.spectator_plies(),  // a delayed game's listing does not run ahead of its spectators
                       r.spectator_count(),
                       e.join_code.has_value(),
                       r.status(),
                       r.rated(),
                       r.seat(Color::Red).rating,
                       r.seat(Color::Black).rating,
                       r.spectator_delay()};
}

std::vector<GameListing> Lobby::open_games(ParticipantId viewer) const {
    std::vector<GameListing> list;
    for (const auto& [id, e] : rooms_)
        if (e.room->status() == Status::Waiting && !host_away(*e.room) && listed_to(e, viewer))
            list.push_back(listing(e));
    return list;
}

std::vector<GameListing> Lobby::live_games(ParticipantId viewer, std::optional<TimePoint> now) const {
    std::vector<GameListing> list;
    for (const auto& [id, e] : rooms_) {
        if (e.room->status() != Status::Playing || !listed_to(e, viewer)) continue;
        list.push_back(listing(e));
        if (now) add_position(list.back(), *e.room, *now);
    }
    return list;
}

std::vector<std::pair<GameListing, bool>> Lobby::every_game(TimePoint now) const {
    std::vector<std::pair<GameListing, bool>> list;
    list.reserve(rooms_.size());
    for (const auto& [id, e] : rooms_) {
        const Status status = e.room->status();
        const bool listed = !e.join_code && (status == Status::Playing || (status == Status::Waiting && !host_away(*e.room)));
        GameListing l = listing(e);
        if (status == Status::Playing) add_position(l, *e.room, now);
        list.emplace_back(std::move(l), listed);
    }
    return list;
}

void Lobby::add_position(GameListing& l, const Room& room, TimePoint now) {
    // spectator_plies(), as the listing's move count: a delayed game's board does not run ahead.
    const auto shown = static_cast<std::size_t>(room.spectator_plies());
    l.fen = to_fen(room.game().positions()[shown]);
    l.last_move = shown > 0 ? to_iccs(room.game().moves()[shown - 1]) : "";
    l.clocks = room.spectator_clocks(now);
}

std::vector<std::pair<RoomId, Color>> Lobby::seats_of_account(std::string_view account) const {
    std::vector<std::pair<RoomId, Color>> seats;
    if (account.empty()) return seats;
    for (const auto& [id, e] : rooms_) {
        if (e.room->status() == Status::Finished || e.room->status() == Status::Aborted) continue;
        for (Color color : {Color::Red, Color::Black}) {
            const Seat& seat = e.room->seat(color);
            if (seat.taken && seat.account == account) seats.emplace_back(id, color);
        }
    }
    return seats;
}

Room* Lobby::find(const RoomId& id) {
    const auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second.room.get();
}

const Room* Lobby::find(const RoomId& id) const {
    const auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second.room.get();
}

std::vector<RoomId> Lobby::due(TimePoint now) const {
    std::vector<RoomId> ids;
    for (const auto& [id, e] : rooms_)
        if (const auto d = e.room->deadline(); d && *d <= now) ids.push_back(id);
    return ids;
}

std::optional<TimePoint> Lobby::next_deadline() const {
    std::optional<TimePoint> next;
    for (const auto& [id, e] : rooms_)
        if (const auto d = e.room->deadline(); d && (!next || *d < *next)) next = d;
    return next;
}

std::optional<TimePoint> Lobby::next_seek_widening(TimePoint now) const {
    // Only two or more rated seeks can come within range of each other.
    if (std::ranges::count_if(waiting_, [](const Waiter& w) { return w.seek.rated; }) < 2) return std::nullopt;
    std::optional<TimePoint> next;
    for (const Waiter& w : waiting_) {
        if (!w.seek.rated) continue;
        const auto waited = std::chrono::duration_cast<Millis>(now - w.since);
        if (waited >= kSeekRangeOpenAfter) continue;
        const TimePoint widen = w.since + (waited / kSeekWidenEvery + 1) * kSeekWidenEvery;
        if (!next || widen < *next) next = widen;
    }
    return next;
}

std::size_t Lobby::remove_ended() { return remove_ended_before(TimePoint::max()).size(); }

std::vector<RoomId> Lobby::remove_ended_before(TimePoint cutoff) {
    std::vector<RoomId> removed;
    std::erase_if(rooms_, [&](const auto& kv) {
        const Room& room = *kv.second.room;
        const bool over = room.status() == Status::Finished || room.status() == Status::Aborted;
        if (!over || room.ended_at().value_or(TimePoint::min()) > cutoff) return false;
        removed.push_back(kv.first);
        return true;
    });
    return removed;
}

}  // namespace xq::server
