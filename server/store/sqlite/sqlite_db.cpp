#include "server/store/sqlite/sqlite_db.h"

#include <sqlite3.h>

#include <cstring>

namespace xq::server::sql {

namespace {

StoreErrorCode code_for(int rc) {
    switch (rc & 0xff) {  // an extended code keeps its primary code in the low byte
        case SQLITE_CONSTRAINT:
            return StoreErrorCode::Constraint;
        case SQLITE_CORRUPT:
        case SQLITE_NOTADB:
            return StoreErrorCode::Corrupt;
        case SQLITE_IOERR:
        case SQLITE_FULL:
        case SQLITE_PROTOCOL:
            return StoreErrorCode::Io;
        case SQLITE_CANTOPEN:
        case SQLITE_PERM:
        case SQLITE_AUTH:
            return StoreErrorCode::OpenFailed;
        case SQLITE_READONLY:
            return StoreErrorCode::ReadOnly;
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return StoreErrorCode::Busy;
        default:
            return StoreErrorCode::Internal;
    }
}

}  // namespace

StoreError make_error(int rc, std::string_view detail) {
    return {code_for(rc), std::string(detail) + " (sqlite code " + std::to_string(rc) + ")"};
}

Query::Query(Query&& other) noexcept : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

Query::~Query() {
    if (stmt_ == nullptr) return;
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

StoreResult<bool> Query::next() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return std::unexpected(make_error(rc, sqlite3_errmsg(db_)));
}

std::int64_t Query::int64(int column) const { return sqlite3_column_int64(stmt_, column); }
double Query::real(int column) const { return sqlite3_column_double(stmt_, column); }

std::string Query::text(int column) const {
    const unsigned char* p = sqlite3_column_text(stmt_, column);
    if (p == nullptr) return {};
    return std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

bool Query::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

void Database::CloseDb::operator()(sqlite3* db) const { sqlite3_close_v2(db); }
void Database::FinalizeStmt::operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }

StoreResult<Database> Database::open(const std::string& path) {
    // NOMUTEX: one thread per connection is our rule, so SQLite's own locking is wasted work.
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
    Database db(raw);  // closes the handle even when the open failed, as SQLite requires
    if (rc != SQLITE_OK) {
        std::string detail = raw != nullptr ? sqlite3_errmsg(raw) : "out of memory";
        if (raw != nullptr && sqlite3_system_errno(raw) != 0) {
            detail += ": ";
            detail += std::strerror(sqlite3_system_errno(raw));
        }
        StoreError error = make_error(rc, detail);
        if (error.code == StoreErrorCode::Internal) error.code = StoreErrorCode::OpenFailed;
        return std::unexpected(in_context(std::move(error), "cannot open " + path));
    }
    sqlite3_extended_result_codes(raw, 1);
    return db;
}

StoreError Database::last_error(int rc) const { return make_error(rc, sqlite3_errmsg(db_.get())); }

StoreResult<sqlite3_stmt*> Database::prepare(std::string_view sql) {
    if (auto it = cache_.find(sql); it != cache_.end()) return it->second.get();
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    const int rc = sqlite3_prepare_v3(db_.get(), sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, &tail);
    if (rc != SQLITE_OK) return std::unexpected(last_error(rc));
    std::unique_ptr<sqlite3_stmt, FinalizeStmt> owned(stmt);
    if (stmt == nullptr || tail != sql.data() + sql.size())
        return std::unexpected(StoreError{StoreErrorCode::Internal, "not exactly one statement: " + std::string(sql)});
    return cache_.emplace(std::string(sql), std::move(owned)).first->second.get();
}

StoreResult<Query> Database::query(std::string_view sql, std::initializer_list<Value> args) {
    auto stmt = prepare(sql);
    if (!stmt) return std::unexpected(std::move(stmt.error()));
    if (sqlite3_stmt_busy(*stmt) != 0)
        return std::unexpected(StoreError{StoreErrorCode::Internal, "statement already in use: " + std::string(sql)});
    Query query(db_.get(), *stmt);  // from here on the statement is reset whatever happens
    int index = 0;
    for (const Value& arg : args) {
        ++index;
        int rc = SQLITE_OK;
        if (const auto* i = std::get_if<std::int64_t>(&arg)) {
            rc = sqlite3_bind_int64(*stmt, index, *i);
        } else if (const auto* d = std::get_if<double>(&arg)) {
            rc = sqlite3_bind_double(*stmt, index, *d);
        } else if (const auto* s = std::get_if<std::string_view>(&arg)) {
            // A null data pointer would bind NULL, not the empty string.
            const char* data = s->data() != nullptr ? s->data() : "";
            rc = sqlite3_bind_text64(*stmt, index, data, s->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
        } else {
            rc = sqlite3_bind_null(*stmt, index);
        }
        if (rc != SQLITE_OK) return std::unexpected(last_error(rc));
    }
    return query;
}

StoreResult<void> Database::run(std::string_view sql, std::initializer_list<Value> args) {
    auto q = query(sql, args);
    if (!q) return std::unexpected(std::move(q.error()));
    while (true) {
        auto row = q->next();
        if (!row) return std::unexpected(std::move(row.error()));
        if (!*row) return {};
    }
}

StoreResult<void> Database::exec(const std::string& script) {
    char* message = nullptr;
    const int rc = sqlite3_exec(db_.get(), script.c_str(), nullptr, nullptr, &message);
    if (rc == SQLITE_OK) return {};
    std::string detail = message != nullptr ? message : sqlite3_errmsg(db_.get());
    sqlite3_free(message);
    return std::unexpected(make_error(rc, detail));
}

std::int64_t Database::changes() const { return sqlite3_changes64(db_.get()); }
std::int64_t Database::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_.get()); }
bool Database::in_transaction() const { return sqlite3_get_autocommit(db_.get()) == 0; }
void Database::set_busy_timeout(int ms) { sqlite3_busy_timeout(db_.get(), ms); }

StoreResult<Transaction> Transaction::begin(Database& db, Kind kind) {
    auto begun = db.run(kind == Kind::Write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
    if (!begun) return std::unexpected(in_context(std::move(begun.error()), "begin transaction"));
    return Transaction(&db);
}

Transaction::~Transaction() {
    // SQLite may already have rolled back on its own (disk full, I/O error): only roll back if open.
    if (db_ != nullptr && db_->in_transaction()) (void)db_->run("ROLLBACK");
}

StoreResult<void> Transaction::commit() {
    auto done = db_->run("COMMIT");
    if (!done) return std::unexpected(in_context(std::move(done.error()), "commit"));
    db_ = nullptr;
    return {};
}

}  // namespace xq::server::sql
