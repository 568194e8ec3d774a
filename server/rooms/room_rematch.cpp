// Room: the rematch offer after a game ended. The new game itself is the lobby's (the dispatcher
// starts it, server/dispatch/rematch.cpp); this room only records the offer and where it led.

#include "server/rooms/room.h"

namespace xq::server {
namespace {

std::unexpected<Error> fail(ErrorCode code, std::string detail) {
    return std::unexpected(Error{code, std::move(detail)});
}

}  // namespace

std::expected<Color, Error> Room::rematch_player(ParticipantId who) const {
    const auto us = player(who);
    if (!us) return us;
    if (status_ != Status::Finished)
        return fail(status_ == Status::Aborted ? ErrorCode::NoRematch : ErrorCode::GameNotStarted,
                    status_ == Status::Aborted ? "an aborted game has no rematch" : "the game has not ended yet");
    if (!rematch_game_.empty()) return fail(ErrorCode::NoRematch, "this game's rematch was already played");
    if (!seat(~*us).connected) return fail(ErrorCode::NoRematch, "your opponent has left");
    return us;
}

Reply Room::offer_rematch(ParticipantId who) {
    const auto us = rematch_player(who);
    if (!us) return std::unexpected(us.error());
    Events out;
    if (rematch_offer_ == *us) return out;  // already offered
    rematch_offer_ = *us;
    emit(out, RematchOffered{*us});
    return out;
}

Reply Room::decline_rematch(ParticipantId who) {
    const auto us = rematch_player(who);
    if (!us) return std::unexpected(us.error());
    if (!rematch_offer_) return fail(ErrorCode::NoPendingOffer, "there is no rematch offer to decline");
    if (*rematch_offer_ == *us) return fail(ErrorCode::CannotAnswerOwnOffer, "you cannot decline your own offer");
    rematch_offer_.reset();
    Events out;
    emit(out, RematchAnswered{*us, false});
    return out;
}

std::expected<Color, Error> Room::rematch_accepted(ParticipantId who) const {
    const auto us = rematch_player(who);
    if (!us) return us;
    if (!rematch_offer_) return fail(ErrorCode::NoPendingOffer, "there is no rematch offer to accept");
    if (*rematch_offer_ == *us) return fail(ErrorCode::CannotAnswerOwnOffer, "you cannot accept your own offer");
    return us;
}

Events Room::rematch_started(Color acceptor, RoomId game) {
    rematch_offer_.reset();
    rematch_game_ = std::move(game);
    Events out;
    emit(out, RematchAnswered{acceptor, true});
    emit(out, RematchStarted{rematch_game_});
    return out;
}

}  // namespace xq::server
