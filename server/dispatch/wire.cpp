#include "server/dispatch/wire.h"

#include <charconv>
#include <sstream>

#include "common/fen.h"
#include "common/iccs.h"
#include "server/accounts/names.h"

namespace xq::server::wire {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

std::optional<proto::PlayerRating> player_rating(const std::optional<SeatRating>& r) {
    if (!r) return std::nullopt;
    return proto::PlayerRating{r->rating, r->deviation, r->provisional};
}

std::optional<proto::RatingChange> rating_change(const std::optional<RatingShift>& s) {
    if (!s) return std::nullopt;
    return proto::RatingChange{s->before, s->after, s->provisional};
}

// What a PlayerInfo says beyond name and presence: the seat's rating, and whether it is one of
// the server's computers.
void player_extras(const Room& room, Color c, proto::PlayerInfo& info) {
    const Seat& seat = room.seat(c);
    info.rating = player_rating(seat.rating);
    info.computer = is_computer_account(seat.account);
}

proto::GameResult result(Result r) {
    switch (r) {
        case Result::RedWins: return proto::GameResult::RedWins;
        case Result::BlackWins: return proto::GameResult::BlackWins;
        case Result::Draw: return proto::GameResult::Draw;
        case Result::Ongoing: break;
    }
    return proto::GameResult::Ongoing;
}

proto::GameStatus status(Status s) {
    switch (s) {
        case Status::Waiting: return proto::GameStatus::Waiting;
        case Status::Playing: return proto::GameStatus::Playing;
        case Status::Finished: return proto::GameStatus::Finished;
        case Status::Aborted: return proto::GameStatus::Aborted;
    }
    return proto::GameStatus::Waiting;
}

proto::Outcome outcome(Result r, Reason reason, std::string explanation, int ply, const std::vector<int>& plies) {
    proto::Outcome o{result(r), std::string(to_string(reason)), std::move(explanation),
                     static_cast<std::uint32_t>(ply), {}};
    for (int p : plies) o.cycle_plies.push_back(static_cast<std::uint32_t>(p));
    return o;
}

proto::TimeControl record_time_control(const TimeControlRecord& tc) {
    proto::TimeControl out{static_cast<std::uint32_t>(tc.base_seconds / 60),
                           static_cast<std::uint32_t>(tc.increment_seconds), std::nullopt};
    if (tc.move_cap_seconds > 0) out.move_cap_seconds = static_cast<std::uint32_t>(tc.move_cap_seconds);
    return out;
}

std::int64_t unix_ms(WallTime t) { return duration_cast<milliseconds>(t.time_since_epoch()).count(); }

}  // namespace

proto::GameId game_id(const RoomId& id) {
    proto::GameId value = 0;
    const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), value, 16);
    return ec == std::errc() && end == id.data() + id.size() ? value : 0;
}

std::optional<RoomId> room_id(proto::GameId id) {
    if (id == 0 || id > 0xffffffffffffULL) return std::nullopt;
    // Every request names its room, so no printf here.
    RoomId text(12, '0');
    for (int i = 11; i >= 0; --i, id >>= 4) text[static_cast<std::size_t>(i)] = "0123456789abcdef"[id & 0xf];
    return text;
}

std::expected<TimeControl, std::string> time_control(const proto::TimeControl& tc) {
    if (tc.base_minutes < 1 || tc.base_minutes > 180) return std::unexpected("base time must be 1 to 180 minutes");
    if (tc.increment_seconds > 60) return std::unexpected("increment must be at most 60 seconds");
    if (tc.move_cap_seconds && (*tc.move_cap_seconds < 1 || *tc.move_cap_seconds > 600))
        return std::unexpected("a per-move cap must be 1 to 600 seconds");
    TimeControl out{std::chrono::minutes(tc.base_minutes), std::chrono::seconds(tc.increment_seconds), std::nullopt};
    if (tc.move_cap_seconds) out.move_cap = std::chrono::seconds(*tc.move_cap_seconds);
    return out;
}

proto::TimeControl time_control(const TimeControl& tc) {
    proto::TimeControl out{static_cast<std::uint32_t>(duration_cast<std::chrono::minutes>(tc.base).count()),
                           static_cast<std::uint32_t>(duration_cast<std::chrono::seconds>(tc.increment).count()),
                           std::nullopt};
    if (tc.move_cap)
        out.move_cap_seconds = static_cast<std::uint32_t>(duration_cast<std::chrono::seconds>(*tc.move_cap).count());
    return out;
}

proto::Clock clock(const ClockReading& reading) {
    proto::Clock out{reading.red.count(), reading.black.count(), std::nullopt, std::nullopt, std::nullopt};
    if (reading.running) out.running = side(*reading.running);
    if (reading.move_left) out.move_cap_ms = reading.move_left->count();
    if (reading.first_move_left) out.first_move_ms = reading.first_move_left->count();
    return out;
}

