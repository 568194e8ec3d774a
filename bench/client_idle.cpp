#include "client_idle.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "client/net/local_server.h"
#include "support/test_client.h"

extern char** environ;

namespace xq::bench {

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// The window's size and the first live game's Watch button in it, where LobbyScreen puts it when
// no game is open (the same point as in tests/client/client_e2e_test.cpp).
constexpr const char* kWindowSize = "1000x700";
constexpr int kWatchX = 528, kWatchY = 246;

void sleep_seconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// User plus system CPU seconds a process has used (/proc/PID/stat, fields 14 and 15).
std::optional<double> cpu_seconds(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(in, text)) return std::nullopt;
    const auto name_end = text.rfind(')');  // the command name may hold spaces
    if (name_end == std::string::npos) return std::nullopt;
    std::istringstream fields(text.substr(name_end + 1));
    std::vector<std::string> f;
    for (std::string field; fields >> field;) f.push_back(field);
    if (f.size() < 13) return std::nullopt;  // f[0] is field 3 (state)
    const double ticks = std::stod(f[11]) + std::stod(f[12]);
    return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// Does this client build take `option`? An older one (the A/B's base) may not: --frame-count, or
// --plain (before TLS every connection was plain).
bool takes_option(const fs::path& client, std::string_view option) {
    const std::string command = "'" + client.string() + "' --help 2>/dev/null | grep -q -- " + std::string(option);
    return std::system(command.c_str()) == 0;
}

// One xiangqi-client child, its output in a file; stopped (SIGTERM, then SIGKILL) when it goes.
class ClientProcess {
public:
    ClientProcess(const fs::path& binary, std::uint16_t port, const fs::path& out, bool count_frames) : out_(out) {
        std::vector<std::string> args = {binary.string(), "--connect", "127.0.0.1:" + std::to_string(port), "--name",
                                         "idle-watcher", "--mute", "--size", kWindowSize, "--position", "0,0"};
        if (count_frames) args.push_back("--frame-count");
        // The protocol clients below speak plain TCP, so the server runs --plain (TLS is measured
        // by bench server); the client must ask for it too.
        if (takes_option(binary, "--plain")) args.push_back("--plain");
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        posix_spawn_file_actions_addclosefrom_np(&actions, 3);  // not the protocol clients' sockets
        if (::posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid_ = 0;
        posix_spawn_file_actions_destroy(&actions);
    }
    ~ClientProcess() { stop(); }
    ClientProcess(const ClientProcess&) = delete;
    ClientProcess& operator=(const ClientProcess&) = delete;

    pid_t pid() const { return pid_; }
    bool running() const { return pid_ != 0 && ::waitpid(pid_, nullptr, WNOHANG) == 0; }

    // Ends the client (it prints its frame count on the way out) and returns that count.
    std::optional<long> stop() {
        if (pid_ == 0) return std::nullopt;
        ::kill(pid_, SIGTERM);
        int status = 0;
        for (int i = 0; i < 50 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i) std::this_thread::sleep_for(100ms);
        if (::waitpid(pid_, &status, WNOHANG) == 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
        }
        pid_ = 0;
        std::ifstream in(out_);
        std::optional<long> frames;
        for (std::string line; std::getline(in, line);)
            if (line.starts_with("frames ")) frames = std::stol(line.substr(7));
        return frames;
    }

private:
    fs::path out_;
    pid_t pid_ = 0;
};

// Two protocol clients start a game at 60+0, make both first moves (a game whose first moves do
// not come is aborted) and then sit still: Red's clock runs for an hour, nobody flags.
struct LiveGame {
    test::TestClient red, black;
    proto::GameId id = 0;

    explicit LiveGame(std::uint16_t port) : red(port, 2s), black(port, 2s) {}

