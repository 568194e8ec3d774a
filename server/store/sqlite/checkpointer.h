#pragma once
// WAL checkpoints on a thread of their own. A checkpoint copies the WAL into the database file and,
// with synchronous=NORMAL, syncs both: done by the committing connection (SQLite's default, every
// 1000 pages) those fsyncs stall the event loop for milliseconds. Here a second connection runs a
// PASSIVE checkpoint (it never blocks the writer) every interval, and the server's connection
// never checkpoints (SqliteStore::hand_checkpoints_over).

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "server/store/store_error.h"

namespace xq::server {

class Checkpointer {
public:
    static StoreResult<std::unique_ptr<Checkpointer>> start(const std::filesystem::path& path,
                                                            std::chrono::milliseconds every);
    Checkpointer(const Checkpointer&) = delete;
    Checkpointer& operator=(const Checkpointer&) = delete;
    ~Checkpointer();  // a last checkpoint, then joins

private:
    Checkpointer() = default;
    void run(std::string path, std::chrono::milliseconds every);

    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace xq::server
