// The store's schema: a new file is created at the newest version in one step, and a file made by
// the first release is migrated step by step; both must end with the same schema. Compared as
// SQLite describes it (PRAGMA table_list, table_xinfo, index_list, index_xinfo, foreign_key_list,
// and the CHECK constraints), not as CREATE text, which ALTER TABLE rewrites.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "server/store/sqlite/sqlite_store.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using namespace xq::server;

namespace {

// The version 1 layout as released: games, and the per-ply moves table with its trigger.
constexpr const char* kReleasedV1 = R"sql(
CREATE TABLE games (
    id                TEXT PRIMARY KEY NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('live', 'archived')),
    red_name          TEXT NOT NULL,
    black_name        TEXT NOT NULL,
    red_token         TEXT,
    black_token       TEXT,
    base_seconds      INTEGER NOT NULL CHECK (base_seconds >= 0),
    increment_seconds INTEGER NOT NULL CHECK (increment_seconds >= 0),
    move_cap_seconds  INTEGER NOT NULL CHECK (move_cap_seconds >= 0),
    start_fen         TEXT NOT NULL,
    created_at        INTEGER NOT NULL,
    started_at        INTEGER,
    ended_at          INTEGER,
    result            TEXT CHECK (result IN ('red_wins', 'black_wins', 'draw')),
    reason            TEXT,
    explanation       TEXT,
    moves             TEXT,
    ply_count         INTEGER,
    pgn               TEXT,
    CHECK ((status = 'live') = (result IS NULL)),
    CHECK (status = 'live' OR (started_at IS NOT NULL AND ended_at IS NOT NULL AND reason IS NOT NULL
                               AND explanation IS NOT NULL AND moves IS NOT NULL
                               AND ply_count IS NOT NULL AND pgn IS NOT NULL))
) STRICT;

CREATE INDEX games_archive_order ON games (status, ended_at DESC, id DESC);
CREATE INDEX games_by_red ON games (red_name, status, ended_at DESC, id DESC);
CREATE INDEX games_by_black ON games (black_name, status, ended_at DESC, id DESC);

CREATE TABLE moves (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL CHECK (ply >= 1),
    iccs     TEXT NOT NULL,
    move_id  INTEGER NOT NULL,
    red_ms   INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER moves_append_only BEFORE INSERT ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves can only be appended to a live game')
    WHERE (SELECT status FROM games WHERE id = NEW.game_id) IS NOT 'live';
    SELECT RAISE(ABORT, 'ply is not the next ply of its game (stored already, or a gap)')
    WHERE NEW.ply <> (SELECT COALESCE(MAX(ply), 0) + 1 FROM moves WHERE game_id = NEW.game_id);
END;

PRAGMA user_version = 1;
)sql";

