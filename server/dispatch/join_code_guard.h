#pragma once
// Counts wrong join codes (JoinGame, WatchGame of a private game), so that guessing a private
// game's code is hopeless rather than merely slow.
//
// The arithmetic: a code is 6 letters of 31 (lobby.cpp), 31^6 = 887,503,681 codes. An address
// group (an IPv4 address or an IPv6 /64) may get 5 wrong at once, then one per 30 s: at most
// 2,885 a day, so finding one game's code takes it 150,000 days on average. A game that has
// heard 20 wrong codes then hears none more from any group that got its code wrong once: each
// further group gets one guess, so even 65,536 groups (an IPv6 /48) find a code with odds of
// 1 in 13,500 (65,556 / 887.5 million) per game. A right code is never refused for the game's
// guesses alone: a friend who never typed it wrong still gets in.

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "server/dispatch/rate_limit.h"
#include "server/rooms/room_types.h"

namespace xq::server {

struct JoinCodeLimits {
    double burst = 5;                 // wrong codes a group may make at once
    double per_second = 1.0 / 30;     // then one every 30 s
    int per_game = 20;                // wrong codes a game hears before it stops hearing repeaters
};

class JoinCodeGuard {
public:
    using TimePoint = std::chrono::steady_clock::time_point;

    explicit JoinCodeGuard(JoinCodeLimits limits = {}) : limits_(limits) {}

    // Why `group` may not try a code for `game` now ("" when it may): checked before the code is,
    // so that a refused guess learns nothing.
    std::string refusal(const std::string& group, const RoomId& game, TimePoint now) const;
    // `group` gave `game` a wrong code.
    void wrong(const std::string& group, const RoomId& game, TimePoint now);
    // The game is gone: its count goes.
    void forget_game(const RoomId& game) { games_.erase(game); }
    // Drops the groups whose allowance is whole again (as a new group's would be).
    void prune(TimePoint now);

private:
    struct Game {
        int wrong = 0;
        std::set<std::string> groups;  // that got its code wrong
    };
    JoinCodeLimits limits_;
    std::unordered_map<std::string, TokenBucket> groups_;
    std::unordered_map<RoomId, Game> games_;
};

}  // namespace xq::server
