#include "server/store/postgres/pg_conn.h"

#include <libpq-fe.h>
#include <poll.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace xq::server::pg {

Param param(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return std::string(text);
}

void Result::Clear::operator()(pg_result* r) const { PQclear(r); }
int Result::rows() const { return PQntuples(r_.get()); }
bool Result::is_null(int row, int column) const { return PQgetisnull(r_.get(), row, column) != 0; }
std::string Result::text(int row, int column) const {
    return std::string(PQgetvalue(r_.get(), row, column), static_cast<std::size_t>(PQgetlength(r_.get(), row, column)));
}
std::int64_t Result::int64(int row, int column) const {
    const char* v = PQgetvalue(r_.get(), row, column);
    std::int64_t out = 0;
    std::from_chars(v, v + PQgetlength(r_.get(), row, column), out);
    return out;
}
double Result::real(int row, int column) const { return std::strtod(PQgetvalue(r_.get(), row, column), nullptr); }
bool Result::boolean(int row, int column) const { return PQgetvalue(r_.get(), row, column)[0] == 't'; }
std::int64_t Result::affected() const { return std::strtoll(PQcmdTuples(r_.get()), nullptr, 10); }

void Connection::Finish::operator()(pg_conn* c) const { PQfinish(c); }

bool Connection::broken() const { return !c_ || PQstatus(c_.get()) != CONNECTION_OK; }

StoreResult<Connection> Connection::open(const std::string& conninfo, std::chrono::milliseconds timeout) {
    // The caller's string is expanded first; the keywords after it bound every wait on TCP (they
    // do nothing on a Unix socket, where a dead server refuses at once).
    const char* keys[] = {"dbname", "connect_timeout", "tcp_user_timeout", "keepalives", "keepalives_idle",
                          "keepalives_interval", "keepalives_count", "application_name", nullptr};
    const char* values[] = {conninfo.c_str(), "2", "3000", "1", "5", "1", "3", "xiangqi-server", nullptr};
    Connection conn(PQconnectStartParams(keys, values, 1));
    pg_conn* c = conn.c_.get();
    if (!c) return std::unexpected(StoreError{StoreErrorCode::OpenFailed, "postgres: out of memory"});
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    auto failed = [&](std::string why) {
        return std::unexpected(StoreError{StoreErrorCode::OpenFailed, "postgres: " + why});
    };
    PostgresPollingStatusType st = PGRES_POLLING_WRITING;
    while (PQstatus(c) != CONNECTION_BAD) {
        if (st == PGRES_POLLING_OK) break;
        if (st == PGRES_POLLING_FAILED) break;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return failed("no connection within " + std::to_string(timeout.count()) + " ms");
        pollfd p{PQsocket(c), static_cast<short>(st == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) == 0) continue;  // the deadline check says it
        st = PQconnectPoll(c);
    }
    if (PQstatus(c) != CONNECTION_OK) {
        std::string why = PQerrorMessage(c);
        while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
        return failed(why);
    }
    // A statement that waits (a lock held by a stuck peer) gives up instead of holding the loop.
    // NOTICEs (CREATE ... IF NOT EXISTS) would go to stderr: only warnings and errors come back.
    if (auto set = conn.exec("SET statement_timeout = 2000; SET client_min_messages = warning"); !set)
        return std::unexpected(std::move(set.error()));
    return conn;
}

StoreResult<Result> Connection::exec(std::string_view sql, const std::vector<Param>& params) {
    if (broken()) return std::unexpected(StoreError{StoreErrorCode::Io, "postgres: not connected"});
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const Param& p : params) values.push_back(p ? p->c_str() : nullptr);
    const std::string text(sql);
    // Without parameters, the simple protocol: it also runs a script of several statements.
    Result r(params.empty() ? PQexec(c_.get(), text.c_str())
                            : PQexecParams(c_.get(), text.c_str(), static_cast<int>(values.size()), nullptr,
                                           values.data(), nullptr, nullptr, 0));
    const ExecStatusType status = PQresultStatus(r.r_.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return std::unexpected(statement_error(c_.get(), r.r_.get()));
    return r;
}

namespace {

// Writes what libpq holds, reading the server's answers meanwhile, so that neither side waits on
// a full socket buffer (libpq's advice for pipeline mode). False when the connection failed.
bool flush_reading(pg_conn* c) {
    for (;;) {
        const int left = PQflush(c);
        if (left == 0) return true;
        if (left < 0) return false;
        pollfd p{PQsocket(c), POLLIN | POLLOUT, 0};
        if (::poll(&p, 1, -1) < 0) continue;  // EINTR
        if ((p.revents & (POLLIN | POLLERR | POLLHUP)) && !PQconsumeInput(c)) return false;
    }
}

}  // namespace

