// Games against the computer at the player's time control. The server's bots (server/app/
// bot_keeper.h) connect like any client, say their level in Hello, and host an open game while
// idle. A player's CreateGame{computer_level = N} takes an idle bot of level N out of its open game
// and seats it in the player's new game, which starts at once. The bot learns the time control
// from GameStarted, as in any game, so bots need no other protocol, and a server needs only one bot
// per level to offer every time control.

#include "proto/types.h"
#include "server/dispatch/dispatcher.h"
#include "server/dispatch/wire.h"

namespace xq::server {

using PE = proto::ErrorCode;

// A connected bot of `level` that waits in the lobby (not playing); the first found.
Dispatcher::Client* Dispatcher::idle_computer(std::uint32_t level) {
    for (auto& [who, client] : clients_)
        if (client.greeted && client.computer_level == level && waiting_room(client)) return &client;
    return nullptr;
}

void Dispatcher::on_create_vs_computer(Client& c, std::uint64_t rid, const proto::CreateGame& m,
                                       const TimeControl& control, ColorChoice color) {
    const std::uint32_t level = m.computer_level;
    if (level > kMaxComputerLevel)
        return send(c, wire::error(rid, PE::BadRequest, "the computer's level must be 1 to 8"));
    if (m.is_private) return send(c, wire::error(rid, PE::BadRequest, "a game against the computer is not private"));
    if (c.computer_level != 0) return send(c, wire::error(rid, PE::BadRequest, "a computer cannot ask for a computer"));
    // Checked before the bot's game is touched: the lobby would refuse the new game afterwards.
    if (lobby_.is_waiting(c.peer->id()))
        return send(c, wire::error(rid, PE::AlreadySeated, "you are waiting for a quick match; cancel it first"));
    Client* bot = idle_computer(level);
    if (!bot)
        return send(c, wire::error(rid, PE::NoComputer,
                                   "no computer of level " + std::to_string(level) + " is free on this server"));

    // The bot's open game gives way; whoever watched it hears it was cancelled. The bot itself is
    // told nothing: the Seated below replaces its seat.
    const RoomId open = *waiting_room(*bot);
    const ParticipantId bot_id = bot->peer->id();
    const Room* room = lobby_.find(open);
    const std::uint64_t version = room->version();
    const auto host = room->seat_of(bot_id);
    if (auto cancelled = lobby_.cancel_game(open, bot_id); !cancelled) return send(c, wire::error(rid, cancelled.error()));
    members_[open].erase(bot_id);
    tell_cancelled(open, version, host, "The computer went to play another game.");
    forget_room(open);
    bot->rooms.erase(open);

    auto created = lobby_.create({c.name, c.peer->id(), control, color, false, m.rated}, now());
    if (!created) return send(c, wire::error(rid, created.error()));
    enter(c, created->id, Role::Player);
    mark_accounts(created->id);
    const proto::GameId game = wire::game_id(created->id);
    send(c, {rid, proto::Seated{game, wire::side(created->color), "", created->token}});
    broadcast(created->id, created->events);

    auto seated = lobby_.join(created->id, bot->name, bot_id, "", now());
    if (!seated) return send(c, wire::error(rid, seated.error(), game));
    enter(*bot, created->id, Role::Player);
    send(*bot, {0, proto::Seated{game, wire::side(seated->joined.color), "", seated->joined.token}});
    mark_accounts(created->id);  // the computer's account and rating, before its start is shown
    broadcast(created->id, seated->joined.events);
}

}  // namespace xq::server
