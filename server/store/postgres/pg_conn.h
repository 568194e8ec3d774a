#pragma once
// One libpq connection, used synchronously from the loop thread, with every wait bounded: the
// connect polls to a deadline (a dead host never holds the loop past it), and the session has a
// statement_timeout; TCP connections get tcp_user_timeout and keepalives, so a peer that vanished
// is noticed in seconds, not the kernel's minutes. Errors come back as StoreError values.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/store/store_error.h"

struct pg_conn;
struct pg_result;

namespace xq::server::pg {

// A statement parameter in text form; nullopt is SQL NULL.
using Param = std::optional<std::string>;
inline Param param(std::string_view text) { return std::string(text); }
inline Param param(const std::string& text) { return text; }
inline Param param(const char* text) { return std::string(text); }
inline Param param(std::int64_t value) { return std::to_string(value); }
inline Param param(int value) { return std::to_string(value); }
inline Param param(bool value) { return value ? "true" : "false"; }
Param param(double value);  // round-trips exactly
inline Param null_if_empty(std::string_view text) { return text.empty() ? Param() : param(text); }

class Result {
public:
    explicit Result(pg_result* r) : r_(r) {}
    int rows() const;
    bool is_null(int row, int column) const;
    std::string text(int row, int column) const;  // "" for NULL
    std::int64_t int64(int row, int column) const;  // 0 for NULL
    double real(int row, int column) const;
    bool boolean(int row, int column) const;
    std::int64_t affected() const;  // rows an INSERT, UPDATE or DELETE touched

private:
    friend class Connection;
    struct Clear {
        void operator()(pg_result* r) const;
    };
    std::unique_ptr<pg_result, Clear> r_;
};

// A statement and its parameters, for a pipeline.
struct Statement {
    std::string sql;
    std::vector<Param> params;
};

class Connection {
public:
    // Connects within `timeout` (libpq's own connect_timeout counts whole seconds, at least 2).
    static StoreResult<Connection> open(const std::string& conninfo, std::chrono::milliseconds timeout);

    // One statement with its parameters. A refusal by the server (a constraint, a timeout) is an
    // error with the connection still usable; a lost connection makes broken() true.
    StoreResult<Result> exec(std::string_view sql, const std::vector<Param>& params = {});
    // Statements sent together in libpq's pipeline mode and read after one Sync: one round trip
    // for all. Those with parameters are prepared on first use and kept for the connection's
    // life, so the server plans each kind of statement once, not once per record. Each has its outcome, in order; after a statement's error the server skips the
    // rest (their outcome says so) up to the Sync. An error for the whole means the connection
    // failed midway (broken() is then true): what the server did of it is unknown.
    StoreResult<std::vector<StoreResult<Result>>> pipeline(std::span<const Statement> statements);
    bool broken() const;

private:
    struct Finish {
        void operator()(pg_conn* c) const;
    };
    explicit Connection(pg_conn* c) : c_(c) {}
    std::unique_ptr<pg_conn, Finish> c_;
    std::unordered_map<std::string, std::string> prepared_;  // statement text -> its name
    std::size_t names_ = 0;
};

// The error a failed statement gives, named by its SQLSTATE: class 23 (a constraint) is
// Constraint, a lost connection or class 08 is Io, a cancelled statement (its timeout) Busy.
StoreError statement_error(pg_conn* c, pg_result* r);

}  // namespace xq::server::pg
