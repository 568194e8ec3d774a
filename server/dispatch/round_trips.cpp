// Round trips (issue 19): the server pings each seated player of a live game when it starts and
// after each move, so the measure is taken on the path a move takes (the MoveMade, then the
// Ping, leave in the same turn) and is fresh when the next move's lag is credited. One Ping is
// outstanding per connection: a client that does not answer is pinged again only after
// kPingRetry, so the server never queues Pings to a dead link. Pongs get no reply.

#include <chrono>

#include "server/dispatch/dispatcher.h"
#include "server/dispatch/wire.h"

namespace xq::server {
namespace {

constexpr auto kPingRetry = std::chrono::seconds(10);

}  // namespace

bool Dispatcher::answers_ping(const Client& c, const proto::ClientBody& body) {
    const auto* pong = std::get_if<proto::Pong>(&body);
    return pong && c.ping && c.ping->nonce == pong->nonce;
}

void Dispatcher::ping_players(const RoomId& id) {
    const Room* room = lobby_.find(id);
    if (!room || room->status() != Status::Playing) return;
    for (Color c : {Color::Red, Color::Black}) {
        const Seat& s = room->seat(c);
        if (!s.taken || !s.connected) continue;
        if (auto client = clients_.find(s.participant); client != clients_.end()) ping(client->second);
    }
}

void Dispatcher::ping(Client& c) {
    if (c.ping && now() - c.ping->sent < kPingRetry) return;
    c.ping = Client::PendingPing{random_() | 1, now()};
    send(c, {0, proto::Ping{c.ping->nonce}});
}

// A Pong that answers no Ping of ours (unknown, late or repeated nonce) is ignored.
void Dispatcher::on_pong(Client& c, const proto::Pong& m) {
    if (!answers_ping(c, m)) return;
    c.round_trip.record(std::chrono::duration_cast<Millis>(now() - c.ping->sent));
    c.ping.reset();
    const ParticipantId who = c.peer->id();
    for (const RoomId& id : c.rooms) {
        Room* room = lobby_.find(id);
        if (!room || room->status() != Status::Playing) continue;
        if (const auto side = room->seat_of(who)) {
            const Events events = room->set_lag(*side, c.round_trip.estimate(), now());
            if (!events.empty()) broadcast(id, events);
        }
    }
}

}  // namespace xq::server