proto::Side side(Color c) { return c == Color::Red ? proto::Side::Red : proto::Side::Black; }

proto::ErrorCode error_code(ErrorCode code) {
    using P = proto::ErrorCode;
    switch (code) {
        case ErrorCode::NotAPlayer: return P::NotAPlayer;
        case ErrorCode::NotYourTurn: return P::NotYourTurn;
        case ErrorCode::IllegalMove: return P::IllegalMove;
        case ErrorCode::InvalidMoveSyntax: return P::InvalidMoveSyntax;
        case ErrorCode::BannedByRepetition: return P::BannedByRepetition;
        case ErrorCode::StalePosition: return P::StalePosition;
        case ErrorCode::GameOver: return P::GameOver;
        case ErrorCode::GameNotStarted: return P::GameNotStarted;
        case ErrorCode::AlreadyStarted: return P::AlreadyStarted;
        case ErrorCode::GameFull: return P::GameFull;
        case ErrorCode::AlreadySeated: return P::AlreadySeated;
        case ErrorCode::NoPendingOffer: return P::NoPendingOffer;
        case ErrorCode::CannotAnswerOwnOffer: return P::BadRequest;
        case ErrorCode::NothingToTakeBack: return P::NothingToTakeBack;
        case ErrorCode::AbortTooLate: return P::AlreadyStarted;
        case ErrorCode::ChatTooLong: return P::ChatTooLong;
        case ErrorCode::WrongChatChannel: return P::BadRequest;
        case ErrorCode::BadToken: return P::BadToken;
        case ErrorCode::NoSuchGame: return P::NoSuchGame;
        case ErrorCode::WrongJoinCode: return P::WrongJoinCode;
        case ErrorCode::ClaimNotAllowed: return P::ClaimNotAllowed;
        case ErrorCode::NoRematch: return P::NoRematch;
    }
    return P::Internal;
}

proto::ServerMessage error(std::uint64_t request_id, proto::ErrorCode code, std::string message, proto::GameId game) {
    return {request_id, proto::Error{code, std::move(message), game, "", ""}};
}

proto::ServerMessage error(std::uint64_t request_id, const Error& e, proto::GameId game) {
    proto::Error out{error_code(e.code), e.detail, game, "", ""};
    // A move refused by the repetition rules says which ruling it would have completed.
    if (e.ruling != Reason::None) {
        out.reason = std::string(to_string(e.ruling));
        out.explanation = e.detail;
    }
    return {request_id, std::move(out)};
}

proto::GameSummary summary(const GameListing& l) {
    proto::GameSummary s;
    s.game_id = game_id(l.id);
    s.status = status(l.status);
    s.host = !l.red.empty() ? l.red : l.black;
    s.host_color = l.red.empty() == l.black.empty() ? proto::ColorChoice::Random
                   : l.red.empty()                  ? proto::ColorChoice::Black
                                                    : proto::ColorChoice::Red;
    s.red = l.red;
    s.black = l.black;
    s.time_control = time_control(l.time_control);
    s.plies = static_cast<std::uint32_t>(l.moves);
    s.spectators = static_cast<std::uint32_t>(l.spectators);
    s.is_private = l.is_private;
    s.rated = l.rated;
    s.red_rating = player_rating(l.red_rating);
    s.black_rating = player_rating(l.black_rating);
    s.host_rating = !l.red.empty() ? s.red_rating : s.black_rating;
    s.spectator_delay = static_cast<std::uint32_t>(l.spectator_delay);
    s.fen = l.fen;
    s.last_move = l.last_move;
    if (l.clocks) s.clock = clock(*l.clocks);
    return s;
}

