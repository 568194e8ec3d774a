// The broadcast's processes of watchers only (--watch FILE): S connections spread over --server's
// nodes, each watching the game another loadgen plays (--game-file FILE); delivery is measured
// against the send times it writes there, per node of the watcher. The files it leaves beside FILE
// pace the run (bench/cluster_broadcast.sh): FILE.welcomed.PID once connected, FILE.ready.PID once
// every watcher has the game, and FILE.delivery.PID with every sample at the end.

#include "loadgen_watch_file.h"

#include <unistd.h>

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>

#include "client/mirror/game_mirror.h"
#include "proto/codec.h"

namespace xq::loadgen {

bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

void touch_file(const std::string& path) { std::ofstream(path, std::ios::app).flush(); }

void write_game_id(const std::string& path, std::uint64_t game) {
    std::ofstream(path, std::ios::trunc) << "game " << game << "\n" << std::flush;
}

void log_sent(const std::string& path, std::size_t ply, Clock::time_point sent) {
    std::ofstream(path, std::ios::app)
        << ply << " " << std::chrono::duration_cast<std::chrono::nanoseconds>(sent.time_since_epoch()).count() << "\n"
        << std::flush;
}

namespace {

struct Watcher {
    Conn* conn = nullptr;
    std::size_t node = 0;
    std::uint64_t next_rid = 1;
    client::GameMirror mirror;
    bool welcomed = false;
    bool watching = false;
};

// A move as a watcher received it.
struct Received {
    std::uint32_t ply;
    std::uint32_t node;
    std::int64_t at_ns;
};

class WatchFileDriver final : public Driver {
public:
    explicit WatchFileDriver(Run& run) : run_(run), watchers_(static_cast<std::size_t>(run.options.spectators)) {
        run_.stats.node_delivery_us.resize(run_.options.servers.size());
        for (std::size_t i = 0; i < watchers_.size(); ++i) watchers_[i].node = i % run_.options.servers.size();
    }

    asio::awaitable<std::string> setup() override {
        std::size_t next = 0, done = 0;
        std::string failure;
        const int window = std::max(1, run_.options.connect_window);
        for (int w = 0; w < window; ++w)
            asio::co_spawn(
                run_.io,
                [&]() -> asio::awaitable<void> {
                    while (next < watchers_.size() && failure.empty()) {
                        Watcher& watcher = watchers_[next++];
                        watcher.conn = &conns_.emplace_back(run_.io, run_.tls.get());
                        auto error = co_await watcher.conn->connect(
                            run_.options.servers[watcher.node],
                            [this, &watcher](std::string_view p) { on_payload(watcher, p); },
                            [this](const std::string& why) { run_.stats.error("connection dropped: " + why); });
                        if (!error.empty()) failure = "connect: " + error;
                        else send(watcher, proto::Hello{"xq-loadgen", "watcher", proto::kProtocolVersion});
                    }
                    ++done;
                },
                asio::detached);
        const auto deadline = Clock::now() + std::chrono::seconds(180);
        while (done < static_cast<std::size_t>(window) ||
               (welcomed_ < watchers_.size() && failure.empty() && Clock::now() < deadline && run_.stats.errors == 0))
            co_await pause(std::chrono::milliseconds(10));
        if (!failure.empty()) co_return failure + " after " + std::to_string(welcomed_) + " connections";
        if (welcomed_ < watchers_.size())
            co_return "only " + std::to_string(welcomed_) + " of " + std::to_string(watchers_.size()) + " watchers welcomed";
        co_return std::string();
    }

    // Waits for the game's id, watches it from every connection, says so, then counts as started
    // once the player's process is told to begin (FILE.go), so both windows open together.
    void start() override {
        asio::co_spawn(
            run_.io,
            [this]() -> asio::awaitable<void> {
                const std::string& file = run_.options.watch_file;
                touch_file(file + ".welcomed." + std::to_string(::getpid()));
                while ((game_ = read_game()) == 0) co_await pause(std::chrono::milliseconds(50));
                // At most --connect-window watch requests unanswered at once: 20,000 at once made
                // the nodes other than the owner miss their lease renewals (BENCHMARKS.md).
                for (std::size_t sent = 0; sent < watchers_.size(); ++sent) {
                    while (sent - watching_ >= static_cast<std::size_t>(run_.options.connect_window) &&
                           run_.stats.errors == 0)
                        co_await pause(std::chrono::milliseconds(5));
                    send(watchers_[sent], proto::WatchGame{game_, ""});
                }
                while (watching_ < watchers_.size() && run_.stats.errors == 0)
                    co_await pause(std::chrono::milliseconds(10));
                touch_file(file + ".ready." + std::to_string(::getpid()));
                while (!file_exists(file + ".go")) co_await pause(std::chrono::milliseconds(10));
                started_ = 1;
            },
            asio::detached);
    }
    std::size_t started() const override { return started_; }
    void stop() override {}

