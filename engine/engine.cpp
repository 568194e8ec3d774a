#include "engine/engine.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "common/fen.h"
#include "common/movegen.h"
#include "engine/process.h"
#include "engine/uci_info.h"
#include "engine/uci_move.h"

namespace xq::engine {
namespace {

using std::chrono::milliseconds;

std::unexpected<EngineError> fail(EngineErrorCode code, std::string message) {
    return std::unexpected(EngineError{code, std::move(message)});
}

// The side-to-move score of UCI turned to Red's view.
Evaluation to_evaluation(const UciScore& score, Color side_to_move) {
    Evaluation e;
    e.depth = score.depth;
    if (score.is_mate) {
        const Color winner = score.value > 0 ? side_to_move : ~side_to_move;
        const int moves = score.value < 0 ? -score.value : score.value;
        e.mate = Mate{winner, moves};
        e.centipawns = winner == Color::Red ? kMateCentipawns - moves : -(kMateCentipawns - moves);
    } else {
        e.centipawns = side_to_move == Color::Red ? score.value : -score.value;
    }
    return e;
}

// Reads lines until one equal to `expected`.
std::expected<void, EngineError> await_line(Process& process, std::string_view expected, Clock::time_point deadline) {
    for (;;) {
        auto line = process.read_line(deadline);
        if (!line) return std::unexpected(line.error());
        if (*line == expected) return {};
    }
}

// Reads up to and including a "bestmove" line.
bool await_bestmove(Process& process, Clock::time_point deadline) {
    for (;;) {
        auto line = process.read_line(deadline);
        if (!line) return false;
        if (parse_bestmove(*line)) return true;
    }
}

// Replays `moves` from `start` with the rules library; the engine must never see an illegal move.
std::expected<Position, EngineError> replay(const Position& start, std::span<const Move> moves) {
    Position pos = start;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (!is_legal(pos, moves[i]))
            return fail(EngineErrorCode::BadPosition,
                        "move " + std::to_string(i + 1) + " (" + to_uci(moves[i]) + " in engine coordinates) is not legal");
        pos.play(moves[i]);
    }
    return pos;
}

std::string position_command(const Position& start, std::span<const Move> moves) {
    std::string command = "position fen " + to_fen(start);
    if (!moves.empty()) {
        command += " moves";
        for (Move m : moves) command += " " + to_uci(m);
    }
    return command + "\n";
}

}  // namespace

struct Engine::State {
    EngineOptions options;
    std::optional<Process> process;
    int interrupt_fd = -1;
};

void Engine::set_interrupt_fd(int fd) { state_->interrupt_fd = fd; }

std::string Evaluation::to_string() const {
    if (mate) return std::string(mate->winner == Color::Red ? "#" : "#-") + std::to_string(mate->moves);
    const int magnitude = centipawns < 0 ? -centipawns : centipawns;
    std::string cents = std::to_string(magnitude % 100);
    if (cents.size() < 2) cents.insert(0, "0");
    return std::string(centipawns < 0 ? "-" : "+") + std::to_string(magnitude / 100) + "." + cents;
}

EngineOptions EngineOptions::for_level(const Level& level) {
    EngineOptions options;
    options.skill = level.skill;
    return options;
}

std::optional<std::filesystem::path> find_engine_binary() {
    if (const char* path = std::getenv("PATH")) {
        std::string_view rest = path;
        while (!rest.empty()) {
            const auto colon = rest.find(':');
            const std::filesystem::path candidate = std::filesystem::path(rest.substr(0, colon)) / "fairy-stockfish";
            if (!rest.substr(0, colon).empty() && access(candidate.c_str(), X_OK) == 0) return candidate;
            if (colon == std::string_view::npos) break;
            rest.remove_prefix(colon + 1);
        }
    }
    const std::filesystem::path games = "/usr/games/fairy-stockfish";
    if (access(games.c_str(), X_OK) == 0) return games;
    return std::nullopt;
}

std::expected<Engine, EngineError> Engine::start(EngineOptions options) {
    if (options.binary.empty()) {
        auto found = find_engine_binary();
        if (!found) return fail(EngineErrorCode::NotFound, "fairy-stockfish is neither on PATH nor in /usr/games");
        options.binary = *found;
    }
    Engine engine(std::make_unique<State>(State{std::move(options), std::nullopt, -1}));
    if (auto started = engine.ensure_running(); !started) return std::unexpected(started.error());
    return engine;
}

Engine::Engine(std::unique_ptr<State> state) : state_(std::move(state)) {}
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

Engine::~Engine() {
    if (state_ && state_->process) state_->process->stop("quit\n", milliseconds(200));
}

pid_t Engine::pid() const { return state_ && state_->process ? state_->process->pid() : -1; }

