#pragma once
// Protocol values in the client model's words, and back.

#include <optional>

#include "client/model/game_model.h"
#include "client/model/lobby_model.h"
#include "proto/messages.h"

namespace xq::client {

inline Color to_color(proto::Side side) { return side == proto::Side::Red ? Color::Red : Color::Black; }
inline std::optional<Color> to_color(std::optional<proto::Side> side) {
    if (!side) return std::nullopt;
    return to_color(*side);
}
inline OfferType to_offer(proto::OfferKind kind) {
    return kind == proto::OfferKind::Draw       ? OfferType::Draw
           : kind == proto::OfferKind::Rematch ? OfferType::Rematch
                                                : OfferType::Takeback;
}
inline proto::OfferKind to_proto(OfferType kind) {
    return kind == OfferType::Draw       ? proto::OfferKind::Draw
           : kind == OfferType::Rematch ? proto::OfferKind::Rematch
                                        : proto::OfferKind::Takeback;
}
inline RatingView to_rating(const proto::PlayerRating& r) { return {r.rating, r.deviation, r.provisional}; }
inline std::optional<RatingView> to_rating(const std::optional<proto::PlayerRating>& r) {
    if (!r) return std::nullopt;
    return to_rating(*r);
}
inline SpeedPool to_pool(proto::Speed s) { return static_cast<SpeedPool>(static_cast<int>(s)); }
inline proto::Speed to_proto(SpeedPool s) { return static_cast<proto::Speed>(static_cast<int>(s)); }
inline ClockValues to_clock(const proto::Clock& c) {
    return {c.red_ms, c.black_ms, to_color(c.running), c.move_cap_ms, c.first_move_ms};
}
inline TimeControlChoice to_choice(const proto::TimeControl& tc) {
    return {tc.base_minutes, tc.increment_seconds, tc.move_cap_seconds};
}
inline proto::TimeControl to_proto(const TimeControlChoice& tc) {
    return {tc.base_minutes, tc.increment_seconds, tc.move_cap_seconds};
}
inline SeatInfo to_seat(const proto::PlayerInfo& p) {
    return {p.name, p.connected, p.grace_ms, {}, to_rating(p.rating), p.lag_ms};
}
inline Result to_result(proto::GameResult r) {
    switch (r) {
        case proto::GameResult::RedWins: return Result::RedWins;
        case proto::GameResult::BlackWins: return Result::BlackWins;
        case proto::GameResult::Draw: return Result::Draw;
        case proto::GameResult::Ongoing: break;
    }
    return Result::Ongoing;
}
inline ResultInfo to_result(const proto::Outcome& o) { return {to_result(o.result), o.reason, o.explanation}; }

}  // namespace xq::client