proto::Snapshot snapshot(const Room& room, TimePoint now, bool is_private, std::optional<Color> your_side) {
    const Snapshot s = room.snapshot(now, your_side ? Role::Player : Role::Spectator);
    proto::Snapshot out;
    out.game_id = game_id(s.id);
    out.version = s.version;
    out.status = status(s.status);
    out.time_control = time_control(s.time_control);
    out.is_private = is_private;
    out.start_fen = s.start_fen;
    out.moves = s.moves;
    out.clock = clock(s.clocks);
    for (auto [info, seat] : {std::pair{&out.red, &s.seats[0]}, std::pair{&out.black, &s.seats[1]}}) {
        *info = {seat->name, seat->connected, std::nullopt};
        info->lag_ms = static_cast<std::uint32_t>(seat->lag.count());
        if (seat->grace_left) info->grace_ms = static_cast<proto::Millis>(seat->grace_left->count());
    }
    for (Color c : {Color::Red, Color::Black}) player_extras(room, c, c == Color::Red ? out.red : out.black);
    out.rated = room.rated();
    if (s.result != Result::Ongoing)
        out.outcome = outcome(s.result, s.reason, s.explanation, static_cast<int>(s.moves.size()),
                              room.game().outcome().plies);
    if (s.draw_offer) out.pending_offers.push_back({proto::OfferKind::Draw, side(*s.draw_offer)});
    if (s.takeback_request) out.pending_offers.push_back({proto::OfferKind::Takeback, side(*s.takeback_request)});
    if (const auto by = room.rematch_offer()) out.pending_offers.push_back({proto::OfferKind::Rematch, side(*by)});
    if (!room.rematch_game().empty()) out.rematch_game_id = game_id(room.rematch_game());
    out.spectators = static_cast<std::uint32_t>(s.spectators);
    out.spectator_delay = static_cast<std::uint32_t>(room.spectator_delay());
    if (your_side) out.your_side = side(*your_side);
    // Only the lines this receiver may see: a player's snapshot never carries the gallery's chat.
    for (const Event& e : room.recent_chat(your_side ? Role::Player : Role::Spectator))
        if (auto line = room_event(room, e, false)) out.chat.push_back(std::get<proto::ChatLine>(*line));
    return out;
}

std::optional<proto::RoomEvent> room_event(const Room& room, const Event& e, bool with_move_id) {
    const proto::GameId id = game_id(room.id());
    const proto::Version v = e.version;
    return std::visit(
        [&](const auto& body) -> std::optional<proto::RoomEvent> {
            using T = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<T, server::GameStarted>) {
                proto::GameStarted started{id,
                                          v,
                                          body.red,
                                          body.black,
                                          time_control(room.time_control()),
                                          to_fen(room.game().start()),
                                          clock(body.clocks),
                                          room.rated(),
                                          player_rating(room.seat(Color::Red).rating),
                                          player_rating(room.seat(Color::Black).rating)};
                started.spectator_delay = static_cast<std::uint32_t>(room.spectator_delay());
                return started;
            } else if constexpr (std::is_same_v<T, server::MoveMade>) {
                return proto::MoveMade{id, v, static_cast<std::uint32_t>(body.ply), to_iccs(body.move),
                                       clock(body.clocks), with_move_id ? body.move_id : 0,
                                       static_cast<std::uint32_t>(body.lag_credit.count())};
            } else if constexpr (std::is_same_v<T, DrawOffered>) {
                return proto::OfferMade{id, v, {proto::OfferKind::Draw, side(body.by)}};
            } else if constexpr (std::is_same_v<T, TakebackRequested>) {
                return proto::OfferMade{id, v, {proto::OfferKind::Takeback, side(body.by)}};
            } else if constexpr (std::is_same_v<T, DrawDeclined>) {
                return proto::OfferAnswered{id, v, proto::OfferKind::Draw, side(body.by), false};
            } else if constexpr (std::is_same_v<T, TakebackDeclined>) {
                return proto::OfferAnswered{id, v, proto::OfferKind::Takeback, side(body.by), false};
            } else if constexpr (std::is_same_v<T, OfferAccepted>) {
                return proto::OfferAnswered{id, v, body.takeback ? proto::OfferKind::Takeback : proto::OfferKind::Draw,
                                            side(body.by), true};
            } else if constexpr (std::is_same_v<T, server::TakebackApplied>) {
                return proto::TakebackApplied{id, v, static_cast<std::uint32_t>(body.plies),
                                              static_cast<std::uint32_t>(body.ply_count), clock(body.clocks)};
            } else if constexpr (std::is_same_v<T, server::ChatLine>) {
                const bool spectators = body.channel == ChatChannel::Spectators;
                return proto::ChatLine{id,
                                       spectators ? 0 : v,
                                       spectators ? proto::ChatChannel::Spectators : proto::ChatChannel::Players,
                                       body.from,
                                       body.side ? std::optional(side(*body.side)) : std::nullopt,
                                       body.text};
            } else if constexpr (std::is_same_v<T, server::GameEnded>) {
                return proto::GameEnded{id, v,
                                        outcome(body.result, body.reason, body.explanation, body.ply_count, body.plies),
                                        clock(body.clocks), rating_change(body.ratings.red),
                                        rating_change(body.ratings.black)};
            } else if constexpr (std::is_same_v<T, RematchOffered>) {
                return proto::OfferMade{id, v, {proto::OfferKind::Rematch, side(body.by)}};
            } else if constexpr (std::is_same_v<T, RematchAnswered>) {
                return proto::OfferAnswered{id, v, proto::OfferKind::Rematch, side(body.by), body.accepted};
            } else if constexpr (std::is_same_v<T, server::RematchStarted>) {
                return proto::RematchStarted{id, v, game_id(body.game)};
            } else if constexpr (std::is_same_v<T, server::GameAborted>) {
                return proto::GameAborted{id, v, body.by ? std::optional(side(*body.by)) : std::nullopt,
                                          body.explanation};
            } else {
                return std::nullopt;
            }
        },
        e.body);
}

