#pragma once
// The record of a finished game that the lobby hands to the archive (the SQLite store).

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "server/rooms/room.h"

namespace xq::server {

using WallTime = std::chrono::system_clock::time_point;

struct FinishedGame {
    RoomId id;
    std::string red;
    std::string black;
    TimeControl time_control;
    std::string start_fen;
    std::vector<std::string> moves;  // ICCS
    Result result = Result::Ongoing;
    Reason reason = Reason::None;
    std::string explanation;
    std::string pgn;  // xqbase style, Chinese move text (common/pgn.h write_pgn)
    WallTime started_at;
    WallTime ended_at;
    bool is_private = false;  // kept out of the public archive (Store::list_archived)
    std::string red_account = {};  // account keys; "" for guests
    std::string black_account = {};
    bool rated = false;  // created rated; its ratings change if both sides are accounts (rating_book.h)
};

// Receives each finished game once. The server wires it to the SQLite store; it answers with the
// rating changes the game made (none for a casual game).
using ArchiveSink = std::function<RatingShifts(const FinishedGame&)>;

// The record of a room whose game has ended with a result, stamped with wall-clock times; `site`
// (the server's name) is its PGN's Site tag.
FinishedGame make_finished_game(const Room& room, WallTime started_at, WallTime ended_at,
                                const std::string& site = {});

}  // namespace xq::server
