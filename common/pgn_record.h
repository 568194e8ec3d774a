#pragma once
// The record of a played game as PGN with its full tags, written the same way wherever a game is
// saved: the server's archive and the client's Save PGN. Pure: the caller supplies the date, the
// server's name and the result.

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "outcome.h"
#include "pgn.h"

namespace xq {

struct GameRecordTags {
    std::string event;             // "Online game 42"
    std::string site;              // the server's name; no tag when empty
    std::chrono::sys_days date{};  // the day the game started (UTC)
    std::string red;
    std::string black;
    std::string time_control;  // pgn_time_control(); no tag when empty
    Result result = Result::Ongoing;
    std::string termination;  // to_string(Reason), "resignation", ...; no tag when empty
    std::string explanation;  // the ruling's sentence, written as the last comment
    // The accounts each side played from (a server's archive); no tag when empty (a guest).
    std::string red_account = {};
    std::string black_account = {};
};

// Event, Site, Date, Red, Black, RedAccount, BlackAccount, TimeControl, Termination and Result tags (FEN when `start` is not
// the standard one), the moves, and the explanation after the last move.
PgnGame game_record(const Position& start, std::span<const Move> moves, const GameRecordTags& tags);

// "2026.03.14", PGN's date format.
std::string pgn_date(std::chrono::sys_days day);
// "1-0", "0-1", "1/2-1/2"; "*" while ongoing.
std::string_view pgn_result(Result r);
// "300+5" (seconds), with "/30" for a 30 s cap per move, fractions only when needed ("0.5+0").
std::string pgn_time_control(std::chrono::milliseconds base, std::chrono::milliseconds increment,
                             std::optional<std::chrono::milliseconds> move_cap);

}  // namespace xq
