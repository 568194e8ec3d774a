#include "server/rooms/finished_game.h"

#include <cstdio>

#include "common/fen.h"
#include "common/iccs.h"
#include "common/pgn.h"

namespace xq::server {
namespace {

std::string pgn_result(Result r) {
    switch (r) {
        case Result::RedWins:
            return "1-0";
        case Result::BlackWins:
            return "0-1";
        case Result::Draw:
            return "1/2-1/2";
        case Result::Ongoing:
            break;
    }
    return "*";
}

// "2026.03.14" (UTC), PGN's date format.
std::string pgn_date(WallTime t) {
    const std::chrono::year_month_day ymd{std::chrono::floor<std::chrono::days>(t)};
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04d.%02u.%02u", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
    return buf;
}

}  // namespace

FinishedGame make_finished_game(const Room& room, WallTime started_at, WallTime ended_at) {
    const Game& game = room.game();
    FinishedGame record;
    record.id = room.id();
    record.red = room.seat(Color::Red).name;
    record.black = room.seat(Color::Black).name;
    record.time_control = room.time_control();
    record.start_fen = to_fen(game.start());
    for (Move m : game.moves()) record.moves.push_back(to_iccs(m));
    record.result = game.result();
    record.reason = game.outcome().reason;
    record.explanation = game.outcome().explanation;
    record.started_at = started_at;
    record.ended_at = ended_at;

    PgnGame pgn;
    pgn.set_tag("Event", "Online game " + room.id());
    pgn.set_tag("Date", pgn_date(started_at));
    pgn.set_tag("Red", record.red);
    pgn.set_tag("Black", record.black);
    pgn.set_tag("TimeControl", record.time_control.to_string());
    pgn.set_tag("Termination", std::string(to_string(record.reason)));
    pgn.start = game.start();
    pgn.moves = game.moves();
    pgn.result = pgn_result(record.result);
    if (!record.explanation.empty()) {
        pgn.comments.assign(pgn.moves.size(), "");
        if (pgn.moves.empty())
            pgn.opening_comment = record.explanation;
        else
            pgn.comments.back() = record.explanation;
    }
    record.pgn = write_pgn(pgn);
    return record;
}

}  // namespace xq::server
