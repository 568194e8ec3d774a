#pragma once
// Errors from the game store, as values: every Store call returns std::expected<T, StoreError>.

#include <expected>
#include <string>
#include <string_view>

namespace xq::server {

enum class StoreErrorCode {
    OpenFailed,       // the file cannot be opened or created (missing or read-only directory, ...)
    Corrupt,          // not a SQLite database, or a damaged one
    Io,               // a read or write failed (disk full, I/O error)
    Constraint,       // a duplicate id or ply, a ply out of order, a move for a game that is not live
    NotFound,         // no game with that id (in the state asked for)
    Busy,             // another connection held the lock past the busy timeout
    ReadOnly,         // the database can be read but not written
    InvalidArgument,  // a record the store refuses before touching the file
    VersionMismatch,  // the file's schema is newer than this program knows
    Internal,         // anything else SQLite reports (a bug on our side)
    Fenced,           // another node took the game over (game_ownership.h): this one may not write it
};

// Stable snake_case names: "open_failed", "corrupt", "io", "constraint", "not_found", ...
std::string_view code_name(StoreErrorCode code);

struct StoreError {
    StoreErrorCode code;
    std::string message;
};

template <class T>
using StoreResult = std::expected<T, StoreError>;

// The same error with "context: " in front of its message (what the store was doing).
inline StoreError in_context(StoreError error, std::string_view context) {
    error.message.insert(0, std::string(context) + ": ");
    return error;
}

}  // namespace xq::server
