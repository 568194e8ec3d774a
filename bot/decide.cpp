#include "bot/decide.h"

#include <algorithm>

#include "common/movegen.h"

namespace xq::bot {

std::vector<Move> allowed_moves(const Game& game, std::span<const Move> refused) {
    const MoveList legal = legal_moves(game.position());
    const auto banned = game.banned_moves();
    std::vector<Move> allowed;
    for (Move m : legal) {
        const bool is_banned = std::any_of(banned.begin(), banned.end(), [&](const BannedMove& b) { return b.move == m; });
        const bool was_refused = std::find(refused.begin(), refused.end(), m) != refused.end();
        if (!is_banned && !was_refused) allowed.push_back(m);
    }
    if (allowed.empty()) allowed.assign(legal.begin(), legal.end());
    return allowed;
}

std::optional<Move> mate_in_one(const Game& game) {
    if (game.is_over()) return std::nullopt;
    for (Move m : allowed_moves(game))
        if (!has_legal_move(game.position().with_move(m))) return m;
    return std::nullopt;
}

std::optional<Decision> decide_without_engine(const Game& game, std::span<const Move> refused) {
    if (game.is_over()) return std::nullopt;
    const auto allowed = allowed_moves(game, refused);
    for (Move m : allowed)
        if (!has_legal_move(game.position().with_move(m))) return Decision{m, std::nullopt};
    if (allowed.size() == 1) return Decision{allowed.front(), std::nullopt};
    return std::nullopt;
}

engine::SearchLimits search_limits(const Game& game, int think_ms, std::span<const Move> refused) {
    engine::SearchLimits limits = engine::SearchLimits::movetime(think_ms);
    auto allowed = allowed_moves(game, refused);
    if (allowed.size() < count_legal_moves(game.position())) limits.only_moves = std::move(allowed);
    return limits;
}

std::expected<Decision, engine::EngineError> decide(engine::Engine& engine, const Game& game, int think_ms,
                                                    std::span<const Move> refused) {
    if (auto quick = decide_without_engine(game, refused)) return *quick;
    auto best = engine.best_move(game.start(), game.moves(), search_limits(game, think_ms, refused));
    if (!best) return std::unexpected(best.error());
    return Decision{best->move, best->evaluation};
}

}  // namespace xq::bot