    std::expected<void, std::string> start() {
        red.hello("idle-red");
        black.hello("idle-black");
        const auto seated = red.call(proto::CreateGame{{60, 0, std::nullopt}, proto::ColorChoice::Red, false});
        const auto* seat = std::get_if<proto::Seated>(&seated.body);
        if (!seat) return std::unexpected("the server did not seat the game's creator");
        id = seat->game_id;
        if (!std::holds_alternative<proto::Seated>(black.call(proto::JoinGame{id, ""}).body))
            return std::unexpected("the second player could not join");
        if (!std::holds_alternative<proto::MoveMade>(red.call(proto::MakeMove{id, "h2e2", 1, 0}).body) ||
            !std::holds_alternative<proto::MoveMade>(black.call(proto::MakeMove{id, "h9g7", 1, 1}).body))
            return std::unexpected("the first moves were refused");
        return {};
    }

    // True once the server counts a spectator in the game (it tells the players).
    bool watched_within(std::chrono::milliseconds limit) {
        const auto end = Clock::now() + limit;
        while (Clock::now() < end)
            if (auto count = red.wait_for<proto::SpectatorCount>(); count && count->count > 0) return true;
        return false;
    }
};

struct Measured {
    double cpu_percent = 0;
    std::optional<long> frames;
    double lived = 0;
};

// Waits out the warm-up, measures the client's CPU over run.seconds, then stops it.
std::expected<Measured, std::string> measure(ClientProcess& client, const IdleRun& run, Clock::time_point born) {
    sleep_seconds(run.warmup_seconds);
    const auto before = cpu_seconds(client.pid());
    const auto t0 = Clock::now();
    sleep_seconds(run.seconds);
    const auto after = cpu_seconds(client.pid());
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!before || !after || !client.running()) return std::unexpected("the client exited during the measurement");
    Measured m;
    m.cpu_percent = 100 * (*after - *before) / wall;
    m.lived = std::chrono::duration<double>(Clock::now() - born).count();
    m.frames = client.stop();
    return m;
}

}  // namespace

std::expected<std::vector<IdleRow>, std::string> measure_idle(const IdleRun& run) {
    const fs::path dir = fs::temp_directory_path() / ("xq-idle-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    client::LocalServerOptions options;
    options.binary = run.server;
    options.plain = true;
    options.db = dir / "games.db";
    options.name = "idle bench";
    auto server = client::LocalServer::start(options);
    if (!server) return std::unexpected("server: " + server.error());
    LiveGame game(server->port());
    if (auto started = game.start(); !started) return std::unexpected(started.error());
    const bool count = takes_option(run.client, "--frame-count");
    std::vector<IdleRow> rows;

    {  // (1) The lobby, listing the game.
        const auto born = Clock::now();
        ClientProcess client(run.client, server->port(), dir / "lobby.out", count);
        if (client.pid() == 0) return std::unexpected("could not start " + run.client.string());
        const auto m = measure(client, run, born);
        if (!m) return std::unexpected(m.error());
        rows.push_back({"lobby listing a live game", m->cpu_percent, 5, m->frames, m->lived});
    }
    {  // (2) Watching the game: a click on its Watch button, seen by the server.
        const auto born = Clock::now();
        ClientProcess client(run.client, server->port(), dir / "watch.out", count);
        if (client.pid() == 0) return std::unexpected("could not start " + run.client.string());
        bool watching = false;
        sleep_seconds(1.5);  // the window, the connection and the lobby's list
        const std::string click =
            "xdotool mousemove --sync " + std::to_string(kWatchX) + " " + std::to_string(kWatchY) + " click 1";
        for (int attempt = 0; attempt < 8 && !watching; ++attempt) {
            if (std::system(click.c_str()) != 0) return std::unexpected("xdotool failed (is it installed?)");
            watching = game.watched_within(1500ms);
        }
        if (!watching) return std::unexpected("the client never started watching the game");
        const auto m = measure(client, run, born);
        if (!m) return std::unexpected(m.error());
        rows.push_back({"watching a game nobody moves in", m->cpu_percent, 15, m->frames, m->lived});
    }
    fs::remove_all(dir);
    return rows;
}

}  // namespace xq::bench
