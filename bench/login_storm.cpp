// A login storm against a running server with accounts: N new connections a second for T
// seconds, each Hello then Login with a password (Argon2id on the server's password workers),
// then closed. Meant to run beside `loadgen` during the capacity row, whose move p99 shows
// whether the logins slowed anyone's moves (they must not: hashing is off the game loop).
// Registers its account first (or logs in to it if it exists). Speaks TLS, as real clients do (a
// full handshake per login, which is part of what a storm costs the server); --plain for a
// --plain server. Prints one JSON line.
//
// usage: login_storm --server HOST:PORT [--rate N] [--seconds T] [--account NAME] [--password P] [--plain]

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "support/test_client.h"
#include "tls/context.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace xq;

struct Options {
    std::string host = "127.0.0.1";
    std::uint16_t port = 7777;
    double rate = 50;
    double seconds = 30;
    std::string account = "stormaccount";
    std::string password = "storm password";
    bool plain = false;
};

std::unique_ptr<test::TestClient> connect(const Options& o) {
    if (o.plain) return std::make_unique<test::TestClient>(o.host, o.port, std::chrono::seconds(20));
    // One context for the whole storm, as one client process keeps: loading the trust store per
    // connection would cost the storm itself more CPU than the logins cost the server.
    static const auto context = xq::tls::client_context();
    return std::make_unique<test::TestClient>(test::TestClient::Tls{}, o.host, o.port, std::chrono::seconds(20),
                                              context);
}

struct Tally {
    std::mutex mutex;
    std::vector<double> ms;  // logins that succeeded, connect to LoggedIn
    long try_later = 0, failed = 0;
};

void one_login(const Options& o, Tally& tally) {
    const auto start = Clock::now();
    try {
        const auto client = connect(o);
        test::TestClient& c = *client;
        const auto welcome = c.call(proto::Hello{"login-storm", "storm"});
        if (!std::holds_alternative<proto::Welcome>(welcome.body)) throw std::runtime_error("no Welcome");
        const auto reply = c.call(proto::Login{o.account, o.password, ""});
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        std::lock_guard lock(tally.mutex);
        if (std::holds_alternative<proto::LoggedIn>(reply.body)) tally.ms.push_back(ms);
        else if (const auto* e = std::get_if<proto::Error>(&reply.body); e && e->code == proto::ErrorCode::TryLater)
            ++tally.try_later;
        else ++tally.failed;
    } catch (const std::exception&) {
        std::lock_guard lock(tally.mutex);
        ++tally.failed;
    }
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    const auto usage = [] {
        std::fprintf(stderr, "usage: login_storm --server HOST:PORT [--rate N] [--seconds T] [--account NAME] "
                             "[--password P] [--plain]\n");
        return 2;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "--plain") {
            o.plain = true;
            continue;
        }
        if (i + 1 >= argc) return usage();
        const std::string value = argv[++i];
        if (flag == "--server") {
            const auto colon = value.rfind(':');
            if (colon == std::string::npos) return usage();
            o.host = value.substr(0, colon);
            o.port = static_cast<std::uint16_t>(std::atoi(value.c_str() + colon + 1));
        } else if (flag == "--rate") o.rate = std::atof(value.c_str());
        else if (flag == "--seconds") o.seconds = std::atof(value.c_str());
        else if (flag == "--account") o.account = value;
        else if (flag == "--password") o.password = value;
        else return usage();
    }
    try {
        const auto client = connect(o);
        test::TestClient& setup = *client;
        setup.call(proto::Hello{"login-storm", "storm"});
        const auto reg = setup.call(proto::Register{o.account, o.password});
        const auto* e = std::get_if<proto::Error>(&reg.body);
        if (e && e->code != proto::ErrorCode::NameTaken) {
            std::fprintf(stderr, "login_storm: cannot register %s: %s\n", o.account.c_str(), e->message.c_str());
            return 1;
        }
    } catch (const std::exception& ex) {
        std::fprintf(stderr, "login_storm: %s\n", ex.what());
        return 1;
    }
    Tally tally;
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    const long total = static_cast<long>(o.rate * o.seconds);
    for (long i = 0; i < total; ++i) {
        std::this_thread::sleep_until(start + std::chrono::duration_cast<Clock::duration>(
                                                  std::chrono::duration<double>(static_cast<double>(i) / o.rate)));
        threads.emplace_back(one_login, std::cref(o), std::ref(tally));
    }
    for (auto& t : threads) t.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("{\"attempted\": %ld, \"rate_asked\": %.1f, \"seconds\": %.1f, \"logged_in\": %zu, "
                "\"logins_per_s\": %.1f, \"try_later\": %ld, \"failed\": %ld, \"login_ms_p50\": %.0f, "
                "\"login_ms_p99\": %.0f}\n",
                total, o.rate, elapsed, tally.ms.size(), static_cast<double>(tally.ms.size()) / elapsed,
                tally.try_later, tally.failed, percentile(tally.ms, 0.5), percentile(tally.ms, 0.99));
    return 0;
}
