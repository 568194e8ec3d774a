#pragma once
// Fairy-Stockfish as a move and evaluation oracle, spoken to in UCI over a child process.
//
// Every call is synchronous but bounded: each read has a deadline (the think time plus a margin),
// so a dead or hung engine comes back as an EngineError, never as a blocked caller. After such an
// error the child is killed, and the next request starts a fresh one. Calls block for the think
// time, so UI and network threads use AsyncEngine (async_engine.h) instead.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/position.h"
#include "engine/engine_error.h"
#include "engine/levels.h"

namespace xq::engine {

struct EngineOptions {
    std::filesystem::path binary;   // empty: find_engine_binary()
    std::optional<int> skill;       // "Skill Level", 0-20; none: the engine's default (20)
    std::optional<int> elo;         // UCI_LimitStrength with UCI_Elo (1350-2850 in Fairy-Stockfish 11)
    int threads = 1;
    int hash_mb = 16;
    std::chrono::milliseconds start_timeout{5000};  // for uciok and readyok
    std::chrono::milliseconds answer_margin{2000};  // beyond the think time, before bestmove is overdue

    // Skill of a level (levels.h); the think time is the caller's, in SearchLimits.
    static EngineOptions for_level(const Level& level);
};

// A game clock for "go wtime btime winc binc": the engine shares out the time itself.
struct GameClock {
    std::int64_t red_ms = 0;
    std::int64_t black_ms = 0;
    std::int64_t red_increment_ms = 0;
    std::int64_t black_increment_ms = 0;
};

// At least one of movetime, depth or clock; with none, movetime is 1000 ms.
struct SearchLimits {
    std::optional<int> movetime_ms;
    std::optional<int> depth;
    std::optional<GameClock> clock;
    std::vector<Move> only_moves;  // "searchmoves": consider just these (empty: every legal move)
    // With movetime: answer by then, whatever came first (a queue, an engine restart) shortens the
    // think time, down to 10 ms. A game clock's time does not wait for the engine to start.
    std::optional<std::chrono::steady_clock::time_point> answer_by;

    static SearchLimits movetime(int ms) { return SearchLimits{ms, std::nullopt, std::nullopt, {}, std::nullopt}; }
};

inline constexpr int kMateCentipawns = 30000;

// A forced mate the engine sees: `winner` mates in `moves` of its own moves (0: already mated).
struct Mate {
    Color winner = Color::Red;
    int moves = 0;
    friend bool operator==(const Mate&, const Mate&) = default;
};

// The engine's verdict, from Red's point of view (positive: good for Red).
struct Evaluation {
    int centipawns = 0;         // for a mate: +/-(kMateCentipawns - moves)
    std::optional<Mate> mate;
    int depth = 0;              // the search depth of the verdict

    int for_side(Color c) const { return c == Color::Red ? centipawns : -centipawns; }
    std::string to_string() const;  // "+1.25", "-0.40", "#3" (Red mates in 3), "#-2" (Black mates in 2)
};

struct EngineMove {
    Move move;
    Evaluation evaluation;  // of the position before the move
};

// fairy-stockfish on PATH, else /usr/games/fairy-stockfish; nullopt when neither is executable.
std::optional<std::filesystem::path> find_engine_binary();

class Engine {
public:
    // Starts the engine and completes the UCI handshake in xiangqi mode.
    static std::expected<Engine, EngineError> start(EngineOptions options = {});

    Engine(Engine&&) noexcept;
    Engine& operator=(Engine&&) noexcept;
    ~Engine();  // "quit", then SIGKILL if it lingers

    // The best move for the side to move after `moves` from `start`. The moves are checked with
    // the rules library first (BadPosition), and the engine's answer must be legal (Protocol).
    std::expected<EngineMove, EngineError> best_move(const Position& start, std::span<const Move> moves,
                                                     const SearchLimits& limits);
    // The evaluation of that position. A side with no legal move is mated: Mate{other side, 0}.
    std::expected<Evaluation, EngineError> evaluate(const Position& start, std::span<const Move> moves,
                                                    const SearchLimits& limits);

    // The next request starts with "ucinewgame" (clears the engine's hash between games).
    void new_game() { new_game_ = true; }

    // While `fd` is readable, searches end at once with Cancelled (the engine is told "stop" and
    // stays running). -1: no interrupt. The fd belongs to the caller (AsyncEngine uses a pipe).
    void set_interrupt_fd(int fd);

    // The running child's pid, -1 while none runs (after an error, until the next request).
    pid_t pid() const;
    // How many times the engine was started again after dying or hanging.
    int restarts() const { return restarts_; }

private:
    struct State;
    explicit Engine(std::unique_ptr<State> state);
    std::expected<void, EngineError> ensure_running();
    std::expected<EngineMove, EngineError> search(const Position& final_position, const std::string& position_command,
                                                  const SearchLimits& limits);

    std::unique_ptr<State> state_;
    bool new_game_ = false;
    int restarts_ = 0;
};

}  // namespace xq::engine
