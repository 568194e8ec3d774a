#include "profile.h"

#include <algorithm>
#include <cerrno>

#include <signal.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace xq::client {

namespace {

using json = nlohmann::json;
constexpr int kFormat = 1;  // the "format" field: raised when the layout changes incompatibly

bool same_seat(const SavedSeat& s, std::string_view server, std::uint64_t game_id) {
    return s.server == server && s.game_id == game_id;
}

// Reads one seat; throws json::exception for a missing field or a wrong type.
SavedSeat read_seat(const json& j) {
    SavedSeat s;
    s.server = j.at("server").get<std::string>();
    s.game_id = j.at("game_id").get<std::uint64_t>();
    s.token = j.at("token").get<std::string>();
    const auto side = j.at("side").get<std::string>();
    if (side != "red" && side != "black") throw json::other_error::create(501, "side must be red or black", &j);
    s.side = side == "red" ? Color::Red : Color::Black;
    s.saved_at_ms = j.at("saved_at_ms").get<std::int64_t>();
    s.pid = j.value("pid", 0);
    if (s.server.empty() || s.game_id == 0 || s.token.empty())
        throw json::other_error::create(501, "a seat needs a server, a game id and a token", &j);
    return s;
}

}  // namespace

const SavedSeat* Profile::seat_on(std::string_view server) const {
    for (auto it = seats.rbegin(); it != seats.rend(); ++it)
        if (it->server == server) return &*it;
    return nullptr;
}

void Profile::put_seat(SavedSeat seat) {
    drop_seat(seat.server, seat.game_id);
    seats.push_back(std::move(seat));
    if (seats.size() > kMaxSeats) seats.erase(seats.begin(), seats.end() - kMaxSeats);
}

bool Profile::drop_seat(std::string_view server, std::uint64_t game_id) {
    return std::erase_if(seats, [&](const SavedSeat& s) { return same_seat(s, server, game_id); }) > 0;
}

std::string to_json(const Profile& profile) {
    json seats = json::array();
    for (const auto& s : profile.seats)
        seats.push_back({{"server", s.server},
                         {"game_id", s.game_id},
                         {"token", s.token},
                         {"side", s.side == Color::Red ? "red" : "black"},
                         {"saved_at_ms", s.saved_at_ms},
                         {"pid", s.pid}});
    const json j = {{"format", kFormat},
                    {"last_server", profile.last_server},
                    {"last_name", profile.last_name},
                    {"seats", seats}};
    return j.dump(2) + "\n";
}

std::expected<Profile, std::string> profile_from_json(std::string_view text) {
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) return std::unexpected("not valid JSON");
    if (!j.is_object()) return std::unexpected("not a JSON object");
    try {
        if (j.at("format").get<int>() != kFormat)
            return std::unexpected("format " + j.at("format").dump() + " (this client reads " +
                                   std::to_string(kFormat) + ")");
        Profile p;
        p.last_server = j.value("last_server", std::string());
        p.last_name = j.value("last_name", std::string());
        for (const auto& s : j.value("seats", json::array())) p.put_seat(read_seat(s));
        return p;
    } catch (const json::exception& e) {
        return std::unexpected(std::string(e.what()));
    }
}

bool other_process_alive(int pid) {
    if (pid <= 0 || pid == ::getpid()) return false;
    return ::kill(pid, 0) == 0 || errno == EPERM;
}

}  // namespace xq::client
