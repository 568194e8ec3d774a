#pragma once
// What the client remembers between runs: the last server and name typed, and every seat it holds
// in a game that has not ended (the resume token is what lets a restarted client back in).

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "common/types.h"

namespace xq::client {

struct SavedSeat {
    std::string server;  // "host:port", as the client connected to it
    std::uint64_t game_id = 0;
    std::string token;  // the seat's resume token
    Color side = Color::Red;
    std::int64_t saved_at_ms = 0;  // Unix time
    int pid = 0;  // the client process that holds it: a second client does not take a live one's seat
    friend bool operator==(const SavedSeat&, const SavedSeat&) = default;
};

struct Profile {
    std::string last_server;
    std::string last_name;
    std::vector<SavedSeat> seats;  // oldest first, at most kMaxSeats

    static constexpr std::size_t kMaxSeats = 32;

    // The newest seat saved for this server, or null.
    const SavedSeat* seat_on(std::string_view server) const;
    // Saves a seat, replacing the one for the same server and game; the oldest go beyond kMaxSeats.
    void put_seat(SavedSeat seat);
    // True if there was such a seat.
    bool drop_seat(std::string_view server, std::uint64_t game_id);
    friend bool operator==(const Profile&, const Profile&) = default;
};

// The file format (JSON, with a version field); reading checks every field's type.
std::string to_json(const Profile& profile);
std::expected<Profile, std::string> profile_from_json(std::string_view text);

// Whether another process with this pid is running (a client that still holds its seat).
bool other_process_alive(int pid);

}  // namespace xq::client
