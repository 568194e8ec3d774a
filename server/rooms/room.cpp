// Room: seats, spectators, chat, the event log and snapshots. The game itself (moves, offers,
// takebacks, endings) is in room_play.cpp.

#include "server/rooms/room.h"

#include <algorithm>
#include <cstdio>

#include "common/fen.h"
#include "common/iccs.h"
#include "server/accounts/secret.h"

namespace xq::server {

std::string_view code_name(ErrorCode code) {
    switch (code) {
        case ErrorCode::NotAPlayer:
            return "not_a_player";
        case ErrorCode::NotYourTurn:
            return "not_your_turn";
        case ErrorCode::IllegalMove:
            return "illegal_move";
        case ErrorCode::InvalidMoveSyntax:
            return "invalid_move_syntax";
        case ErrorCode::BannedByRepetition:
            return "banned_by_repetition";
        case ErrorCode::StalePosition:
            return "stale_position";
        case ErrorCode::GameOver:
            return "game_over";
        case ErrorCode::GameNotStarted:
            return "game_not_started";
        case ErrorCode::AlreadyStarted:
            return "already_started";
        case ErrorCode::GameFull:
            return "game_full";
        case ErrorCode::AlreadySeated:
            return "already_seated";
        case ErrorCode::NoPendingOffer:
            return "no_pending_offer";
        case ErrorCode::CannotAnswerOwnOffer:
            return "cannot_answer_own_offer";
        case ErrorCode::NothingToTakeBack:
            return "nothing_to_take_back";
        case ErrorCode::AbortTooLate:
            return "abort_too_late";
        case ErrorCode::ChatTooLong:
            return "chat_too_long";
        case ErrorCode::WrongChatChannel:
            return "wrong_chat_channel";
        case ErrorCode::BadToken:
            return "bad_token";
        case ErrorCode::NoSuchGame:
            return "no_such_game";
        case ErrorCode::WrongJoinCode:
            return "wrong_join_code";
        case ErrorCode::ClaimNotAllowed:
            return "claim_not_allowed";
        case ErrorCode::NoRematch:
            return "no_rematch";
    }
    return "";
}

std::string_view to_string(Status s) {
    switch (s) {
        case Status::Waiting:
            return "waiting";
        case Status::Playing:
            return "playing";
        case Status::Finished:
            return "finished";
        case Status::Aborted:
            return "aborted";
    }
    return "";
}

Room::Room(RoomId id, TimeControl control, RandomSource random, Position start)
    : id_(std::move(id)), random_(std::move(random)), game_(start), clock_(control),
      lag_quota_{LagQuota(control), LagQuota(control)} {
    clock_history_.push_back({GameClock::Duration(control.base), GameClock::Duration(control.base)});
}

std::optional<Color> Room::seat_of(ParticipantId who) const {
    for (Color c : {Color::Red, Color::Black})
        if (seat(c).taken && seat(c).participant == who) return c;
    return std::nullopt;
}

bool Room::is_spectator(ParticipantId who) const {
    return std::ranges::find(spectators_, who) != spectators_.end();
}

std::expected<Color, Error> Room::player(ParticipantId who) const {
    if (auto c = seat_of(who)) return *c;
    return std::unexpected(Error{ErrorCode::NotAPlayer, "you do not hold a seat in this game"});
}

std::expected<Color, Error> Room::playing(ParticipantId who) const {
    auto c = player(who);
    if (!c) return c;
    if (status_ == Status::Waiting)
        return std::unexpected(Error{ErrorCode::GameNotStarted, "the game has not started: a seat is empty"});
    if (status_ != Status::Playing) {
        const std::string why = status_ == Status::Aborted ? "it was aborted" : game_.outcome().explanation;
        return std::unexpected(Error{ErrorCode::GameOver, "the game is over: " + why});
    }
    return c;
}

void Room::emit(Events& out, EventBody body, Audience audience) {
    if (!versioned(body)) {
        out.push_back(Event{0, audience, std::move(body)});
        return;
    }
    Event event{++version_, audience, std::move(body)};
    log_.push_back(event);
    note_for_spectators(event);
    if (log_.size() > kHistory) {
        // A MoveMade leaving the log may still be some seat's acknowledgement: keep that one.
        if (const auto* made = std::get_if<MoveMade>(&log_.front().body)) {
            const auto& acks = acks_[static_cast<std::size_t>(index_of(made->mover))];
            const std::uint64_t v = log_.front().version;
            if (std::ranges::find(acks, v, &Ack::version) != acks.end()) old_acks_.push_back(log_.front());
        }
        log_.pop_front();
    }
    out.push_back(std::move(event));
}

const Event& Room::ack_event(std::uint64_t version) const {
    if (!log_.empty() && version >= log_.front().version) return log_[version - log_.front().version];
    return *std::ranges::find(old_acks_, version, &Event::version);
}

void Room::forget_ack(std::uint64_t version) {
    if (auto it = std::ranges::find(old_acks_, version, &Event::version); it != old_acks_.end()) old_acks_.erase(it);
}

std::string Room::reissue_token(Color c) {
    std::string token = new_token();
    seat_mut(c).token = secret_hash(token);
    return token;
}

std::string Room::new_token() {
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(random_()),
                  static_cast<unsigned long long>(random_()));
    return buf;
}

