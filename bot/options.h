#pragma once
// What a bot is told on its command line (main.cpp), as plain values.

#include <optional>
#include <string>
#include <string_view>

#include "bot/policy.h"
#include "client/net/endpoint.h"
#include "client/net/trust.h"
#include "engine/engine.h"
#include "proto/types.h"

namespace xq::bot {

struct BotOptions {
    client::Endpoint server{"127.0.0.1", 7777};
    int level = 3;                      // 1-8 (engine/levels.h)
    std::string name;                   // "": "bot level N"
    bool quick_match = false;           // false: host an open game in the lobby, again after each game
    int games = 1;                      // quick match: games in a row, then exit
    proto::TimeControl time_control{5, 3, std::nullopt};
    proto::ColorChoice color = proto::ColorChoice::Random;  // the colour of the games it hosts
    std::optional<int> max_think_ms;    // caps the level's think time (tests, fast matches)
    engine::EngineOptions engine;       // the binary; the skill comes from the level
    Policy policy;
    bool verbose = false;               // log each move, its think time and evaluation to stderr
    // TLS by default; a server not known beforehand (--fingerprint) is trusted on first use, as a
    // headless program cannot ask anyone. Nothing is remembered between runs.
    client::Security security{.plain = false, .expected = {}, .known_hosts = {}, .accept_new = true};
};

// "5+3" (minutes + seconds of increment) or "5+3/30" (with a 30 s cap per move); nullopt if malformed.
std::optional<proto::TimeControl> parse_time_control(std::string_view text);

}  // namespace xq::bot
