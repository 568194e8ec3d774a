#include "server/store/live_mirror.h"

#include <algorithm>

namespace xq::server {

void LiveMirror::reset(std::vector<RecoverableGame> games) {
    games_.clear();
    for (RecoverableGame& g : games) {
        std::string id = g.game.record.id;
        games_.emplace(std::move(id), std::move(g));
    }
}

void LiveMirror::apply(std::span<const JournalRecord> records, const std::vector<JournalFailure>& refused) {
    std::size_t next_refused = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (next_refused < refused.size() && refused[next_refused].index == i) {
            ++next_refused;
            continue;
        }
        apply(records[i]);
    }
}

void LiveMirror::apply(const JournalRecord& record) {
    if (const auto* start = std::get_if<JournalStart>(&record)) {
        RecoverableGame g;
        g.game.record = start->game;
        g.join_code = start->join_code;
        g.version = start->version;
        games_[start->game.id] = std::move(g);
        return;
    }
    const auto it = games_.find(std::string(journal_game_id(record)));
    if (it == games_.end()) return;  // a finish of a game never live, or a token of a waiting one
    RecoverableGame& g = it->second;
    if (const auto* append = std::get_if<JournalAppend>(&record)) {
        g.game.moves.push_back(append->move);
        g.move_versions.push_back(append->version);  // as replay_journal_rows: only takebacks raise g.version
    } else if (const auto* takeback = std::get_if<JournalTakeback>(&record)) {
        g.game.moves.resize(static_cast<std::size_t>(takeback->plies_left));
        g.move_versions.resize(static_cast<std::size_t>(takeback->plies_left));
        g.version = std::max(g.version, takeback->version);
    } else if (const auto* token = std::get_if<JournalSeatToken>(&record)) {
        (token->red ? g.game.record.red_token : g.game.record.black_token) = token->token;
    } else {
        games_.erase(it);  // aborted or finished
    }
}

std::vector<RecoverableGame> LiveMirror::games() const {
    std::vector<RecoverableGame> out;
    out.reserve(games_.size());
    for (const auto& [id, g] : games_) out.push_back(g);
    std::ranges::sort(out, [](const RecoverableGame& a, const RecoverableGame& b) {
        const auto& x = a.game.record;
        const auto& y = b.game.record;
        return x.created_at_ms != y.created_at_ms ? x.created_at_ms < y.created_at_ms : x.id < y.id;
    });
    return out;
}

}  // namespace xq::server
