#include "lobby_model.h"

#include <chrono>

#include "common/pgn_record.h"

namespace xq::client {

std::string archive_date(const ArchiveRow& row) {
    using namespace std::chrono;
    return pgn_date(floor<days>(sys_time<milliseconds>(milliseconds(row.ended_at_ms))));
}

std::string to_string(const TimeControlChoice& tc) {
    std::string text = std::to_string(tc.base_minutes) + "+" + std::to_string(tc.increment_seconds);
    if (tc.move_cap_seconds) text += ", " + std::to_string(*tc.move_cap_seconds) + " s a move";
    return text;
}

const std::vector<TimeControlChoice>& standard_time_controls() {
    // Lichess's quick-pairing grid (pychess.org, where xiangqi is played online, follows lichess's
    // design) without 2+1 and 30+0: bullet to classical at a glance, in nine cells plus Custom, a
    // 5 x 2 grid. Classical keeps its increment because xiangqi endgames run long; any other
    // control is a Custom one. 5+3 is what the server's computer opponents host.
    static const std::vector<TimeControlChoice> choices = {
        {1, 0, std::nullopt},  {3, 0, std::nullopt},  {3, 2, std::nullopt},
        {5, 0, std::nullopt},  {5, 3, std::nullopt},  {10, 0, std::nullopt},
        {10, 5, std::nullopt}, {15, 10, std::nullopt}, {30, 20, std::nullopt},
    };
    return choices;
}

}  // namespace xq::client
