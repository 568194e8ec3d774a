#pragma once
// What a room is rebuilt from after a crash (or after a journal commit that failed): the started
// game as the journal holds it. Room::restore replays it (room_restore.cpp).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/position.h"
#include "server/rooms/room.h"

namespace xq::server {

struct RestoredSeat {
    std::string name;
    std::string token;  // its hash
    ParticipantId participant = 0;  // 0: nobody connected yet (after a crash)
    bool connected = false;
    std::optional<TimePoint> away_until;  // not connected: when its grace period ends
    std::string account = {};             // the account key; "" for a guest
};

struct RestoredMove {
    std::string iccs;
    MoveId move_id = 0;
    std::array<Millis, 2> clocks{};  // red, black after the move (increment added)
    std::uint64_t version = 0;       // of its MoveMade
};

struct RestoredGame {
    Position start = Position::start();
    std::array<RestoredSeat, 2> seats;  // indexed by index_of(Color)
    std::vector<RestoredMove> moves;
    std::uint64_t version = 0;  // of the last journaled event
    bool rated = false;
    int spectator_delay = 0;
};

}  // namespace xq::server
