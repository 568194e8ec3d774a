#pragma once
// Browser-like watchers for the server run (--web-watchers N): each a plain TCP socket upgraded to
// a WebSocket on /ws (RFC 6455 by hand: masked client frames, one protobuf message per binary
// frame), greeting as a guest and watching its slot's game as the watch page does. They count
// toward the slot's "everyone is watching" gate, and report each MoveMade they receive so the run
// can time spectator delivery. --plain servers only (no TLS in this file).

#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include "loadgen.h"

namespace xq::loadgen {

class WebWatchers {
public:
    // Called once per watcher whose WatchGame was answered with a Snapshot of `game`.
    using OnWatching = std::function<void(std::uint64_t game)>;
    // Called for every MoveMade a watcher receives (game, ply).
    using OnMove = std::function<void(std::uint64_t game, std::uint32_t ply)>;

    WebWatchers(Run& run, std::size_t count, OnWatching on_watching, OnMove on_move);
    ~WebWatchers();
    WebWatchers(const WebWatchers&) = delete;
    WebWatchers& operator=(const WebWatchers&) = delete;

    // Connects, upgrades and greets every watcher (a window at a time); "" on success.
    asio::awaitable<std::string> open();
    // Every watcher watches `game` (a new game of the slot).
    void watch(std::uint64_t game);
    std::size_t size() const;
    void close();

private:
    struct Watcher;
    asio::awaitable<std::string> open_one(Watcher& w);
    asio::awaitable<void> read_loop(Watcher& w);
    // Bytes read: the upgrade's answer, then frames; false when the connection is to end.
    bool take(Watcher& w, std::string_view bytes);
    // One complete server frame's payload (opcode already checked).
    void on_message(Watcher& w, std::string_view payload);
    void send(Watcher& w, const proto::ClientMessage& m);
    void send_frame(Watcher& w, std::uint8_t opcode, std::string_view payload);
    void flush(Watcher& w);

    Run& run_;
    std::deque<Watcher> watchers_;
    OnWatching on_watching_;
    OnMove on_move_;
    std::uint64_t game_ = 0;
    std::uint32_t mask_seed_ = 0x9e3779b9;
};

}  // namespace xq::loadgen
