#pragma once
// What can go wrong with the engine, as a value: the adapter never throws and never hangs.

#include <string>
#include <string_view>

namespace xq::engine {

enum class EngineErrorCode {
    NotFound,     // no fairy-stockfish on PATH or in /usr/games
    SpawnFailed,  // the process or its socket could not be made
    Died,         // the engine exited or closed its output (it is restarted on the next request)
    Timeout,      // no answer in time: the engine was killed (it is restarted on the next request)
    Protocol,     // an answer that is not UCI we understand, or a move that is not legal here
    BadPosition,  // the request's moves are not legal from its start position
    NoLegalMove,  // the side to move has no legal move (the game is already over)
    Cancelled,    // the caller interrupted the search (AsyncEngine::cancel, or its shutdown)
};

std::string_view code_name(EngineErrorCode code);  // "not_found", "died", "timeout", ...

struct EngineError {
    EngineErrorCode code;
    std::string message;
};

}  // namespace xq::engine
