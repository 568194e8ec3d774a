#pragma once
// The load generator's shared pieces: its options, the figures it collects, and the two kinds of
// run (the real server's protocol, and the bare relay's opaque frames). Everything runs on one
// thread and one io_context.

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "loadgen_conn.h"

namespace xq::loadgen {

struct Options {
    tcp::endpoint server;  // the first of `servers`
    // Several nodes of a cluster (--server A,B,C): each game's Red on one, its Black on the next,
    // its spectators on the one after, so that every game spans nodes; a dropped bot reconnects to
    // the next node.
    std::vector<tcp::endpoint> servers;
    int games = 10;
    int spectators = 1;            // per game
    int move_interval_ms = 1000;   // a player waits this long once it is its turn; 0: at once
    double seconds = 10;           // the measured window
    int max_plies = 150;           // the side to move then resigns, so games end and get replaced
    int server_pid = 0;            // 0: do not read the server's memory
    bool relay = false;            // opaque frames through bench/relay instead of the protocol
    std::uint64_t seed = 1;
    int connect_window = 200;      // connections being opened at once during setup
    // A dropped bot reconnects and resumes (players with their token and last version, resending
    // an unacknowledged move with the same move id; spectators watch again) instead of failing.
    bool reconnect = false;
    bool plain = false;            // plain TCP (a server started with --plain; the relay always)
    // Rated games: every player registers an account first (a server with accounts, a low
    // password cost and registrations unlimited: server_bench.sh), and creates its games rated.
    bool rated = false;
    // WebSocket watchers of the first game (loadgen_web_watchers.cpp), beside its desktop
    // spectators; --plain servers only.
    int web_watchers = 0;
    // A game that made no progress (no move acknowledged, no game begun or ended) for this long
    // when the window closes is stuck: counted, and the run fails.
    double stuck_after_s = 60;
    // Spectator k of a game on the node after the previous one's (--spread-spectators), instead of
    // all of them on the node after Black's: a broadcast's watchers over every node.
    bool spread_spectators = false;
    // The broadcast over several processes (loadgen_watch_file.cpp): the first game's id and its
    // moves' send times go to this file, and its Black joins once FILE.go exists.
    std::string game_file;
    // A process of watchers only: they watch the game named in this file (another loadgen's
    // --game-file) until FILE.done exists, then compare their delivery with its send times.
    std::string watch_file;
};

// Everything counted during a run. Latency: a move sent until its own acknowledgement (the
// relay: until the partner reads it), for moves sent inside the measured window.
struct Stats {
    std::uint64_t games_started = 0;
    std::uint64_t games_completed = 0;
    std::uint64_t moves = 0;
    std::uint64_t refused = 0;  // random moves refused by the repetition rules: chosen again
    std::uint64_t errors = 0;
    std::uint64_t mismatches = 0;
    std::uint64_t checked_live = 0;  // games still in play at the end, compared as they stood
    std::uint64_t reconnects = 0;
    std::uint64_t acked_moves_lost = 0;  // acknowledged, then missing from the game's final state
    std::uint64_t acks_total = 0;        // every move acknowledged, in the window or not
    std::uint64_t games_stuck = 0;       // see Options::stuck_after_s
    std::vector<std::uint32_t> latencies_us;
    // Spectator delivery: a move sent by its player until a spectator received it, per kind.
    std::vector<std::uint32_t> desktop_delivery_us;
    std::vector<std::uint32_t> web_delivery_us;
    // Desktop delivery again, per node of the spectator's connection (--server's order).
    std::vector<std::vector<std::uint32_t>> node_delivery_us;
    std::deque<std::string> error_samples;  // the first few, for stderr

    void error(std::string what) {
        ++errors;
        if (error_samples.size() < 8) error_samples.push_back(std::move(what));
    }
};

// State shared by every bot of a run.
struct Run {
    asio::io_context& io;
    Options options;
    Stats stats;
    std::mt19937_64 random;
    Clock::time_point window_start{};  // set when every first game has started
    bool measuring = false;
    bool stopping = false;  // no new moves or games
    std::uint64_t outstanding = 0;  // moves sent and not yet acknowledged
    std::uint64_t crossed = 0;      // moves that crossed their game's end, not yet refused

    std::shared_ptr<asio::ssl::context> tls;  // null: plain TCP
    Run(asio::io_context& context, Options opts) : io(context), options(opts), random(opts.seed) {
        if (!options.plain && !options.relay) {
            tls = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
            SSL_CTX_set_min_proto_version(tls->native_handle(), TLS1_3_VERSION);
        }
    }
    void sample_delivery(std::vector<std::uint32_t>& into, Clock::time_point sent) {
        if (!measuring || sent < window_start) return;
        into.push_back(static_cast<std::uint32_t>(
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent).count()));
    }
    void sample(Clock::time_point sent) {
        if (!measuring || sent < window_start) return;
        ++stats.moves;
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent).count();
        stats.latencies_us.push_back(static_cast<std::uint32_t>(us));
    }
};

// One kind of run: opens its connections, plays until stop(), then settles and checks.
class Driver {
public:
    virtual ~Driver() = default;
    // Opens every connection (and says Hello); returns an error text, empty on success.
    virtual asio::awaitable<std::string> setup() = 0;
    // Starts every game; `started` counts games whose first game is under way.
    virtual void start() = 0;
    virtual std::size_t started() const = 0;
    // No new moves from now on.
    virtual void stop() = 0;
    // "" once nothing is in flight and every live game's participants agree on its length; else
    // what is still open (the first thing found), for the error when a run does not settle.
    virtual std::string unsettled() const = 0;
    // Compares the games still in play, then closes every connection.
    virtual void finish() = 0;
};

std::unique_ptr<Driver> make_server_driver(Run& run);
std::unique_ptr<Driver> make_relay_driver(Run& run);
std::unique_ptr<Driver> make_watch_file_driver(Run& run);

}  // namespace xq::loadgen
