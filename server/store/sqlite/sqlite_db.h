#pragma once
// Thin RAII layer over the SQLite C API, private to the store: a connection that caches its
// prepared statements, a query that resets its statement when it goes out of scope, and a
// transaction that rolls back unless committed. Nothing here throws; errors come back as StoreError.
// A Database is used from one thread at a time (it is opened without SQLite's own mutex).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>

#include "server/store/store_error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace xq::server::sql {

// A value bound to a `?` parameter, in order. Strings are bound by copy (SQLITE_TRANSIENT).
// Doubles are ratings (REAL columns); the variant's no-narrowing rule keeps an int an int64.
using Value = std::variant<std::nullptr_t, std::int64_t, std::string_view, double>;

// Maps an (extended) SQLite result code to our codes. The message is SQLite's own text plus the
// number; callers prefix what they were doing.
StoreError make_error(int rc, std::string_view detail);

// One cached statement in use. Reset and unbound on destruction, so an abandoned read never
// keeps a snapshot (and the WAL) pinned.
class Query {
public:
    Query(Query&& other) noexcept;
    Query& operator=(Query&&) = delete;
    ~Query();

    // Steps once: true when a row is ready, false when the statement is done.
    StoreResult<bool> next();

    // Columns of the current row (0-based). NULL reads as 0 or "".
    std::int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    bool is_null(int column) const;

private:
    friend class Database;
    Query(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}

    sqlite3* db_;
    sqlite3_stmt* stmt_;  // owned by the Database's cache; null once moved from
};

class Database {
public:
    // Opens (creating if absent) a read-write connection. A file that is not a database is only
    // detected on first use, so the caller runs a statement before trusting the connection.
    static StoreResult<Database> open(const std::string& path);

    // Prepares (once; cached for the life of the connection) and binds a statement. A statement
    // is in use by at most one Query at a time.
    StoreResult<Query> query(std::string_view sql, std::initializer_list<Value> args = {});
    // Runs a statement to completion, discarding any rows.
    StoreResult<void> run(std::string_view sql, std::initializer_list<Value> args = {});
    // Runs a script of several statements, uncached (schema creation and PRAGMAs).
    StoreResult<void> exec(const std::string& script);

    std::int64_t changes() const;
    std::int64_t last_insert_rowid() const;
    bool in_transaction() const;
    void set_busy_timeout(int ms);

private:
    struct CloseDb {
        void operator()(sqlite3* db) const;
    };
    struct FinalizeStmt {
        void operator()(sqlite3_stmt* stmt) const;
    };
    // Lets the cache be searched by string_view without building a std::string per call.
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    explicit Database(sqlite3* db) : db_(db) {}
    StoreResult<sqlite3_stmt*> prepare(std::string_view sql);
    StoreError last_error(int rc) const;

    std::unique_ptr<sqlite3, CloseDb> db_;
    // Declared after db_ so every statement is finalized before the connection closes.
    std::unordered_map<std::string, std::unique_ptr<sqlite3_stmt, FinalizeStmt>, Hash, std::equal_to<>>
        cache_;
};

// BEGIN IMMEDIATE for writers (takes the write lock up front, so a busy wait happens at the start
// and never half-way), DEFERRED for readers (a consistent snapshot across several queries).
class Transaction {
public:
    enum class Kind { Read, Write };

    static StoreResult<Transaction> begin(Database& db, Kind kind);
    Transaction(Transaction&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}
    Transaction& operator=(Transaction&&) = delete;
    ~Transaction();

    StoreResult<void> commit();

private:
    explicit Transaction(Database* db) : db_(db) {}
    Database* db_;  // null once committed or moved from
};

}  // namespace xq::server::sql
