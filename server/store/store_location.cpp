// The factory: the location's kind picks the backend.

#include "server/store/store_location.h"

#include <cstdlib>

#include "server/store/postgres/pg_store.h"
#include "server/store/sqlite/sqlite_store.h"

namespace xq::server {

StoreResult<std::unique_ptr<Store>> open_store(const StoreLocation& where) {
    if (const auto* file = std::get_if<SqliteLocation>(&where)) {
        auto store = SqliteStore::open(file->path);
        if (!store) return std::unexpected(std::move(store.error()));
        // Without the thread (it could not open its connection) SQLite checkpoints on commit, as
        // it does by default: slower turns now and then, nothing lost.
        if (file->checkpoint_thread) (void)store->checkpoint_on_thread(std::chrono::milliseconds(200));
        return std::make_unique<SqliteStore>(std::move(*store));
    }
    const auto& database = std::get<PostgresLocation>(where);
    auto store = PgStore::open(database.conninfo, PgStoreOptions{database.node});
    if (!store) return std::unexpected(std::move(store.error()));
    return std::unique_ptr<Store>(std::move(*store));
}

StoreResult<std::filesystem::path> db_path_from(std::optional<std::string_view> xdg_data_home,
                                                std::optional<std::string_view> home) {
    if (xdg_data_home && std::filesystem::path(*xdg_data_home).is_absolute())
        return std::filesystem::path(*xdg_data_home) / "xiangqi" / "xiangqi.db";
    if (home && !home->empty()) return std::filesystem::path(*home) / ".local" / "share" / "xiangqi" / "xiangqi.db";
    return std::unexpected(StoreError{StoreErrorCode::NotFound, "neither XDG_DATA_HOME nor HOME is set"});
}

StoreResult<std::filesystem::path> default_db_path() {
    auto env = [](const char* name) -> std::optional<std::string_view> {
        const char* value = std::getenv(name);
        if (value == nullptr) return std::nullopt;
        return std::string_view(value);
    };
    return db_path_from(env("XDG_DATA_HOME"), env("HOME"));
}

}  // namespace xq::server
