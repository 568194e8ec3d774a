#pragma once
// The store's tests run on both backends: a value-parameterised fixture whose open() gives a
// fresh store of the backend under test. SQLite: a file in a temporary directory. PostgreSQL: a
// new schema on the one throw-away server of this test binary (support/temp_postgres.h), so a test
// costs milliseconds, not a server start. Reopening gives the same store again (same file, same
// schema).

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "server/store/postgres/pg_store.h"
#include "server/store/sqlite/sqlite_store.h"
#include "server/store/store_location.h"
#include "support/temp_dir.h"
#include "support/temp_postgres.h"

namespace xq::test {

enum class Backend { Sqlite, Postgres };

class StoreBackendTest : public ::testing::TestWithParam<Backend> {
protected:
    bool sqlite() const { return GetParam() == Backend::Sqlite; }
    std::filesystem::path db_path() const { return tmp_ / "xiangqi.db"; }
    int schema_version() const { return sqlite() ? server::SqliteStore::kSchemaVersion : server::PgStore::kSchemaVersion; }

    // A store of the backend under test, or null with the reason reported as a failure.
    std::unique_ptr<server::Store> open() {
        auto store = sqlite() ? server::open_store(server::SqliteLocation{db_path()})
                              : server::open_store(server::PostgresLocation{conninfo_});
        if (!store) {
            ADD_FAILURE() << "open: " << store.error().message;
            return nullptr;
        }
        return std::move(*store);
    }

    TempDir tmp_{"xq-store-test"};
    std::string conninfo_ = GetParam() == Backend::Postgres ? TempPostgres::shared().fresh_schema() : "";
};

inline std::string backend_name(const ::testing::TestParamInfo<Backend>& info) {
    return info.param == Backend::Sqlite ? "Sqlite" : "Postgres";
}

}  // namespace xq::test

#define XQ_INSTANTIATE_ON_BOTH_BACKENDS(fixture)                                                                  \
    INSTANTIATE_TEST_SUITE_P(Backends, fixture,                                                                   \
                             ::testing::Values(::xq::test::Backend::Sqlite, ::xq::test::Backend::Postgres),       \
                             ::xq::test::backend_name)