    // Settled once the player's process has ended (FILE.done) and every watcher has every move it sent.
    std::string unsettled() const override {
        if (!file_exists(run_.options.watch_file + ".done")) return "the playing loadgen has not ended";
        const std::size_t plies = sent_times().size();
        for (std::size_t i = 0; i < watchers_.size(); ++i)
            if (static_cast<std::size_t>(watchers_[i].mirror.ply_count()) < plies)
                return "watcher " + std::to_string(i) + " has " + std::to_string(watchers_[i].mirror.ply_count()) +
                       " of " + std::to_string(plies) + " moves";
        return "";
    }

    void finish() override {
        const auto sent = sent_times();
        // Every sample, "NODE MICROSECONDS", for percentiles over all the watcher processes.
        std::ofstream samples(run_.options.watch_file + ".delivery." + std::to_string(::getpid()));
        const auto window_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(run_.window_start.time_since_epoch()).count();
        for (const Received& r : received_) {
            const auto it = sent.find(r.ply);
            if (it == sent.end() || it->second < window_ns) continue;
            const auto us = static_cast<std::uint32_t>((r.at_ns - it->second) / 1000);
            run_.stats.desktop_delivery_us.push_back(us);
            run_.stats.node_delivery_us[r.node].push_back(us);
            samples << r.node << " " << us << "\n";
        }
        run_.stats.moves = sent.size();
        ++run_.stats.checked_live;
        for (const auto& w : watchers_)
            if (w.mirror.moves() != watchers_.front().mirror.moves()) {
                ++run_.stats.mismatches;
                break;
            }
        for (auto& conn : conns_) conn.close();
    }

private:
    asio::awaitable<void> pause(Clock::duration d) {
        asio::steady_timer timer(run_.io, d);
        boost::system::error_code ec;
        co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
    static std::uint64_t send_to(Watcher& w, proto::ClientBody body) {
        const std::uint64_t rid = w.next_rid++;
        w.conn->send(proto::encode_frame(proto::ClientMessage{rid, std::move(body)}));
        return rid;
    }
    void send(Watcher& w, proto::ClientBody body) { (void)send_to(w, std::move(body)); }

    std::uint64_t read_game() const {
        std::ifstream in(run_.options.watch_file);
        std::string word;
        std::uint64_t game = 0;
        in >> word >> game;
        return word == "game" ? game : 0;
    }
    // Ply -> when its (last) move was sent, in steady_clock nanoseconds.
    std::map<std::uint32_t, std::int64_t> sent_times() const {
        std::ifstream in(run_.options.watch_file);
        std::string word;
        std::uint64_t game = 0;
        in >> word >> game;
        std::map<std::uint32_t, std::int64_t> sent;
        std::uint32_t ply = 0;
        std::int64_t ns = 0;
        while (in >> ply >> ns) sent[ply] = ns;
        return sent;
    }

    void on_payload(Watcher& w, std::string_view payload) {
        auto message = proto::decode_server(payload);
        if (!message) return run_.stats.error("undecodable frame: " + message.error().message);
        std::visit([&](const auto& body) { on_message(w, body); }, message->body);
    }
    void on_message(Watcher& w, const proto::Welcome&) {
        if (!w.welcomed) ++welcomed_;
        w.welcomed = true;
    }
    void on_message(Watcher& w, const proto::Ping& m) { send(w, proto::Pong{m.nonce}); }
    void on_message(Watcher& w, const proto::Snapshot& m) {
        if (m.game_id != game_ || w.watching) return;
        if (auto loaded = w.mirror.load(m); !loaded) return run_.stats.error(loaded.error());
        w.watching = true;
        ++watching_;
    }
    void on_message(Watcher& w, const proto::Error& e) {
        // A node whose copy of the shared lobby has not heard of the game yet: asked again.
        if (e.code == proto::ErrorCode::NoSuchGame && !w.watching && e.game_id == game_) {
            asio::co_spawn(
                run_.io,
                [this, &w]() -> asio::awaitable<void> {
                    co_await pause(std::chrono::milliseconds(100));
                    send(w, proto::WatchGame{game_, ""});
                },
                asio::detached);
            return;
        }
        run_.stats.error("server error " + std::string(proto::code_name(e.code)) + ": " + e.message);
    }
    template <class T>
    void on_message(Watcher& w, const T& m) {
        if constexpr (std::is_constructible_v<proto::RoomEvent, T>) {
            if (m.game_id != game_ || !w.watching) return;
            auto update = w.mirror.apply(m);
            if (!update) return run_.stats.error(update.error());
            if constexpr (std::is_same_v<T, proto::MoveMade>)
                if (*update == client::MirrorUpdate::Changed && started_)
                    received_.push_back({m.ply, static_cast<std::uint32_t>(w.node),
                                         std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             Clock::now().time_since_epoch()).count()});
        }
    }

    Run& run_;
    std::deque<Conn> conns_;
    std::vector<Watcher> watchers_;
    std::vector<Received> received_;
    std::uint64_t game_ = 0;
    std::size_t welcomed_ = 0, watching_ = 0, started_ = 0;
};

}  // namespace

std::unique_ptr<Driver> make_watch_file_driver(Run& run) { return std::make_unique<WatchFileDriver>(run); }

}  // namespace xq::loadgen
