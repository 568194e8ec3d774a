#include "server/rooms/finished_game.h"

#include "common/fen.h"
#include "common/iccs.h"
#include "common/pgn.h"
#include "common/pgn_record.h"

namespace xq::server {

FinishedGame make_finished_game(const Room& room, WallTime started_at, WallTime ended_at, const std::string& site) {
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
    record.red_account = room.seat(Color::Red).account;
    record.black_account = room.seat(Color::Black).account;
    record.rated = room.rated();

    GameRecordTags tags;
    tags.event = "Online game " + room.id();
    tags.site = site;
    tags.date = std::chrono::floor<std::chrono::days>(started_at);
    tags.red = record.red;
    tags.black = record.black;
    tags.red_account = record.red_account;
    tags.black_account = record.black_account;
    tags.time_control = record.time_control.to_string();
    tags.result = record.result;
    tags.termination = std::string(to_string(record.reason));
    tags.explanation = record.explanation;
    const PgnGame pgn = game_record(game.start(), game.moves(), tags);
    record.pgn = write_pgn(pgn);
    return record;
}

}  // namespace xq::server
