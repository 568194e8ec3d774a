// Rematch (issue 19): after a game ended with a result, either player offers (MakeOffer with
// kind REMATCH) and the other answers (AnswerOffer); offering while the opponent's offer stands
// accepts it. Accepting starts the new game at once, with the old one's settings (time control,
// privacy) and colours swapped: both players get Seated with new resume tokens, then GameStarted,
// and the old room a versioned RematchStarted naming the new game, for its spectators.

#include "server/dispatch/dispatcher.h"
#include "server/dispatch/wire.h"

namespace xq::server {

void Dispatcher::on_rematch(Client& c, std::uint64_t rid, const RoomId& id, bool offer, bool accept) {
    Room* room = lobby_.find(id);
    if (!room) return send(c, wire::error(rid, proto::ErrorCode::NoSuchGame, "no such game", wire::game_id(id)));
    const ParticipantId who = c.peer->id();
    const auto us = room->seat_of(who);
    // An opponent whose connection is no longer in the room is past the point of return, though
    // its seat may still read as connected.
    if (us) {
        const auto opponent = clients_.find(room->seat(~*us).participant);
        if (opponent == clients_.end() || !opponent->second.rooms.contains(id))
            return send(c, wire::error(rid, proto::ErrorCode::NoRematch, "your opponent has left", wire::game_id(id)));
    }
    if (offer && !(us && room->rematch_offer() == ~*us)) {
        auto events = room->offer_rematch(who);
        if (!events) return send(c, wire::error(rid, events.error(), wire::game_id(id)));
        if (events->empty())
            return send(c, wire::error(rid, proto::ErrorCode::OfferAlreadyPending, "that offer is already pending",
                                       wire::game_id(id)));
        return broadcast(id, *events, who, rid);
    }
    if (!offer && !accept) {
        auto events = room->decline_rematch(who);
        if (!events) return send(c, wire::error(rid, events.error(), wire::game_id(id)));
        return broadcast(id, *events, who, rid);
    }
    const auto acceptor = room->rematch_accepted(who);
    if (!acceptor) return send(c, wire::error(rid, acceptor.error(), wire::game_id(id)));
    const Seat& old_red = room->seat(Color::Red);
    const Seat& old_black = room->seat(Color::Black);
    const auto red_client = clients_.find(old_red.participant);
    const auto black_client = clients_.find(old_black.participant);
    if (red_client == clients_.end() || black_client == clients_.end())
        return send(c, wire::error(rid, proto::ErrorCode::NoRematch, "your opponent has left", wire::game_id(id)));
    // The same settings, colours swapped: the old Black hosts as Red, the old Red joins as Black.
    const bool is_private = private_rooms_.contains(id);
    auto created = lobby_.create({old_black.name, old_black.participant, room->time_control(), ColorChoice::Red,
                                  is_private, room->rated(), room->spectator_delay()},
                                 now());
    if (!created) return send(c, wire::error(rid, created.error(), wire::game_id(id)));
    const RoomId fresh = created->id;
    auto joined = lobby_.join(fresh, old_red.name, old_red.participant, created->join_code.value_or(""), now());
    if (!joined) return send(c, wire::error(rid, joined.error(), wire::game_id(id)));
    if (is_private) private_rooms_.insert(fresh);
    Client& new_red = black_client->second;
    Client& new_black = red_client->second;
    enter(new_red, fresh, Role::Player);
    enter(new_black, fresh, Role::Player);
    mark_accounts(fresh);
    const proto::GameId game = wire::game_id(fresh);
    const std::uint64_t red_rid = &new_red == &c ? rid : 0;
    const std::uint64_t black_rid = &new_black == &c ? rid : 0;
    // The acceptor's request is answered by its Seated; the old room's events follow as pushes.
    send(new_red, {red_rid, proto::Seated{game, proto::Side::Red, created->join_code.value_or(""), created->token}});
    send(new_black,
         {black_rid, proto::Seated{game, proto::Side::Black, created->join_code.value_or(""), joined->joined.token}});
    broadcast(fresh, created->events);
    broadcast(fresh, joined->joined.events);
    broadcast(id, room->rematch_started(*acceptor, fresh));
}

}  // namespace xq::server
