#pragma once
// The bot's move choice for a position, without any networking, so it can be tested on its own.
// A mate in one (by our rules: the opponent is left without a legal move) is played at once at
// every level; a lone legal move needs no search; otherwise the engine chooses among the moves
// the repetition rules allow (Game::banned_moves), so the server never refuses the bot's move.

#include <expected>
#include <optional>
#include <span>
#include <vector>

#include "common/game.h"
#include "engine/engine.h"

namespace xq::bot {

struct Decision {
    Move move;
    std::optional<engine::Evaluation> evaluation;  // none when no search was needed
};

// A move after which the opponent has no legal move (mate or stalemate: both win in Xiangqi).
std::optional<Move> mate_in_one(const Game& game);

// The legal moves that do not lose by perpetual check or chase, less `refused` (moves the server
// already turned down at this ply). When that leaves nothing, every legal move.
std::vector<Move> allowed_moves(const Game& game, std::span<const Move> refused = {});

// The decision that needs no engine (mate in one, a single allowed move), if any.
std::optional<Decision> decide_without_engine(const Game& game, std::span<const Move> refused = {});

// Limits for the engine: the think time, and searchmoves when some legal moves are not allowed.
engine::SearchLimits search_limits(const Game& game, int think_ms, std::span<const Move> refused = {});

// The whole choice, synchronously (decide_without_engine, else the engine).
std::expected<Decision, engine::EngineError> decide(engine::Engine& engine, const Game& game, int think_ms,
                                                    std::span<const Move> refused = {});

}  // namespace xq::bot