std::expected<Joined, Error> Room::join(Color color, std::string name, ParticipantId who, TimePoint now) {
    if (seat_of(who))
        return std::unexpected(Error{ErrorCode::AlreadySeated, "you already hold a seat in this game"});
    if (status_ == Status::Playing)
        return std::unexpected(Error{ErrorCode::AlreadyStarted, "the game has already started"});
    if (status_ != Status::Waiting) return std::unexpected(Error{ErrorCode::GameOver, "the game is over"});
    if (seat(color).taken)
        return std::unexpected(
            Error{ErrorCode::GameFull, "the " + std::string(to_string(color)) + " seat is taken"});

    Events out;
    if (is_spectator(who)) {
        std::erase(spectators_, who);
        emit(out, SpectatorCount{spectators_.size()});
    }
    Seat& s = seat_mut(color);
    std::string token = new_token();
    s = Seat{true, std::move(name), who, secret_hash(token), true};
    emit(out, PlayerJoined{color, s.name});
    if (seat(~color).taken) start(out, now);
    return Joined{color, std::move(token), std::move(out)};
}

// Both seats are taken: the game starts now, its clocks with the second move.
void Room::start(Events& out, TimePoint now) {
    status_ = Status::Playing;
    started_at_ = now;
    await_first_move(now);
    // A host who dropped while waiting gets its whole grace period from the start: the time spent
    // waiting for an opponent is not time the joiner waited for it.
    for (Seat& s : seats_)
        if (s.taken && !s.connected) s.away_until = now + s.away_grace;
    emit(out, GameStarted{seat(Color::Red).name, seat(Color::Black).name, reading(now)});
}

void Room::await_first_move(TimePoint now) {
    clock_ = GameClock(clock_.control());
    first_move_since_ = now;
}

std::optional<TimePoint> Room::first_move_deadline() const {
    if (!first_move_since_ || status_ != Status::Playing) return std::nullopt;
    return *first_move_since_ + first_move_time_;
}

std::optional<TimePoint> Room::deadline() const {
    const auto flag = clock_.deadline();
    const auto first = first_move_deadline();
    if (flag && first) return std::min(*flag, *first);
    return flag ? flag : first;
}

ClockReading Room::reading(TimePoint now) const {
    ClockReading out = clock_.reading(now);
    if (const auto due = first_move_deadline())
        out.first_move_left = std::chrono::duration_cast<Millis>(std::max(SteadyClock::duration{}, *due - now));
    return out;
}

