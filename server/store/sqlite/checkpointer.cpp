#include "server/store/sqlite/checkpointer.h"

#include "server/store/sqlite/sqlite_db.h"
#include "server/store/sqlite/sqlite_store.h"

namespace xq::server {

StoreResult<std::unique_ptr<Checkpointer>> Checkpointer::start(const std::filesystem::path& path,
                                                               std::chrono::milliseconds every) {
    // Opened here, so a file that cannot be opened is reported to the caller, not the thread.
    auto probe = sql::Database::open(path.string());
    if (!probe) return std::unexpected(std::move(probe.error()));
    std::unique_ptr<Checkpointer> c(new Checkpointer());
    c->thread_ = std::thread([raw = c.get(), p = path.string(), every] { raw->run(p, every); });
    return c;
}

Checkpointer::~Checkpointer() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Checkpointer::run(std::string path, std::chrono::milliseconds every) {
    auto db = sql::Database::open(path);
    if (!db) return;
    db->set_busy_timeout(1000);
    bool last = false;
    while (!last) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, every, [this] { return stopping_; });
            last = stopping_;
        }
        auto q = db->query("PRAGMA wal_checkpoint(PASSIVE)");
        if (q) (void)q->next();
    }
}

StoreResult<void> SqliteStore::hand_checkpoints_over() { return db_.exec("PRAGMA wal_autocheckpoint = 0"); }

StoreResult<void> SqliteStore::checkpoint_on_thread(std::chrono::milliseconds every) {
    const std::string p = path_.string();
    if (p.empty() || p == ":memory:" || p.starts_with("file:")) return {};
    auto started = Checkpointer::start(path_, every);
    if (!started) return std::unexpected(std::move(started.error()));
    // Only once the thread runs does the loop's connection stop checkpointing.
    if (auto handed = hand_checkpoints_over(); !handed) return handed;
    checkpointer_ = std::move(*started);
    return {};
}

}  // namespace xq::server
