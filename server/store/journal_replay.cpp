// A live game's journal rows replayed in order, the same for both backends.

#include "server/store/journal_replay.h"

#include <algorithm>

#include "common/iccs.h"

namespace xq::server {

namespace {

StoreError out_of_order(std::string_view game, std::int64_t n, std::string_view what) {
    return StoreError{StoreErrorCode::Corrupt,
                      "journal of game " + std::string(game) + " row " + std::to_string(n) + ": " + std::string(what)};
}

}  // namespace

// Plays a game's rows in order onto `g`; the damage found, if any (then `g` is not to be used).
std::optional<StoreError> replay_journal_rows(RecoverableGame& g, std::vector<JournalRow>& log) {
    const std::string& id = g.game.record.id;
    std::sort(log.begin(), log.end(), [](const JournalRow& a, const JournalRow& b) { return a.n < b.n; });
    for (std::size_t k = 0; k < log.size(); ++k) {
        JournalRow& r = log[k];
        if (r.n != static_cast<std::int64_t>(k) + 1) return out_of_order(id, r.n, "a gap or a repeat");
        const int plies = static_cast<int>(g.game.moves.size());
        if (r.takeback) {
            if (r.move.ply > plies) return out_of_order(id, r.n, "takes back moves never made");
            g.game.moves.resize(static_cast<std::size_t>(r.move.ply));
            g.move_versions.resize(static_cast<std::size_t>(r.move.ply));
            g.version = std::max(g.version, r.version);
            continue;
        }
        if (r.move.ply != plies + 1) return out_of_order(id, r.n, "not the next ply");
        if (r.move.iccs.size() != 4 || !parse_iccs(r.move.iccs))
            return out_of_order(id, r.n, "not an ICCS move '" + r.move.iccs + "'");
        g.game.moves.push_back(std::move(r.move));
        g.move_versions.push_back(r.version);
    }
    return std::nullopt;
}


}  // namespace xq::server
