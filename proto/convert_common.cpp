// The shared types <-> generated classes, and the enum names.
#include <array>
#include <string>

#include "convert.h"

namespace xq::proto {

namespace {

constexpr std::array<std::string_view, kErrorCodeCount> kErrorNames = {
    "unspecified",
    "unsupported_version",
    "hello_required",
    "bad_request",
    "no_such_game",
    "game_full",
    "wrong_join_code",
    "already_seated",
    "not_a_player",
    "not_your_turn",
    "illegal_move",
    "invalid_move_syntax",
    "banned_by_repetition",
    "stale_position",
    "game_over",
    "game_not_started",
    "already_started",
    "no_pending_offer",
    "offer_already_pending",
    "nothing_to_take_back",
    "claim_not_allowed",
    "chat_too_long",
    "rate_limited",
    "bad_token",
    "frame_too_large",
    "malformed_frame",
    "unknown_message",
    "internal",
    "no_computer",
    "name_taken",
    "bad_name",
    "bad_credentials",
    "account_required",
    "accounts_disabled",
    "weak_password",
    "try_later",
    "already_greeted",
    "too_many_games",
    "bad_text",
    "no_such_account",
    "no_rematch",
    "watch_only",
};

}  // namespace

std::string_view code_name(ErrorCode code) {
    const auto i = static_cast<std::size_t>(code);
    return i < kErrorNames.size() ? kErrorNames[i] : "unspecified";
}

std::string_view to_string(Side side) { return side == Side::Red ? "red" : "black"; }

std::string_view to_string(GameResult r) {
    switch (r) {
        case GameResult::Ongoing:
            return "ongoing";
        case GameResult::RedWins:
            return "red_wins";
        case GameResult::BlackWins:
            return "black_wins";
        case GameResult::Draw:
            return "draw";
    }
    return "ongoing";
}

namespace detail {

// The plain enums and ErrorCode share their numbering with the schema; keep them in step.
static_assert(pb::SIDE_RED == 1 && pb::SIDE_BLACK == 2);
static_assert(pb::COLOR_CHOICE_RANDOM == 0 && pb::COLOR_CHOICE_BLACK == 2);
static_assert(pb::GAME_STATUS_WAITING == 1 && pb::GAME_STATUS_ABORTED == 4);
static_assert(pb::GAME_RESULT_ONGOING == 0 && pb::GAME_RESULT_DRAW == 3);
static_assert(pb::OFFER_KIND_DRAW == 1 && pb::OFFER_KIND_TAKEBACK == 2 && pb::OFFER_KIND_REMATCH == 3);
static_assert(pb::SPEED_BULLET == 1 && pb::SPEED_CLASSICAL == kSpeedCount);
static_assert(pb::Error::NO_REMATCH == static_cast<int>(ErrorCode::NoRematch));
static_assert(pb::Error::WATCH_ONLY == static_cast<int>(ErrorCode::WatchOnly));
static_assert(pb::CHAT_CHANNEL_PLAYERS == 1 && pb::CHAT_CHANNEL_SPECTATORS == 2);
static_assert(pb::CLAIM_KIND_WIN == 1 && pb::CLAIM_KIND_DRAW == 2);
static_assert(pb::ACCOUNTS_OPTIONAL == 0 && pb::ACCOUNTS_REQUIRED == 1 && pb::ACCOUNTS_OFF == 2);
static_assert(pb::Error::TRY_LATER == static_cast<int>(ErrorCode::TryLater));
static_assert(pb::Error_Code_Code_ARRAYSIZE == kErrorCodeCount);
static_assert(pb::Error::INTERNAL == static_cast<int>(ErrorCode::Internal));
static_assert(pb::Error::CLAIM_NOT_ALLOWED == static_cast<int>(ErrorCode::ClaimNotAllowed));

void Reader::fail(std::string_view field, int wire_value) {
    if (error_) return;
    error_ =
        DecodeError{DecodeErrorCode::InvalidValue,
                    std::string(field) + ": value " + std::to_string(wire_value) + " is out of range", 0};
}

void fill(pb::Ping& out, const Ping& in) { out.set_nonce(in.nonce); }
Ping read(const pb::Ping& in, Reader&) { return Ping{in.nonce()}; }
void fill(pb::Pong& out, const Pong& in) { out.set_nonce(in.nonce); }
Pong read(const pb::Pong& in, Reader&) { return Pong{in.nonce()}; }

void fill(pb::TimeControl& out, const TimeControl& in) {
    out.set_base_minutes(in.base_minutes);
    out.set_increment_seconds(in.increment_seconds);
    if (in.move_cap_seconds) out.set_move_cap_seconds(*in.move_cap_seconds);
}

TimeControl read(const pb::TimeControl& in, Reader&) {
    TimeControl out{in.base_minutes(), in.increment_seconds(), std::nullopt};
    if (in.has_move_cap_seconds()) out.move_cap_seconds = in.move_cap_seconds();
    return out;
}

void fill(pb::Clock& out, const Clock& in) {
    out.set_red_ms(in.red_ms);
    out.set_black_ms(in.black_ms);
    out.set_running(wire_side(in.running));
    if (in.move_cap_ms) out.set_move_cap_ms(*in.move_cap_ms);
    if (in.first_move_ms) out.set_first_move_ms(*in.first_move_ms);
}

Clock read(const pb::Clock& in, Reader& r) {
    Clock out{in.red_ms(), in.black_ms(), r.side(in.running(), "clock.running"), std::nullopt, std::nullopt};
    if (in.has_move_cap_ms()) out.move_cap_ms = in.move_cap_ms();
    if (in.has_first_move_ms()) out.first_move_ms = in.first_move_ms();
    return out;
}

void fill(pb::PlayerInfo& out, const PlayerInfo& in) {
    out.set_name(in.name);
    out.set_connected(in.connected);
    if (in.grace_ms) out.set_grace_ms(*in.grace_ms);
    if (in.rating) fill(*out.mutable_rating(), *in.rating);
    out.set_lag_ms(in.lag_ms);
    out.set_computer(in.computer);
}

PlayerInfo read(const pb::PlayerInfo& in, Reader& r) {
    PlayerInfo out{in.name(), in.connected(), std::nullopt};
    if (in.has_grace_ms()) out.grace_ms = in.grace_ms();
    if (in.has_rating()) out.rating = read(in.rating(), r);
    out.lag_ms = in.lag_ms();
    out.computer = in.computer();
    return out;
}

void fill(pb::PlayerRating& out, const PlayerRating& in) {
    out.set_rating(in.rating);
    out.set_deviation(in.deviation);
    out.set_provisional(in.provisional);
}

PlayerRating read(const pb::PlayerRating& in, Reader&) {
    return PlayerRating{in.rating(), in.deviation(), in.provisional()};
}

void fill(pb::RatingChange& out, const RatingChange& in) {
    out.set_before(in.before);
    out.set_after(in.after);
    out.set_provisional(in.provisional);
}

RatingChange read(const pb::RatingChange& in, Reader&) {
    return RatingChange{in.before(), in.after(), in.provisional()};
}

void fill(pb::Outcome& out, const Outcome& in) {
    out.set_result(wire<pb::GameResult>(in.result));
    out.set_reason(in.reason);
    out.set_explanation(in.explanation);
    out.set_ply(in.ply);
    out.mutable_cycle_plies()->Add(in.cycle_plies.begin(), in.cycle_plies.end());
}

Outcome read(const pb::Outcome& in, Reader& r) {
    return Outcome{r.get<GameResult>(in.result(), "outcome.result"),
                   in.reason(),
                   in.explanation(),
                   in.ply(),
                   {in.cycle_plies().begin(), in.cycle_plies().end()}};
}

void fill(pb::Offer& out, const Offer& in) {
    out.set_kind(wire<pb::OfferKind>(in.kind));
    out.set_side(wire<pb::Side>(in.side));
}

Offer read(const pb::Offer& in, Reader& r) {
    return Offer{r.get<OfferKind>(in.kind(), "offer.kind"), r.get<Side>(in.side(), "offer.side")};
}

void fill(pb::GameSummary& out, const GameSummary& in) {
    out.set_game_id(in.game_id);
    out.set_status(wire<pb::GameStatus>(in.status));
    out.set_host(in.host);
    out.set_host_color(wire<pb::ColorChoice>(in.host_color));
    out.set_red(in.red);
    out.set_black(in.black);
    fill(*out.mutable_time_control(), in.time_control);
    out.set_plies(in.plies);
    out.set_spectators(in.spectators);
    out.set_is_private(in.is_private);
    out.set_rated(in.rated);
    if (in.host_rating) fill(*out.mutable_host_rating(), *in.host_rating);
    if (in.red_rating) fill(*out.mutable_red_rating(), *in.red_rating);
    if (in.black_rating) fill(*out.mutable_black_rating(), *in.black_rating);
    out.set_spectator_delay(in.spectator_delay);
    out.set_fen(in.fen);
    out.set_last_move(in.last_move);
    if (in.clock) fill(*out.mutable_clock(), *in.clock);
}

GameSummary read(const pb::GameSummary& in, Reader& r) {
    GameSummary out{in.game_id(),
                       r.get<GameStatus>(in.status(), "game_summary.status"),
                       in.host(),
                       r.get<ColorChoice>(in.host_color(), "game_summary.host_color"),
                       in.red(),
                       in.black(),
                       read(in.time_control(), r),
                       in.plies(),
                       in.spectators(),
                       in.is_private()};
    out.rated = in.rated();
    if (in.has_host_rating()) out.host_rating = read(in.host_rating(), r);
    if (in.has_red_rating()) out.red_rating = read(in.red_rating(), r);
    if (in.has_black_rating()) out.black_rating = read(in.black_rating(), r);
    out.spectator_delay = in.spectator_delay();
    out.fen = in.fen();
    out.last_move = in.last_move();
    if (in.has_clock()) out.clock = read(in.clock(), r);
    return out;
}

void fill(pb::ArchiveEntry& out, const ArchiveEntry& in) {
    out.set_game_id(in.game_id);
    out.set_red(in.red);
    out.set_black(in.black);
    fill(*out.mutable_time_control(), in.time_control);
    fill(*out.mutable_outcome(), in.outcome);
    out.set_ended_at_ms(in.ended_at_ms);
    out.set_rated(in.rated);
    out.set_red_account(in.red_account);
    out.set_black_account(in.black_account);
    if (in.red_change) fill(*out.mutable_red_change(), *in.red_change);
    if (in.black_change) fill(*out.mutable_black_change(), *in.black_change);
}

ArchiveEntry read(const pb::ArchiveEntry& in, Reader& r) {
    ArchiveEntry out{in.game_id(),          in.red(),        in.black(), read(in.time_control(), r),
                     read(in.outcome(), r), in.ended_at_ms()};
    out.rated = in.rated();
    out.red_account = in.red_account();
    out.black_account = in.black_account();
    if (in.has_red_change()) out.red_change = read(in.red_change(), r);
    if (in.has_black_change()) out.black_change = read(in.black_change(), r);
    return out;
}

}  // namespace detail
}  // namespace xq::proto
