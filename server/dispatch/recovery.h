#pragma once
// Crash recovery: every live game in the store is rebuilt as a room in the lobby. Policy (also
// in proto/README.md): moves, seats, tokens, time control and versions come back as journaled;
// clocks were paused while the server was down, so the side to move continues from its time at
// the last journaled event; players are away until they Resume with their tokens, each with a
// full grace period from the restart (then the opponent may claim). Games that
// were still waiting for a second player are not journaled and do not come back.

#include <memory>
#include <string>
#include <vector>

#include "server/rooms/lobby.h"
#include "server/store/store.h"

namespace xq::server {

struct RecoveryReport {
    std::size_t restored = 0;
    std::vector<RoomId> private_rooms;
    std::vector<std::string> errors;  // games that could not be rebuilt (left in the store)
    std::vector<RoomId> rooms;        // the games restored
};

// Rebuilds one game. `previous` (a rollback) keeps its seats' connections.
std::expected<std::unique_ptr<Room>, std::string> restore_room(const RecoverableGame& game, RandomSource random,
                                                               TimePoint now, Millis grace,
                                                               const Room* previous = nullptr);

RecoveryReport recover_games(Store& store, Lobby& lobby, RandomSource random, TimePoint now, Millis grace);
// The same for games read otherwise (a cluster node's takeover of a dead node's games).
RecoveryReport restore_games(const std::vector<RecoverableGame>& games, Lobby& lobby, RandomSource random, TimePoint now,
                             Millis grace);

}  // namespace xq::server
