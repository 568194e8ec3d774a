#pragma once
// A throw-away PostgreSQL 15 for tests: initdb into a short directory under /dev/shm, the
// postmaster a child of the test process listening only on a Unix socket in that directory, fsync
// off. PostgreSQL refuses to run as root (CI is root), so as root it runs as the `postgres` user
// through setpriv, whose --pdeathsig INT makes it shut down if the test dies without its
// destructor (toolchain-cluster.md 1.1-1.3). The destructor stops it, waits for it and removes the
// directory.
//
// stop() and start() stop the postmaster and start it again on the same socket and data: what a
// test of "the database went away and came back" needs.

#include <sys/types.h>

#include <csignal>
#include <string>
#include <string_view>

namespace xq::test {

class TempPostgres {
public:
    TempPostgres();  // throws std::runtime_error naming the log to read
    TempPostgres(const TempPostgres&) = delete;
    TempPostgres& operator=(const TempPostgres&) = delete;
    ~TempPostgres();

    // One instance per test process, started on first use (a start costs ~0.5 s; a schema costs
    // milliseconds).
    static TempPostgres& shared();

    // The libpq connection string of the `postgres` database.
    std::string conninfo() const;
    // A new empty schema, and a connection string whose search_path is that schema only: a fresh
    // store for each test on the one server.
    std::string fresh_schema();

    // SIGINT (fast shutdown) of the postmaster, or SIGKILL (a crash: the next start recovers) of it
    // and its backends; waits for it to exit. Then start() brings it back on the same socket and
    // data directory.
    void stop(int signal = SIGINT);
    void start();
    bool running() const { return pid_ > 0; }

    const std::string& dir() const { return dir_; }

private:
    void wait_ready();

    std::string dir_;
    int port_ = 5432;  // only names the socket file: nothing listens on TCP
    pid_t pid_ = -1;
    int schemas_ = 0;
};

}  // namespace xq::test