// A Resume's new token reaches the player in a frame that a dying connection or a killed server
// may never deliver, while the rotation is already committed: so the token just used keeps
// working until the new one is used, which retires it. Any older token is dead. Returns the hash
// of the token `token` matches ("" if none) among the seat's current and previous ones.
namespace {
std::string_view matching_hash(std::string_view token, std::string_view stored) {
    const auto space = stored.find(' ');
    const std::string_view current = stored.substr(0, space);
    if (matches_hash(token, current)) return current;
    if (space == std::string_view::npos) return {};
    const std::string_view previous = stored.substr(space + 1);
    return matches_hash(token, previous) ? previous : std::string_view{};
}
}  // namespace

std::expected<Joined, Error> Room::resume(std::string_view token, ParticipantId who) {
    for (Color c : {Color::Red, Color::Black}) {
        Seat& s = seat_mut(c);
        if (!s.taken) continue;
        const std::string used(matching_hash(token, s.token));
        if (used.empty()) continue;
        if (auto other = seat_of(who); other && *other != c)
            return std::unexpected(Error{ErrorCode::AlreadySeated, "you already hold the other seat"});
        Events out;
        if (is_spectator(who)) {
            std::erase(spectators_, who);
            emit(out, SpectatorCount{spectators_.size()});
        }
        s.participant = who;
        if (!s.connected) {
            s.connected = true;
            s.away_until.reset();
            emit(out, PlayerConnection{c, true, std::nullopt});
        }
        std::string fresh = new_token();
        s.token = secret_hash(fresh) + " " + used;
        return Joined{c, std::move(fresh), std::move(out)};
    }
    return std::unexpected(Error{ErrorCode::BadToken, "that token holds no seat in this game"});
}

Reply Room::set_connected(ParticipantId who, bool connected, TimePoint now, Millis grace) {
    const auto c = player(who);
    if (!c) return std::unexpected(c.error());
    Events out;
    Seat& s = seat_mut(*c);
    if (s.connected != connected) {
        s.connected = connected;
        s.away_until = connected ? std::nullopt : std::optional<TimePoint>(now + grace);
        s.away_grace = grace;
        emit(out, PlayerConnection{*c, connected, grace_left(*c, now)});
    }
    return out;
}

std::optional<Millis> Room::grace_left(Color c, TimePoint now) const {
    const auto& until = seat(c).away_until;
    if (!until) return std::nullopt;
    return std::max(Millis{}, std::chrono::ceil<Millis>(*until - now));
}

Events Room::set_lag(Color c, Millis lag, TimePoint now) {
    Seat& s = seat_mut(c);
    s.lag = lag;
    Events out;
    const Millis change = lag > s.lag_shown ? lag - s.lag_shown : s.lag_shown - lag;
    const bool noticeable = change >= Millis{25} && change * 5 >= s.lag_shown;
    if (!s.taken || !noticeable || (s.lag_shown_at && now - *s.lag_shown_at < kLagShownInterval)) return out;
    s.lag_shown = lag;
    s.lag_shown_at = now;
    emit(out, PlayerConnection{c, s.connected, grace_left(c, now)});
    return out;
}

Reply Room::add_spectator(ParticipantId who) {
    if (seat_of(who))
        return std::unexpected(Error{ErrorCode::AlreadySeated, "players cannot also watch their own game"});
    Events out;
    if (!is_spectator(who)) {
        spectators_.push_back(who);
        emit(out, SpectatorCount{spectators_.size()});
    }
    return out;
}

Reply Room::remove_spectator(ParticipantId who) {
    Events out;
    if (std::erase(spectators_, who) > 0) emit(out, SpectatorCount{spectators_.size()});
    return out;
}

