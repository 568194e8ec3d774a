// Room: the game itself. Moves (with exactly-once ids, stale-ply and repetition-ban checks), draw
// offers, takebacks, resignation, abort and loss on time. Policies are described in room.h.

#include <algorithm>

#include "common/iccs.h"
#include "common/movegen.h"
#include "server/rooms/room.h"

namespace xq::server {
namespace {

std::string side_name(Color c) { return c == Color::Red ? "Red" : "Black"; }

std::unexpected<Error> fail(ErrorCode code, std::string detail) {
    return std::unexpected(Error{code, std::move(detail)});
}

}  // namespace

std::expected<MoveDone, Error> Room::move(ParticipantId who, MoveId move_id, int expected_ply,
                                          std::string_view iccs, TimePoint now, Millis lag) {
    const auto seat_color = player(who);
    if (!seat_color) return std::unexpected(seat_color.error());
    const Color us = *seat_color;
    const auto seat = static_cast<std::size_t>(index_of(us));
    auto& acks = acks_[seat];
    // A retransmitted move (the client lost our reply) gets its original acknowledgement.
    if (!acks.empty() && move_id <= highest_ack_id_[seat])
        if (auto it = std::ranges::find(acks, move_id, &Ack::id); it != acks.end())
            return MoveDone{ack_event(it->version), {}, true};
    // Refusals in the protocol's order: seat, started, over, stale, turn, syntax, legality, ban.
    if (auto ok = playing(who); !ok) return std::unexpected(ok.error());
    if (clock_.flag_fallen(now))
        return fail(ErrorCode::GameOver, "the game is over: " + side_name(*clock_.turn()) + "'s time ran out");
    if (const auto due = first_move_deadline(); due && now >= *due)
        return fail(ErrorCode::GameOver, "the game is over: " + side_name(game_.position().side_to_move()) +
                                             "'s first move did not come in time");
    if (expected_ply != game_.ply_count())
        return fail(ErrorCode::StalePosition, "the game is at ply " + std::to_string(game_.ply_count()) +
                                                  ", not " + std::to_string(expected_ply));
    if (game_.position().side_to_move() != us)
        return fail(ErrorCode::NotYourTurn, "it is " + side_name(~us) + "'s turn");
    const auto m = parse_iccs(iccs);
    if (!m) return fail(ErrorCode::InvalidMoveSyntax, "'" + std::string(iccs) + "' is not a move like h2e2");
    if (!is_legal(game_.position(), *m))
        return fail(ErrorCode::IllegalMove, to_iccs(*m) + " is not a legal move for " + side_name(us));
    if (auto ban = game_.ban_for(*m))
        return std::unexpected(Error{ErrorCode::BannedByRepetition, ban->explanation, ban->reason});

    [[maybe_unused]] const auto played = game_.play(*m);
    Events out;
    Millis credit{};
    if (game_.is_over()) {
        clock_.stop(now);
        first_move_since_.reset();
    } else {
        if (game_.ply_count() < 2) {
            await_first_move(now);  // the other side's first move is next
        } else if (first_move_since_) {
            first_move_since_.reset();
            clock_.start(game_.position().side_to_move(), now);  // both have moved: the clocks start
        } else {
            LagQuota& quota = lag_quota_[seat];
            credit = std::chrono::duration_cast<Millis>(clock_.switch_side(now, quota.offer(lag)));
            quota.on_move(credit);
        }
        clock_history_.resize(static_cast<std::size_t>(game_.ply_count()));
        clock_history_.push_back(clock_.remaining(now));
    }
    if (game_.ply_count() >= 2) both_moved_ = true;
    emit(out, MoveMade{game_.ply_count(), *m, reading(now), move_id, us, credit});
    Event ack = out.back();
    acks.push_back({move_id, ack.version});
    highest_ack_id_[seat] = std::max(highest_ack_id_[seat], move_id);
    if (acks.size() > kMoveIdsKept) {  // games this long are rare
        forget_ack(acks.front().version);
        acks.erase(acks.begin());
    }
    clear_offers_after_move(out, us);
    if (game_.is_over()) finish(out, now);
    return MoveDone{std::move(ack), std::move(out), false};
}

// A move answers the opponent's draw offer (declined) and cancels any takeback request.
void Room::clear_offers_after_move(Events& out, Color mover) {
    if (draw_offer_ && *draw_offer_ != mover) {
        draw_offer_.reset();
        emit(out, DrawDeclined{mover, true});
    }
    if (takeback_by_) {
        takeback_by_.reset();
        emit(out, TakebackDeclined{mover, true});
    }
}

void Room::finish(Events& out, TimePoint now) {
    clock_.stop(now);
    first_move_since_.reset();
    status_ = Status::Finished;
    ended_at_ = now;
    draw_offer_.reset();
    takeback_by_.reset();
    const GameOutcome& o = game_.outcome();
    const RatingShifts ratings = on_end_ ? on_end_(*this, now) : RatingShifts{};
    emit(out, GameEnded{o.result, o.reason, o.explanation, o.plies, game_.ply_count(), reading(now), ratings});
}

Reply Room::resign(ParticipantId who, TimePoint now) {
    const auto us = playing(who);
    if (!us) return std::unexpected(us.error());
    Events out;
    [[maybe_unused]] const auto done = game_.resign(*us);
    finish(out, now);
    return out;
}

Reply Room::offer_draw(ParticipantId who, TimePoint now) {
    const auto us = playing(who);
    if (!us) return std::unexpected(us.error());
    if (draw_offer_ == ~*us) return accept_draw(who, now);  // both want a draw
    Events out;
    if (!draw_offer_) {
        draw_offer_ = *us;
        emit(out, DrawOffered{*us});
    }
    return out;
}

Reply Room::accept_draw(ParticipantId who, TimePoint now) {
    const auto us = playing(who);
    if (!us) return std::unexpected(us.error());
    if (!draw_offer_) return fail(ErrorCode::NoPendingOffer, "there is no draw offer to accept");
    if (*draw_offer_ == *us)
        return fail(ErrorCode::CannotAnswerOwnOffer, "you cannot accept your own draw offer");
    Events out;
    emit(out, OfferAccepted{false, *us});
    [[maybe_unused]] const auto done = game_.agree_draw();
    finish(out, now);
    return out;
}

Reply Room::decline_draw(ParticipantId who) {
    const auto us = playing(who);
    if (!us) return std::unexpected(us.error());
    if (!draw_offer_) return fail(ErrorCode::NoPendingOffer, "there is no draw offer to decline");
    if (*draw_offer_ == *us)
        return fail(ErrorCode::CannotAnswerOwnOffer, "you cannot decline your own draw offer");
    Events out;
    draw_offer_.reset();
    emit(out, DrawDeclined{*us, false});
    return out;
}

Reply Room::request_takeback(ParticipantId who) {
    const auto us = playing(who);
    if (!us) return std::unexpected(us.error());
    // The requester's last move, plus the opponent's reply when it is the requester's turn again.
    const int plies = game_.position().side_to_move() == *us ? 2 : 1;
    if (game_.ply_count() < plies) return fail(ErrorCode::NothingToTakeBack, "you have not moved yet");
    Events out;
    if (takeback_by_ == *us) return out;
    if (takeback_by_) emit(out, TakebackDeclined{*us, false});  // a counter-request replaces theirs
    takeback_by_ = *us;
    takeback_plies_ = plies;
    emit(out, TakebackRequested{*us});
    return out;
}

Reply Room::accept_takeback(ParticipantId who, TimePoint now) {
    const auto us = playing(who);
    if (!us) return std::unexpected(us.error());
    if (!takeback_by_) return fail(ErrorCode::NoPendingOffer, "there is no takeback request to accept");
    if (*takeback_by_ == *us)
        return fail(ErrorCode::CannotAnswerOwnOffer, "your opponent decides on your takeback request");
    [[maybe_unused]] const auto done = game_.takeback(takeback_plies_);
    clock_history_.resize(static_cast<std::size_t>(game_.ply_count()) + 1);
    if (!both_moved_)
        await_first_move(now);  // the clocks never started: the first move is awaited again
    else
        clock_.reset(clock_history_.back(), game_.position().side_to_move(), now);
    takeback_by_.reset();
    draw_offer_.reset();
    Events out;
    emit(out, OfferAccepted{true, *us});
    emit(out, TakebackApplied{takeback_plies_, game_.ply_count(), reading(now)});
    return out;
}

Reply Room::decline_takeback(ParticipantId who) {
    const auto us = playing(who);
    if (!us) return std::unexpected(us.error());
    if (!takeback_by_) return fail(ErrorCode::NoPendingOffer, "there is no takeback request to decline");
    if (*takeback_by_ == *us)
        return fail(ErrorCode::CannotAnswerOwnOffer, "your opponent decides on your takeback request");
    takeback_by_.reset();
    Events out;
    emit(out, TakebackDeclined{*us, false});
    return out;
}

Reply Room::abort(ParticipantId who, TimePoint now) {
    const auto us = playing(who);
    if (!us) return std::unexpected(us.error());
    if (both_moved_)
        return fail(ErrorCode::AbortTooLate, "both sides have moved: resign or offer a draw instead");
    Events out;
    end_aborted(out, *us, side_name(*us) + " aborted the game.", now);
    return out;
}

void Room::end_aborted(Events& out, std::optional<Color> by, std::string explanation, TimePoint now) {
    clock_.stop(now);
    first_move_since_.reset();
    status_ = Status::Aborted;
    ended_at_ = now;
    draw_offer_.reset();
    takeback_by_.reset();
    emit(out, GameAborted{by, std::move(explanation)});
}

Reply Room::claim(ParticipantId who, bool win, TimePoint now) {
    const auto us = playing(who);
    if (!us) return std::unexpected(us.error());
    const auto left = grace_left(~*us, now);
    if (!left)
        return fail(ErrorCode::ClaimNotAllowed, "your opponent is connected");
    if (*left > Millis{})
        return fail(ErrorCode::ClaimNotAllowed, "your opponent may still come back for another " +
                                                    std::to_string((left->count() + 999) / 1000) + " s");
    Events out;
    [[maybe_unused]] const auto done = game_.abandon(~*us, !win);
    finish(out, now);
    return out;
}

Reply Room::check_flag(TimePoint now) {
    Events out;
    if (const auto due = first_move_deadline(); due && now >= *due) {
        const Color late = game_.position().side_to_move();
        end_aborted(out, std::nullopt, side_name(late) + " did not make a first move in time: the game is aborted.",
                    now);
        return out;
    }
    if (status_ != Status::Playing || !clock_.flag_fallen(now)) return out;
    const Color loser = *clock_.turn();
    clock_.stop(now);
    [[maybe_unused]] const auto done = game_.flag(loser);
    finish(out, now);
    return out;
}

}  // namespace xq::server