std::optional<proto::ServerBody> event(const Room& room, const Event& e, bool with_move_id) {
    if (auto re = room_event(room, e, with_move_id))
        return std::visit([](auto&& x) -> proto::ServerBody { return std::move(x); }, std::move(*re));
    const proto::GameId id = game_id(room.id());
    if (const auto* count = std::get_if<server::SpectatorCount>(&e.body))
        return proto::SpectatorCount{id, static_cast<std::uint32_t>(count->count)};
    const auto connection = [&](Color c, bool connected) {
        proto::PlayerConnection out{id, side(c), {room.seat(c).name, connected, std::nullopt}};
        player_extras(room, c, out.player);
        out.player.lag_ms = static_cast<std::uint32_t>(room.seat(c).lag.count());
        return out;
    };
    if (const auto* c = std::get_if<server::PlayerConnection>(&e.body)) {
        auto out = connection(c->color, c->connected);
        if (c->grace) out.player.grace_ms = static_cast<proto::Millis>(c->grace->count());
        return out;
    }
    if (const auto* j = std::get_if<PlayerJoined>(&e.body)) return connection(j->color, true);
    return std::nullopt;
}

ArchivedGame archived(const FinishedGame& g) {
    ArchivedGame out;
    out.id = g.id;
    out.red_name = g.red;
    out.black_name = g.black;
    out.red_account = g.red_account;
    out.black_account = g.black_account;
    out.time_control = {duration_cast<std::chrono::seconds>(g.time_control.base).count(),
                        duration_cast<std::chrono::seconds>(g.time_control.increment).count(),
                        g.time_control.move_cap ? duration_cast<std::chrono::seconds>(*g.time_control.move_cap).count()
                                                : 0};
    out.start_fen = g.start_fen;
    for (const auto& m : g.moves) out.moves += (out.moves.empty() ? "" : " ") + m;
    out.result = g.result;
    out.reason = g.reason;
    out.explanation = g.explanation;
    out.pgn = g.pgn;
    out.started_at_ms = unix_ms(g.started_at);
    out.ended_at_ms = unix_ms(g.ended_at);
    out.is_private = g.is_private;
    out.rated = g.rated;
    return out;
}

proto::ArchiveEntry archive_entry(const ArchiveSummary& s) {
    proto::ArchiveEntry e{game_id(s.id), s.red_name, s.black_name, record_time_control(s.time_control),
                          outcome(s.result, s.reason, "", s.ply_count, {}), s.ended_at_ms};
    e.rated = s.rated;
    // Accounts by name as registered would cost a lookup per row: the key is the name lower-cased.
    e.red_account = s.red_account;
    e.black_account = s.black_account;
    if (s.red_before && s.red_after) e.red_change = proto::RatingChange{*s.red_before, *s.red_after, s.red_provisional};
    if (s.black_before && s.black_after)
        e.black_change = proto::RatingChange{*s.black_before, *s.black_after, s.black_provisional};
    return e;
}

std::string archive_key(const ArchiveKey& key) { return std::to_string(key.ended_at_ms) + "." + key.id; }

std::optional<ArchiveKey> parse_archive_key(std::string_view text) {
    const auto dot = text.find('.');
    if (dot == std::string_view::npos || dot == 0) return std::nullopt;
    ArchiveKey key;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + dot, key.ended_at_ms);
    if (ec != std::errc{} || end != text.data() + dot) return std::nullopt;
    key.id = std::string(text.substr(dot + 1));
    // Room ids are 12 hex digits (wire::room_id); anything else names no game.
    if (key.id.size() != 12 || key.id.find_first_not_of("0123456789abcdef") != std::string::npos) return std::nullopt;
    return key;
}

proto::ArchivedGame archived_game(const ArchivedGame& g) {
    proto::ArchivedGame out;
    std::istringstream words(g.moves);
    for (std::string m; words >> m;) out.moves.push_back(m);
    out.entry = {game_id(g.id), g.red_name, g.black_name, record_time_control(g.time_control),
                 outcome(g.result, g.reason, g.explanation, static_cast<int>(out.moves.size()), {}), g.ended_at_ms};
    out.start_fen = g.start_fen;
    out.pgn = g.pgn;
    return out;
}

}  // namespace xq::server::wire
