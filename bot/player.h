#pragma once
// A bot player: one protocol connection (client/net's Connection, on its own thread) and one
// engine (AsyncEngine, on its own thread); this loop only reacts to their events, so a thinking
// engine never delays an answer to the server and a stuck engine never stalls the connection.

#include <atomic>
#include <functional>
#include <memory>

#include "bot/game_report.h"
#include "bot/options.h"

namespace xq::bot {

class Player {
public:
    explicit Player(BotOptions options);
    ~Player();
    Player(const Player&) = delete;
    Player& operator=(const Player&) = delete;

    // Plays until the quick-match games are done (returns 0) or `stop` is set (0); returns 1 when
    // the server cannot be reached or refuses the bot for good (the reason goes to stderr).
    // `on_game` is called on this thread when each game ends.
    int run(const std::function<void(const GameReport&)>& on_game, const std::atomic<bool>& stop);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace xq::bot