std::expected<void, EngineError> Engine::ensure_running() {
    if (state_->process && state_->process->running()) return {};
    const bool restart = state_->process.has_value();
    state_->process.reset();
    auto spawned = Process::spawn(state_->options.binary);
    if (!spawned) return std::unexpected(spawned.error());
    Process process = std::move(*spawned);

    const EngineOptions& o = state_->options;
    const auto deadline = Clock::now() + o.start_timeout;
    auto handshake = [&]() -> std::expected<void, EngineError> {
        if (auto w = process.write("uci\n", deadline); !w) return w;
        if (auto r = await_line(process, "uciok", deadline); !r) return r;
        std::string setup = "setoption name UCI_Variant value xiangqi\n";
        setup += "setoption name Threads value " + std::to_string(o.threads) + "\n";
        setup += "setoption name Hash value " + std::to_string(o.hash_mb) + "\n";
        if (o.skill) setup += "setoption name Skill Level value " + std::to_string(*o.skill) + "\n";
        if (o.elo) {
            setup += "setoption name UCI_LimitStrength value true\n";
            setup += "setoption name UCI_Elo value " + std::to_string(*o.elo) + "\n";
        }
        setup += "ucinewgame\nisready\n";
        if (auto w = process.write(setup, deadline); !w) return w;
        return await_line(process, "readyok", deadline);
    };
    if (auto ok = handshake(); !ok) {
        process.kill();
        EngineError e = ok.error();
        e.message = "starting the engine: " + e.message;
        return std::unexpected(e);
    }
    state_->process = std::move(process);
    new_game_ = false;
    if (restart) ++restarts_;
    return {};
}

std::expected<EngineMove, EngineError> Engine::search(const Position& final_position, const std::string& command,
                                                      const SearchLimits& limits) {
    if (auto running = ensure_running(); !running) return std::unexpected(running.error());
    Process& process = *state_->process;
    const Color side = final_position.side_to_move();

    // Any failure from here on leaves the engine in an unknown state: kill it, restart next time.
    auto broken = [&](EngineError e) {
        process.kill();
        return std::unexpected(std::move(e));
    };

    if (new_game_) {
        const auto deadline = Clock::now() + state_->options.start_timeout;
        if (auto w = process.write("ucinewgame\nisready\n", deadline); !w) return broken(w.error());
        if (auto r = await_line(process, "readyok", deadline); !r) return broken(r.error());
        new_game_ = false;
    }

    std::string go = "go";
    std::int64_t budget_ms = 0;
    if (limits.clock) {
        const GameClock& c = *limits.clock;
        go += " wtime " + std::to_string(c.red_ms) + " btime " + std::to_string(c.black_ms) + " winc " +
              std::to_string(c.red_increment_ms) + " binc " + std::to_string(c.black_increment_ms);
        budget_ms = side == Color::Red ? c.red_ms + c.red_increment_ms : c.black_ms + c.black_increment_ms;
    }
    if (limits.depth) {
        go += " depth " + std::to_string(*limits.depth);
        if (!limits.clock && !limits.movetime_ms) budget_ms = 60'000;  // a depth alone has no time bound
    }
    if (limits.movetime_ms || (!limits.clock && !limits.depth)) {
        int movetime = limits.movetime_ms.value_or(1000);
        if (limits.answer_by) {
            const auto left = std::chrono::duration_cast<milliseconds>(*limits.answer_by - Clock::now()).count();
            movetime = static_cast<int>(std::clamp<std::int64_t>(left, 10, movetime));
        }
        go += " movetime " + std::to_string(movetime);
        budget_ms = limits.clock ? std::min<std::int64_t>(budget_ms, movetime) : movetime;
    }
    if (!limits.only_moves.empty()) {
        go += " searchmoves";
        for (Move m : limits.only_moves) go += " " + to_uci(m);
    }
    go += "\n";

    const auto deadline = Clock::now() + milliseconds(budget_ms) + state_->options.answer_margin;
    if (auto w = process.write(command + go, deadline); !w) return broken(w.error());

    std::optional<UciScore> last_score;
    for (;;) {
        auto line = process.read_line(deadline, state_->interrupt_fd);
        if (!line && line.error().code == EngineErrorCode::Cancelled) {
            // "stop" ends the search with a bestmove at once; an engine that does not oblige is killed.
            const auto drain = Clock::now() + milliseconds(1000);
            if (!process.write("stop\n", drain) || !await_bestmove(process, drain)) process.kill();
            return std::unexpected(line.error());
        }
        if (!line) return broken(line.error());
        if (auto score = parse_info_score(*line)) {
            last_score = score;
            continue;
        }
        auto best = parse_bestmove(*line);
        if (!best) continue;
        const auto move = from_uci(best->move);
        if (!move || !is_legal(final_position, *move))
            return fail(EngineErrorCode::Protocol, "the engine answered \"" + *line + "\", not a legal move here");
        EngineMove result{*move, {}};
        if (last_score) result.evaluation = to_evaluation(*last_score, side);
        return result;
    }
}

std::expected<EngineMove, EngineError> Engine::best_move(const Position& start, std::span<const Move> moves,
                                                         const SearchLimits& limits) {
    auto final_position = replay(start, moves);
    if (!final_position) return std::unexpected(final_position.error());
    if (!has_legal_move(*final_position))
        return fail(EngineErrorCode::NoLegalMove, std::string(to_string(final_position->side_to_move())) + " has no legal move");
    for (Move m : limits.only_moves)
        if (!is_legal(*final_position, m))
            return fail(EngineErrorCode::BadPosition, "searchmoves " + to_uci(m) + " is not legal here");
    return search(*final_position, position_command(start, moves), limits);
}

std::expected<Evaluation, EngineError> Engine::evaluate(const Position& start, std::span<const Move> moves,
                                                        const SearchLimits& limits) {
    auto final_position = replay(start, moves);
    if (!final_position) return std::unexpected(final_position.error());
    if (!has_legal_move(*final_position)) {
        const Color winner = ~final_position->side_to_move();
        return Evaluation{winner == Color::Red ? kMateCentipawns : -kMateCentipawns, Mate{winner, 0}, 0};
    }
    auto found = search(*final_position, position_command(start, moves), limits);
    if (!found) return std::unexpected(found.error());
    return found->evaluation;
}

}  // namespace xq::engine
