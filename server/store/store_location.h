#pragma once
// Where the store lives, and the factory that opens the backend for it: a SQLite file (the single
// process's default) or a PostgreSQL database named by a libpq connection string (a cluster's).

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "server/store/store.h"

namespace xq::server {

struct SqliteLocation {
    std::filesystem::path path;
    // WAL checkpoints on a thread of the store's own instead of inside the loop's commits.
    bool checkpoint_thread = false;
};
struct PostgresLocation {
    std::string conninfo;  // "host=/tmp/x port=5432 dbname=xq" or "postgresql://..."
    std::string node = {};  // this node's id in a cluster (game_ownership.h); "" = a single node
};
using StoreLocation = std::variant<SqliteLocation, PostgresLocation>;

// Opens (creating the schema if needed) the backend for `where`. Errors name the location.
StoreResult<std::unique_ptr<Store>> open_store(const StoreLocation& where);

// $XDG_DATA_HOME/xiangqi/xiangqi.db, else $HOME/.local/share/xiangqi/xiangqi.db. A relative
// XDG_DATA_HOME is ignored, as the XDG spec says. Creating the directory is the caller's business.
StoreResult<std::filesystem::path> default_db_path();
// The same rule with the variables passed in (nullopt: unset).
StoreResult<std::filesystem::path> db_path_from(std::optional<std::string_view> xdg_data_home,
                                                std::optional<std::string_view> home);

}  // namespace xq::server
