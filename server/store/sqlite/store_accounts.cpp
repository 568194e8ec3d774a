// Accounts and their login sessions: small single-row statements, fast enough for the loop (the
// slow part of a login, Argon2id, runs on the password workers before any of these).

#include "server/store/sqlite/sqlite_store.h"

namespace xq::server {


StoreResult<void> SqliteStore::create_account(const AccountRecord& a) {
    auto done = db_.run("INSERT INTO accounts (key, name, password_hash, created_at, computer) VALUES (?, ?, ?, ?, ?)",
                        {a.key, a.name, a.password_hash, a.created_at_ms, std::int64_t{a.computer}});
    if (!done) return std::unexpected(in_context(std::move(done.error()), "create account"));
    return {};
}

StoreResult<std::optional<AccountRecord>> SqliteStore::find_account(std::string_view key) {
    auto q = db_.query("SELECT key, name, password_hash, created_at, computer FROM accounts WHERE key = ?", {key});
    if (!q) return std::unexpected(in_context(std::move(q.error()), "find account"));
    auto row = q->next();
    if (!row) return std::unexpected(in_context(std::move(row.error()), "find account"));
    if (!*row) return std::optional<AccountRecord>{};
    return std::optional<AccountRecord>{AccountRecord{q->text(0), q->text(1), q->text(2), q->int64(3), q->int64(4) != 0}};
}

StoreResult<void> SqliteStore::set_password_hash(std::string_view key, std::string_view password_hash) {
    auto done = db_.run("UPDATE accounts SET password_hash = ? WHERE key = ?", {password_hash, key});
    if (!done) return std::unexpected(in_context(std::move(done.error()), "change password"));
    if (db_.changes() == 0) return std::unexpected(StoreError{StoreErrorCode::NotFound, "no such account"});
    return {};
}

StoreResult<void> SqliteStore::add_session(std::string_view token_hash, std::string_view account,
                                     std::int64_t created_at_ms, std::int64_t expires_at_ms) {
    // Expired sessions go as new ones come, so the table holds only live ones and a few stale.
    if (auto swept = db_.run("DELETE FROM sessions WHERE account = ? AND expires_at <= ?", {account, created_at_ms});
        !swept)
        return std::unexpected(in_context(std::move(swept.error()), "add session"));
    auto done = db_.run("INSERT INTO sessions (token_hash, account, created_at, expires_at) VALUES (?, ?, ?, ?)",
                        {token_hash, account, created_at_ms, expires_at_ms});
    if (!done) return std::unexpected(in_context(std::move(done.error()), "add session"));
    return {};
}

StoreResult<std::optional<std::string>> SqliteStore::session_account(std::string_view token_hash, std::int64_t now_ms) {
    std::optional<std::string> account;
    bool expired = false;
    {
        auto q = db_.query("SELECT account, expires_at FROM sessions WHERE token_hash = ?", {token_hash});
        if (!q) return std::unexpected(in_context(std::move(q.error()), "find session"));
        auto row = q->next();
        if (!row) return std::unexpected(in_context(std::move(row.error()), "find session"));
        if (*row) {
            expired = q->int64(1) <= now_ms;
            if (!expired) account = q->text(0);
        }
    }
    if (expired)
        if (auto gone = delete_session(token_hash); !gone) return std::unexpected(std::move(gone.error()));
    return account;
}

StoreResult<void> SqliteStore::delete_session(std::string_view token_hash) {
    auto done = db_.run("DELETE FROM sessions WHERE token_hash = ?", {token_hash});
    if (!done) return std::unexpected(in_context(std::move(done.error()), "delete session"));
    return {};
}

StoreResult<void> SqliteStore::delete_other_sessions(std::string_view account, std::string_view keep_hash) {
    auto done = db_.run("DELETE FROM sessions WHERE account = ? AND token_hash <> ?", {account, keep_hash});
    if (!done) return std::unexpected(in_context(std::move(done.error()), "revoke sessions"));
    return {};
}

std::int64_t SqliteStore::count_accounts() {
    auto q = db_.query("SELECT count(*) FROM accounts");
    if (!q) return 0;
    auto row = q->next();
    return row && *row ? q->int64(0) : 0;
}

}  // namespace xq::server
