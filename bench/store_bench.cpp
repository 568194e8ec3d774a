// The group-commit gain of the live-game journal: appending moves as the server does
// (commit_journal) with one transaction per move against one transaction per batch, on a fresh
// file in a temporary directory, with the store's settings (WAL, synchronous=NORMAL). --sync-full
// repeats both with synchronous=FULL, where every commit waits for an fsync. Each run gets a fresh
// file; the medians of three rounds are printed.
//
// --postgres CONNINFO adds the same two shapes on the PostgreSQL backend (an emptied database per
// run), printed after SQLite's line of the same invocation.
//
// usage: store_bench [--sync-full] [--postgres CONNINFO] [MOVES [BATCH]]   (defaults 10000 and 100)

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/store/postgres/pg_store.h"
#include "server/store/sqlite/sqlite_store.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;
using xq::server::JournalAppend;
using xq::server::JournalMove;
using xq::server::JournalRecord;
using xq::server::JournalStart;
using xq::server::PgStore;
using xq::server::SqliteStore;
using xq::server::Store;
using xq::server::StoreError;

// A scratch directory removed on scope exit.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "xq-store-bench-XXXXXX").string();
        if (mkdtemp(pattern.data()) != nullptr) path = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        if (!path.empty()) fs::remove_all(path, ec);
    }
};

// Commits a batch of journal records; false after printing the error.
bool commit(Store& store, const std::vector<JournalRecord>& records) {
    auto done = store.commit_journal(records);
    if (done && done->empty()) return true;
    const StoreError& error = done ? done->front().error : done.error();
    std::fprintf(stderr, "commit: %s\n", error.message.c_str());
    return false;
}

// Appends `moves` plies to a new game on a fresh file, in batches of `batch`; returns moves per
// second, or a negative figure after printing the error.
// `postgres` empty: a SQLite file; else that PostgreSQL database, emptied first.
double run(bool sync_full, const std::string& postgres, int moves, int batch) {
    TempDir dir;
    if (dir.path.empty()) {
        std::fprintf(stderr, "cannot create a temporary directory\n");
        return -1;
    }
    std::unique_ptr<Store> store;
    if (postgres.empty()) {
        auto opened = SqliteStore::open(dir.path / "bench.db", {.sync_full = sync_full});
        if (opened) store = std::make_unique<SqliteStore>(std::move(*opened));
        else std::fprintf(stderr, "open: %s\n", opened.error().message.c_str());
    } else {
        auto opened = PgStore::open(postgres);
        if (opened && (*opened)->clear()) store = std::move(*opened);
        else if (!opened) std::fprintf(stderr, "open: %s\n", opened.error().message.c_str());
    }
    if (!store) return -1;
    const xq::server::LiveGameRecord record{"g", "red", "black", "r-token", "b-token", {600, 10, 0},
                                            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 0};
    if (!commit(*store, {JournalStart{record, "", 1}})) return -1;
    static constexpr const char* kIccs[] = {"h2e2", "h9g7", "e2h2", "g7h9"};
    std::vector<JournalRecord> pending;
    pending.reserve(static_cast<std::size_t>(batch));
    const auto start = Clock::now();
    for (int ply = 1; ply <= moves; ++ply) {
        const JournalMove move{record.id, ply, kIccs[ply % 4], ply, 600'000 - ply, 600'000 - ply, ply};
        pending.push_back(JournalAppend{move, static_cast<std::uint64_t>(ply) + 1});
        if (static_cast<int>(pending.size()) == batch || ply == moves) {
            if (!commit(*store, pending)) return -1;
            pending.clear();
        }
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return moves / seconds;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Alternates the two shapes over a few rounds (each on its own file) and prints the medians.
bool bench(bool sync_full, const std::string& postgres, int moves, int batch) {
    constexpr int kRounds = 3;
    std::vector<double> single, grouped;
    for (int round = 0; round < kRounds; ++round) {
        single.push_back(run(sync_full, postgres, moves, 1));
        grouped.push_back(run(sync_full, postgres, moves, batch));
        if (single.back() <= 0 || grouped.back() <= 0) return false;
    }
    const double one = median(single);
    const double many = median(grouped);
    std::printf("%-10s synchronous=%-6s %6d moves, median of %d: 1 per transaction %9.0f moves/s, %d per transaction "
                "%9.0f moves/s, group-commit gain %.1fx\n",
                postgres.empty() ? "sqlite" : "postgres", sync_full ? "FULL" : "NORMAL", moves, kRounds, one, batch, many, many / one);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    bool sync_full = false;
    std::string postgres;
    std::vector<int> numbers;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--sync-full") {
            sync_full = true;
        } else if (arg == "--postgres" && i + 1 < argc) {
            postgres = argv[++i];
        } else {
            const int n = std::atoi(argv[i]);
            if (n < 1) {
                std::fprintf(stderr, "usage: store_bench [--sync-full] [--postgres CONNINFO] [MOVES [BATCH]]\n");
                return 2;
            }
            numbers.push_back(n);
        }
    }
    const int moves = numbers.size() > 0 ? numbers[0] : 10'000;
    const int batch = numbers.size() > 1 ? numbers[1] : 100;
    if (!bench(false, "", moves, batch)) return 1;
    if (sync_full && !bench(true, "", moves, batch)) return 1;
    // PostgreSQL's durability is the server's setting (fsync, synchronous_commit), not ours.
    if (!postgres.empty() && !bench(false, postgres, moves, batch)) return 1;
    return 0;
}
