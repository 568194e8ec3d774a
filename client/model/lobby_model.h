#pragma once
// The lobby as the client shows it: games waiting for an opponent, live games to watch, archived
// games to replay, and servers found on the LAN. Filled by the network adapter.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace xq::client {

struct TimeControlChoice {
    std::uint32_t base_minutes = 10;
    std::uint32_t increment_seconds = 5;
    std::optional<std::uint32_t> move_cap_seconds;
    friend bool operator==(const TimeControlChoice&, const TimeControlChoice&) = default;
};

// "10+5", "3+2, 30 s a move".
std::string to_string(const TimeControlChoice& tc);

// The presets of the time-control picker (time_control_picker.h), in its grid's order.
const std::vector<TimeControlChoice>& standard_time_controls();

enum class ColorPick { Random, Red, Black };

struct LobbyGame {
    std::uint64_t id = 0;
    std::string host;
    std::string red;
    std::string black;
    std::string host_color;  // "red", "black", "random"
    TimeControlChoice time_control;
    std::uint32_t plies = 0;
    std::uint32_t spectators = 0;
    bool is_private = false;
    bool rated = false;
    std::string host_rating;  // "1500?", at the game's speed; "" for a guest
    std::string red_rating;   // live games
    std::string black_rating;
    std::uint32_t spectator_delay = 0;
    std::string speed;        // "Blitz"
    friend bool operator==(const LobbyGame&, const LobbyGame&) = default;
};

struct ArchiveRow {
    std::uint64_t id = 0;
    std::string red;
    std::string black;
    TimeControlChoice time_control;
    std::string result;  // "1-0", "0-1", "½-½"
    std::string reason;
    std::int64_t ended_at_ms = 0;
};

// The day an archived game ended, "2026.11.26" (UTC, PGN's date format).
std::string archive_date(const ArchiveRow& row);

struct ServerRow {
    std::string name;
    std::string address;
    std::uint16_t port = 0;
    std::uint32_t open_games = 0;
    std::uint32_t live_games = 0;
};

struct LobbyModel {
    std::vector<LobbyGame> open;
    std::vector<LobbyGame> live;
    std::vector<ArchiveRow> archive;
    std::uint32_t archive_total = 0;
    bool archive_total_capped = false;  // the server counted only so far: "200+"
    std::string archive_player;  // the archive list is filtered by this name ("": everyone)
    std::string archive_next;    // the key of the next (older) page from the server; "": no more
    std::vector<ServerRow> servers;  // LAN discovery
    bool seeking = false;            // a quick-match seek is waiting
    std::optional<TimeControlChoice> seeking_time_control;
};

}  // namespace xq::client
