#include "support/temp_postgres.h"

#include <libpq-fe.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace xq::test {
namespace {

constexpr const char* kBin = "/usr/lib/postgresql/15/bin";

// The processes whose parent is `parent`, from /proc.
std::vector<pid_t> children_of(pid_t parent) {
    std::vector<pid_t> children;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        if (!std::getline(stat, line)) continue;  // gone meanwhile
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
        const auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        char state = 0;
        long ppid = 0;
        if (std::sscanf(line.c_str() + close + 1, " %c %ld", &state, &ppid) == 2 && ppid == parent)
            children.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return children;
}

// As root, the postgres user the package creates (the binaries refuse root); else ourselves.
bool as_root() { return geteuid() == 0; }

std::string run_as_prefix() {
    return as_root() ? "setpriv --reuid=postgres --regid=postgres --clear-groups " : "";
}

// A test killed with SIGKILL leaves its directory (its server stopped through --pdeathsig): remove
// those whose postmaster is gone, once they are an hour old (a younger one may be another test's,
// still in initdb).
void remove_stale_dirs() {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/dev/shm", ec)) {
        if (!entry.path().filename().string().starts_with("xqpg.")) continue;
        const auto age = std::filesystem::file_time_type::clock::now() - entry.last_write_time(ec);
        if (ec || age < std::chrono::hours(1)) continue;
        std::ifstream pid_file(entry.path() / "data" / "postmaster.pid");
        pid_t pid = 0;
        if (pid_file >> pid && pid > 0 && (::kill(pid, 0) == 0 || errno != ESRCH)) continue;
        std::filesystem::remove_all(entry.path(), ec);
    }
}

}  // namespace

TempPostgres::TempPostgres() {
    remove_stale_dirs();
    // Short: the socket path (dir + "/.s.PGSQL.5432") must stay under 107 bytes.
    char pattern[] = "/dev/shm/xqpg.XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed under /dev/shm");
    dir_ = pattern;
    if (as_root()) {
        const passwd* pw = getpwnam("postgres");
        if (!pw || chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0)
            throw std::runtime_error("no postgres user to run PostgreSQL as (install postgresql-15)");
    }
    const std::string initdb = "cd " + dir_ + " && " + run_as_prefix() + kBin + "/initdb -D " + dir_ +
                               "/data -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync --no-instructions > " +
                               dir_ + "/initdb.log 2>&1";
    if (std::system(initdb.c_str()) != 0) throw std::runtime_error("initdb failed, see " + dir_ + "/initdb.log");
    start();
}

TempPostgres::~TempPostgres() {
    if (pid_ > 0) stop(SIGINT);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

TempPostgres& TempPostgres::shared() {
    static TempPostgres server;
    return server;
}

std::string TempPostgres::conninfo() const {
    return "host=" + dir_ + " port=" + std::to_string(port_) + " user=postgres dbname=postgres";
}

std::string TempPostgres::fresh_schema() {
    const std::string name = "t" + std::to_string(getpid()) + "_" + std::to_string(++schemas_);
    std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(conninfo().c_str()), PQfinish);
    if (PQstatus(conn.get()) != CONNECTION_OK)
        throw std::runtime_error(std::string("connect to the test postgres: ") + PQerrorMessage(conn.get()));
    std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(conn.get(), ("CREATE SCHEMA " + name).c_str()), PQclear);
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK)
        throw std::runtime_error(std::string("CREATE SCHEMA: ") + PQresultErrorMessage(r.get()));
    return conninfo() + " options='-c search_path=" + name + "'";
}

void TempPostgres::stop(int signal) {
    if (pid_ <= 0) return;
    if (signal == SIGKILL) {
        // A crash kills the backends too, as a dying database machine would: a backend outliving
        // its postmaster can still commit. Each backend is a process group of its own (postgres
        // calls setsid), so they are found as the postmaster's children; stopped first, the
        // postmaster forks none meanwhile.
        ::kill(pid_, SIGSTOP);
        for (const pid_t child : children_of(pid_)) ::kill(child, SIGKILL);
    }
    ::kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
}

void TempPostgres::start() {
    if (pid_ > 0) return;
    // After a SIGKILL the old backends may still hold the shared memory for a moment and the new
    // postmaster refuses to start; it exits at once, and we try again.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
        std::fflush(nullptr);  // else the child writes the parent's buffered output again
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            if (chdir(dir_.c_str()) != 0) _exit(127);
            const std::string log = dir_ + "/server.log";
            if (!freopen(log.c_str(), "a", stdout) || !freopen(log.c_str(), "a", stderr)) _exit(127);
            const std::string data = dir_ + "/data", port = std::to_string(port_), postgres = std::string(kBin) + "/postgres";
            const char* server[] = {postgres.c_str(), "-D", data.c_str(), "-p", port.c_str(), "-k", dir_.c_str(),
                                    "-c", "listen_addresses=", "-c", "fsync=off", "-c", "max_connections=60",
                                    "-c", "shared_buffers=16MB", nullptr};
            if (as_root()) {
                std::vector<const char*> argv = {"setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups",
                                                 "--pdeathsig", "INT", "--"};
                for (const char** a = server; *a; ++a) argv.push_back(*a);
                argv.push_back(nullptr);
                execv("/usr/bin/setpriv", const_cast<char* const*>(argv.data()));
            } else {
                execv(postgres.c_str(), const_cast<char* const*>(server));
            }
            _exit(127);
        }
        try {
            wait_ready();
            return;
        } catch (const std::runtime_error&) {
            if (pid_ > 0 || std::chrono::steady_clock::now() > deadline) throw;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));  // a retry's pace, not a wait for an event
    }
}

void TempPostgres::wait_ready() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (PQping(conninfo().c_str()) != PQPING_OK) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            throw std::runtime_error("postgres exited, see " + dir_ + "/server.log");
        }
        if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("postgres did not start in 20 s");
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

}  // namespace xq::test
