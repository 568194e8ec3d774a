#pragma once
// Straight to SQLite, past the store: for facts its API does not expose (schema version, erased
// tokens, row counts) and for damage or old layouts a test plants in a file.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace xq::test {

// The first column of the first row, or -1 if the query fails or returns no row.
inline std::int64_t raw_int(const std::filesystem::path& db, const std::string& sql_text) {
    sqlite3* h = nullptr;
    std::int64_t value = -1;
    if (sqlite3_open(db.c_str(), &h) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(h, sql_text.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
            value = sqlite3_column_int64(stmt, 0);
        sqlite3_finalize(stmt);
    }
    sqlite3_close(h);
    return value;
}

// One column of every row as text, joined by newlines ("" if the query fails): EXPLAIN QUERY PLAN's
// details, for instance.
inline std::string raw_lines(const std::filesystem::path& db, const std::string& sql_text, int column) {
    sqlite3* h = nullptr;
    std::string out;
    if (sqlite3_open(db.c_str(), &h) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(h, sql_text.c_str(), -1, &stmt, nullptr) == SQLITE_OK)
            while (sqlite3_step(stmt) == SQLITE_ROW)
                if (const unsigned char* text = sqlite3_column_text(stmt, column))
                    out += reinterpret_cast<const char*>(text) + std::string("\n");
        sqlite3_finalize(stmt);
    }
    sqlite3_close(h);
    return out;
}

// Runs statements; a failure fails the calling test with SQLite's message.
inline void raw_exec(const std::filesystem::path& db, const std::string& sql_text) {
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(h, sql_text.c_str(), nullptr, nullptr, &err);
    const std::string message = err ? err : "";
    sqlite3_free(err);
    sqlite3_close(h);
    ASSERT_EQ(rc, SQLITE_OK) << message;
}

}  // namespace xq::test