// Whitespace runs as one space, so layout does not count.
std::string squeeze(const std::string& text) {
    std::string out;
    for (char c : text) {
        const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
        if (!space)
            out += c;
        else if (!out.empty() && out.back() != ' ')
            out += ' ';
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

// Every "CHECK (...)" in a CREATE TABLE, sorted: where ALTER TABLE put new columns does not count.
std::vector<std::string> checks_of(const std::string& create) {
    std::vector<std::string> out;
    const std::string text = squeeze(create);
    for (std::size_t at = text.find("CHECK"); at != std::string::npos; at = text.find("CHECK", at + 1)) {
        std::size_t i = text.find('(', at);
        int depth = 0;
        for (std::size_t j = i; j < text.size(); ++j) {
            depth += text[j] == '(' ? 1 : text[j] == ')' ? -1 : 0;
            if (depth == 0) {
                out.push_back(text.substr(at, j + 1 - at));
                break;
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The rows of a query, each as its columns joined by '|' (NULL as "NULL"), after a label.
std::vector<std::string> rows_of(sqlite3* db, const std::string& sql_text, const std::string& label) {
    std::vector<std::string> out;
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql_text.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        std::string row = label;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
            const auto* text = sqlite3_column_text(stmt, c);
            row += '|';
            row += text ? reinterpret_cast<const char*>(text) : "NULL";
        }
        out.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    return out;
}

// The schema of a file as SQLite sees it, one line per fact, in a stable order.
std::vector<std::string> describe(const fs::path& path) {
    std::vector<std::string> out;
    const auto add = [&out](const std::vector<std::string>& lines) {
        out.insert(out.end(), lines.begin(), lines.end());
    };
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    add(rows_of(db, "PRAGMA user_version", "user_version"));
    // Tables, indexes (the automatic ones too), triggers and views by name.
    add(rows_of(db, "SELECT type, name, tbl_name FROM sqlite_schema ORDER BY type, name", "object"));
    // A trigger or view has no PRAGMA of its own: its text is what it is.
    for (const std::string& line :
         rows_of(db,
                 "SELECT name, sql FROM sqlite_schema WHERE type IN ('trigger', 'view') "
                 "ORDER BY name",
                 "text"))
        out.push_back(squeeze(line));
    const std::string kTables = "SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name";
    sqlite3_stmt* tables = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, kTables.c_str(), -1, &tables, nullptr), SQLITE_OK);
    while (sqlite3_step(tables) == SQLITE_ROW) {
        const std::string table = reinterpret_cast<const char*>(sqlite3_column_text(tables, 0));
        const std::string quoted = "('" + table + "')";
        for (const std::string& check :
             checks_of(reinterpret_cast<const char*>(sqlite3_column_text(tables, 1))))
            out.push_back("check " + table + ": " + check);
        // Kind, column count, WITHOUT ROWID and STRICT.
        add(rows_of(
            db, "SELECT type, ncol, wr, strict FROM pragma_table_list" + quoted + " WHERE schema = 'main'",
            "table " + table));
        add(rows_of(db, "SELECT * FROM pragma_table_xinfo" + quoted, "column " + table));
        add(rows_of(db, "SELECT * FROM pragma_foreign_key_list" + quoted, "foreign key " + table));
        const std::string indexes = " FROM pragma_index_list" + quoted + " ORDER BY name";
        add(rows_of(db, "SELECT name, \"unique\", origin, partial" + indexes, "index " + table));
        for (std::string index : rows_of(db, "SELECT name" + indexes, "")) {
            index.erase(0, 1);  // the '|' after the empty label
            add(rows_of(db, "SELECT * FROM pragma_index_xinfo('" + index + "')", "index column " + index));
        }
    }
    sqlite3_finalize(tables);
    sqlite3_close(db);
    return out;
}

class StoreSchemaTest : public ::testing::Test {
protected:
    xq::test::TempDir tmp_{"xq-store-schema"};
    const fs::path& dir_ = tmp_.path();
};

TEST_F(StoreSchemaTest, ANewFileAndAMigratedOneHaveTheSameSchema) {
    const fs::path fresh = dir_ / "fresh.db";
    const fs::path migrated = dir_ / "migrated.db";
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(migrated.c_str(), &db), SQLITE_OK);
        char* error = nullptr;
        const int rc = sqlite3_exec(db, kReleasedV1, nullptr, nullptr, &error);
        const std::string message = error ? error : "";
        sqlite3_free(error);
        sqlite3_close(db);
        ASSERT_EQ(rc, SQLITE_OK) << message;
    }
    const std::vector<std::string> v1 = describe(migrated);
    for (const fs::path& path : {fresh, migrated}) {
        auto store = SqliteStore::open(path);
        ASSERT_TRUE(store) << store.error().message;
        EXPECT_EQ(store->schema_version(), SqliteStore::kSchemaVersion);
    }

    const std::vector<std::string> want = describe(fresh);
    EXPECT_EQ(describe(migrated), want);
    // The description sees what a migration changes: the V1 file's differs, in columns and checks.
    EXPECT_NE(v1, want);
    const auto has = [&](const std::string& prefix) {
        return std::any_of(want.begin(), want.end(),
                           [&](const std::string& line) { return line.starts_with(prefix); });
    };
    EXPECT_TRUE(has("column games|20|join_code|TEXT|0|NULL|0|0"));
    EXPECT_TRUE(has("check journal: CHECK (n >= 1)"));
    EXPECT_TRUE(has("index column games_by_red|1|"));
    EXPECT_TRUE(has("table journal|table|10|0|1"));
    EXPECT_FALSE(has("object|table|moves|"));
}

}  // namespace