StoreResult<std::vector<StoreResult<Result>>> Connection::pipeline(std::span<const Statement> statements) {
    pg_conn* c = c_.get();
    if (broken()) return std::unexpected(StoreError{StoreErrorCode::Io, "postgres: not connected"});
    auto failed = [&]() -> StoreResult<std::vector<StoreResult<Result>>> {
        StoreError e = statement_error(c, nullptr);
        if (PQstatus(c) == CONNECTION_OK) {  // still up but unusable in its state: don't reuse it
            c_.reset();
            e.code = StoreErrorCode::Io;
        }
        return std::unexpected(std::move(e));
    };
    if (PQenterPipelineMode(c) != 1 || PQsetnonblocking(c, 1) != 0) return failed();
    std::vector<std::string> preparing(statements.size());  // the name a statement is prepared under here
    std::unordered_map<std::string_view, std::string> now;  // what this pipeline prepares
    for (std::size_t i = 0; i < statements.size(); ++i) {
        const Statement& s = statements[i];
        std::vector<const char*> values;
        values.reserve(s.params.size());
        for (const Param& p : s.params) values.push_back(p ? p->c_str() : nullptr);
        const int n = static_cast<int>(values.size());
        bool sent = false;
        if (n == 0) {
            sent = PQsendQueryParams(c, s.sql.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 0);
        } else {
            std::string name;
            if (const auto it = prepared_.find(s.sql); it != prepared_.end()) {
                name = it->second;
            } else if (const auto here = now.find(s.sql); here != now.end()) {
                name = here->second;  // prepared earlier in this pipeline
            } else {
                name = "xq" + std::to_string(++names_);
                preparing[i] = name;
                now.emplace(s.sql, name);
            }
            sent = (preparing[i].empty() || PQsendPrepare(c, name.c_str(), s.sql.c_str(), n, nullptr)) &&
                   PQsendQueryPrepared(c, name.c_str(), n, values.data(), nullptr, nullptr, 0);
        }
        if (!sent) return failed();
    }
    if (PQpipelineSync(c) != 1 || !flush_reading(c) || PQsetnonblocking(c, 0) != 0) return failed();
    // Answers, in order: each statement's result (after its preparation's) then a null, and the
    // Sync's at the end.
    std::vector<StoreResult<Result>> out;
    out.reserve(statements.size());
    auto next = [&]() -> std::optional<Result> {
        Result r(PQgetResult(c));
        if (!r.r_ || PQstatus(c) != CONNECTION_OK) return std::nullopt;
        while (pg_result* extra = PQgetResult(c)) PQclear(extra);
        if (PQstatus(c) != CONNECTION_OK) return std::nullopt;
        return r;
    };
    for (std::size_t i = 0; i < statements.size(); ++i) {
        if (!preparing[i].empty()) {
            auto prepared = next();
            if (!prepared) return failed();
            if (PQresultStatus(prepared->r_.get()) == PGRES_COMMAND_OK) prepared_.emplace(statements[i].sql, preparing[i]);
        }
        auto r = next();
        if (!r) return failed();
        const ExecStatusType status = PQresultStatus(r->r_.get());
        if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) out.emplace_back(std::move(*r));
        else if (status == PGRES_PIPELINE_ABORTED)
            out.emplace_back(std::unexpected(StoreError{StoreErrorCode::Internal, "postgres: skipped after an earlier error"}));
        else out.emplace_back(std::unexpected(statement_error(c, r->r_.get())));
    }
    Result sync(PQgetResult(c));
    if (!sync.r_ || PQresultStatus(sync.r_.get()) != PGRES_PIPELINE_SYNC || PQexitPipelineMode(c) != 1) return failed();
    return out;
}

StoreError statement_error(pg_conn* c, pg_result* r) {
    std::string message = r ? PQresultErrorMessage(r) : PQerrorMessage(c);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    const std::string_view code = state ? state : "";
    StoreErrorCode kind = StoreErrorCode::Internal;
    if (PQstatus(c) != CONNECTION_OK || code.starts_with("08") || code.starts_with("57P")) kind = StoreErrorCode::Io;
    else if (code.starts_with("23")) kind = StoreErrorCode::Constraint;
    else if (code == "57014" || code.starts_with("40") || code == "55P03") kind = StoreErrorCode::Busy;
    else if (code == "25006") kind = StoreErrorCode::ReadOnly;
    return StoreError{kind, "postgres: " + message};
}

}  // namespace xq::server::pg
