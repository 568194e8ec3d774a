#include "server/dispatch/recovery.h"

#include "common/fen.h"
#include "server/rooms/room_restore.h"

namespace xq::server {

std::expected<std::unique_ptr<Room>, std::string> restore_room(const RecoverableGame& g, RandomSource random,
                                                               TimePoint now, Millis grace, const Room* previous) {
    const LiveGameRecord& r = g.game.record;
    const auto start = parse_fen(r.start_fen);
    if (!start) return std::unexpected("game " + r.id + ": bad start position");
    TimeControl control{std::chrono::seconds(r.time_control.base_seconds),
                        std::chrono::seconds(r.time_control.increment_seconds), std::nullopt};
    if (r.time_control.move_cap_seconds > 0) control.move_cap = std::chrono::seconds(r.time_control.move_cap_seconds);
    RestoredGame game;
    game.start = *start;
    game.version = g.version;
    game.rated = r.rated;
    game.spectator_delay = r.spectator_delay;
    game.seats[static_cast<std::size_t>(index_of(Color::Red))] = {r.red_name, r.red_token, 0, false, now + grace,
                                                                   r.red_account};
    game.seats[static_cast<std::size_t>(index_of(Color::Black))] = {r.black_name, r.black_token, 0, false,
                                                                     now + grace, r.black_account};
    if (previous)
        for (Color c : {Color::Red, Color::Black}) {
            auto& seat = game.seats[static_cast<std::size_t>(index_of(c))];
            seat.participant = previous->seat(c).participant;
            seat.connected = previous->seat(c).connected;
            seat.away_until = previous->seat(c).away_until;
        }
    for (std::size_t i = 0; i < g.game.moves.size(); ++i) {
        const JournalMove& m = g.game.moves[i];
        game.moves.push_back({m.iccs, static_cast<MoveId>(m.move_id), {Millis(m.red_ms), Millis(m.black_ms)},
                              g.move_versions[i]});
    }
    auto room = Room::restore(r.id, control, std::move(random), game, now);
    if (!room) return std::unexpected("game " + r.id + ": " + room.error());
    return room;
}

RecoveryReport recover_games(Store& store, Lobby& lobby, RandomSource random, TimePoint now, Millis grace) {
    RecoveryReport report;
    std::vector<StoreError> damaged;
    auto games = store.load_recoverable_games(&damaged);
    if (!games) {
        report.errors.push_back("reading the journal: " + games.error().message);
        return report;
    }
    report = restore_games(*games, lobby, std::move(random), now, grace);
    for (const StoreError& e : damaged) report.errors.push_back("not restored: " + e.message);
    return report;
}

RecoveryReport restore_games(const std::vector<RecoverableGame>& games, Lobby& lobby, RandomSource random, TimePoint now,
                             Millis grace) {
    RecoveryReport report;
    for (const RecoverableGame& g : games) {
        auto room = restore_room(g, random, now, grace);
        if (!room) {
            report.errors.push_back(room.error());
            continue;
        }
        if (!g.join_code.empty()) report.private_rooms.push_back(g.game.record.id);
        lobby.adopt(std::move(*room), g.join_code.empty() ? std::nullopt : std::optional<std::string>(g.join_code), now);
        ++report.restored;
        report.rooms.push_back(g.game.record.id);
    }
    return report;
}

}  // namespace xq::server