Reply Room::chat(ParticipantId who, ChatChannel channel, std::string_view text, std::string_view spectator_name) {
    const auto c = seat_of(who);
    if (!c && !is_spectator(who))
        return std::unexpected(Error{ErrorCode::NotAPlayer, "you are not in this room"});
    // The channel is the client's choice, so it is checked against the seat: a spectator may not
    // speak as a player, and a player may not talk to the gallery.
    if (channel == ChatChannel::Players && !c)
        return std::unexpected(Error{ErrorCode::NotAPlayer, "only the players may write on the players' channel"});
    if (channel == ChatChannel::Spectators && c)
        return std::unexpected(
            Error{ErrorCode::WrongChatChannel, "players may not write on the spectators' channel"});
    if (text.size() > kMaxChatBytes)
        return std::unexpected(
            Error{ErrorCode::ChatTooLong, "a chat line holds at most " + std::to_string(kMaxChatBytes) +
                                              " bytes, this one has " + std::to_string(text.size())});
    Events out;
    if (c)
        emit(out, ChatLine{ChatChannel::Players, seat(*c).name, std::string(text), *c}, Audience::Everyone);
    else
        emit(out,
             ChatLine{ChatChannel::Spectators,
                      spectator_name.empty() ? "spectator " + std::to_string(who) : std::string(spectator_name),
                      std::string(text)},
             Audience::Spectators);
    keep_chat(out.back());
    return out;
}

// Drops the channel's oldest kept line once it has more than kChatKept, so a long game's chat
// costs the room no more memory than a short one's.
void Room::keep_chat(const Event& line) {
    const ChatChannel channel = std::get<ChatLine>(line.body).channel;
    const auto same_channel = [&](const Event& e) { return std::get<ChatLine>(e.body).channel == channel; };
    recent_chat_.push_back(line);
    if (static_cast<std::size_t>(std::ranges::count_if(recent_chat_, same_channel)) > kChatKept)
        recent_chat_.erase(std::ranges::find_if(recent_chat_, same_channel));
}

std::vector<Event> Room::recent_chat(Role role) const {
    std::vector<Event> out;
    for (const Event& e : recent_chat_)
        if (e.visible_to(role) && (role == Role::Player || e.version <= spectator_version_)) out.push_back(e);
    return out;
}

Snapshot Room::snapshot(TimePoint now, Role role) const {
    Snapshot snap;
    snap.id = id_;
    snap.time_control = clock_.control();
    snap.status = status_;
    snap.start_fen = to_fen(game_.start());
    for (Move m : game_.moves()) snap.moves.push_back(to_iccs(m));
    snap.clocks = reading(now);
    for (Color c : {Color::Red, Color::Black})
        snap.seats[static_cast<std::size_t>(index_of(c))] =
            SeatView{seat(c).taken, seat(c).name, seat(c).connected, grace_left(c, now), seat(c).lag};
    snap.version = version_;
    snap.result = game_.result();
    snap.reason = game_.outcome().reason;
    snap.explanation = status_ == Status::Aborted ? "The game was aborted." : game_.outcome().explanation;
    snap.draw_offer = draw_offer_;
    snap.takeback_request = takeback_by_;
    snap.spectators = spectators_.size();
    if (role == Role::Spectator && spectator_plies() < game_.ply_count()) {
        // Delayed: the game as it stood spectator_plies() plies in, its clocks as they were then.
        snap.moves.resize(static_cast<std::size_t>(spectator_plies()));
        snap.clocks = spectator_clocks(now);
        snap.version = spectator_version_;
        snap.draw_offer.reset();
        snap.takeback_request.reset();
    }
    return snap;
}

std::optional<Events> Room::events_since(std::uint64_t version, Role role) const {
    const std::uint64_t last = role == Role::Player ? version_ : spectator_version_;
    if (version > last) return std::nullopt;
    const std::uint64_t oldest = log_.empty() ? version_ + 1 : log_.front().version;
    if (version + 1 < oldest) return std::nullopt;
    Events out;
    for (const Event& e : log_)
        if (e.version > version && e.version <= last && e.visible_to(role)) out.push_back(e);
    return out;
}

}  // namespace xq::server
