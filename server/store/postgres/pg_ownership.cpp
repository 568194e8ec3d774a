// Game ownership on PostgreSQL (game_ownership.h): the owner and fence columns of a live game,
// taking a dead node's games over, and who owns what.

#include <string>

#include "server/log/log.h"
#include "server/store/postgres/pg_store.h"
#include "server/store/record_checks.h"

namespace xq::server {
namespace {

using pg::param;

}  // namespace

StoreResult<std::vector<RecoverableGame>> PgStore::take_over(std::string_view dead_node, std::int64_t limit) {
    const std::string context = "take over the games of node " + std::string(dead_node);
    if (owner_.empty()) return std::unexpected(detail::invalid(context + ": this store has no node id"));
    if (dead_node.empty() || dead_node == owner_ || limit < 1)
        return std::unexpected(detail::invalid(context + ": another node's id and a limit >= 1 are needed"));
    std::unordered_map<std::string, std::int64_t> fences;
    std::vector<StoreError> damaged;
    auto taken = [&]() -> StoreResult<std::vector<RecoverableGame>> {
        if (auto begun = run("BEGIN"); !begun) return std::unexpected(std::move(begun.error()));
        // SKIP LOCKED: a game another survivor is claiming now is left to it; one it claimed and
        // committed meanwhile no longer matches `owner = dead` when locked, so it is not taken.
        auto claimed = run(
            "UPDATE games SET owner = $1, fence = nextval('xq_fence') WHERE id IN ("
            "SELECT id FROM games WHERE status = 'live' AND owner = $2 ORDER BY created_at, id LIMIT $3 "
            "FOR UPDATE SKIP LOCKED) RETURNING fence",
            {param(owner_), param(dead_node), param(limit)});
        if (!claimed) return std::unexpected(std::move(claimed.error()));
        // The claimed games are exactly those with the new fences (a sequence never repeats).
        std::string new_fences = "{";
        for (int i = 0; i < claimed->rows(); ++i) new_fences += (i ? "," : "") + claimed->text(i, 0);
        new_fences += "}";
        return read_live("g.owner = $1 AND g.fence = ANY($2::bigint[])", {param(owner_), param(new_fences)}, &damaged,
                         &fences);
    }();
    if (taken) {
        if (auto committed = run("COMMIT"); !committed) taken = std::unexpected(std::move(committed.error()));
    } else if (!lost()) {
        (void)run("ROLLBACK");
    }
    if (!taken) return std::unexpected(in_context(std::move(taken.error()), context));
    // Ours now: written under the new fences, and restored by recovery while the database is away.
    for (auto& [game, fence] : fences) fences_[game] = fence;
    auto mirrored = mirror_.games();
    mirrored.insert(mirrored.end(), taken->begin(), taken->end());
    mirror_.reset(std::move(mirrored));
    for (const StoreError& e : damaged)
        log(LogLevel::Warn, "store: a game taken over from node ", dead_node, " does not replay: ", e.message);
    return taken;
}

StoreResult<std::vector<std::string>> PgStore::live_owners() {
    auto r = run("SELECT DISTINCT owner FROM games WHERE status = 'live' AND owner IS NOT NULL ORDER BY owner");
    if (!r) return std::unexpected(in_context(std::move(r.error()), "list the owners of live games"));
    std::vector<std::string> out;
    for (int i = 0; i < r->rows(); ++i) out.push_back(r->text(i, 0));
    return out;
}

StoreResult<std::optional<std::string>> PgStore::owner_of(std::string_view game) {
    auto r = run("SELECT owner FROM games WHERE id = $1 AND status = 'live'", {param(game)});
    if (!r) return std::unexpected(in_context(std::move(r.error()), "owner of game " + std::string(game)));
    if (r->rows() == 0) return std::unexpected(StoreError{StoreErrorCode::NotFound, "no live game " + std::string(game)});
    if (r->is_null(0, 0)) return std::optional<std::string>{};
    return std::optional<std::string>{r->text(0, 0)};
}

}  // namespace xq::server
