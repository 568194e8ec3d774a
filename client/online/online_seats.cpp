// Seats that outlive the process: each seat the client takes is saved in the profile with its
// resume token, dropped when its game ends, is aborted or left, or the server refuses the token;
// after connecting, a seat saved for that server is resumed.

#include <chrono>

#include <unistd.h>

#include "client/online/online_client.h"

namespace xq::client {

namespace {

std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

void OnlineClient::take_seat(std::uint64_t game_id, const std::string& token, Color side) {
    game_id_ = game_id;
    seated_ = true;
    started_ = replay_ = false;
    token_ = token;
    join_code_.clear();
    chat_muted_ = false;  // a new room: its chat is heard until muted there
    rematch_game_id_ = 0;
    mirror_.clear();
    game_.clear_room();
    (void)game_.reset(Position::start(), {}, side == Color::Black ? Role::Black : Role::Red);
    game_.set_phase(Phase::Waiting);
    game_.set_seat(side, {name_, true, std::nullopt});
}

std::optional<SavedSeat> OnlineClient::held_seat() const {
    if (!held_ || status_ != LinkStatus::Online || resume_request_ != 0 || (mine(held_->game_id) && screen_ == Screen::Game))
        return std::nullopt;
    return held_;
}

void OnlineClient::return_to_game() {
    if (const auto seat = held_seat()) resume_saved(*seat);
}

// Called once a connection is up: the server answers, so it and the name are worth remembering.
void OnlineClient::remember_server() {
    if (profile_) profile_->update([&](Profile& p) {
        p.last_server = server_;
        p.last_name = name_;
    });
    reload_held();
}

void OnlineClient::reload_held() {
    held_.reset();
    if (!profile_) return;
    const Profile saved = profile_->load();
    if (const SavedSeat* seat = saved.seat_on(server_)) held_ = *seat;
}

// Back into a saved seat: the Resume asks from version 0, so the reply (a Snapshot, or Resumed
// with every event) rebuilds the game from nothing, as after a crash.
void OnlineClient::resume_saved(const SavedSeat& seat) {
    if (!link_) return;
    take_seat(seat.game_id, seat.token, seat.side);
    resume_request_ = link_->send(proto::Resume{seat.game_id, seat.token, 0});
    save_seat(seat.game_id, seat.token, seat.side);  // this process holds it now
}

void OnlineClient::save_seat(std::uint64_t game_id, const std::string& token, Color side) {
    if (!profile_ || server_.empty()) return;
    const SavedSeat seat{server_, game_id, token, side, unix_ms(), static_cast<int>(::getpid())};
    profile_->update([&](Profile& p) { p.put_seat(seat); });
    held_ = seat;
}

void OnlineClient::forget_seat(std::uint64_t game_id) {
    if (!profile_ || server_.empty()) return;
    if (held_ && held_->game_id == game_id) held_.reset();
    profile_->update([&](Profile& p) { p.drop_seat(server_, game_id); });
}

// The server took the Resume of a saved seat: the player is told where the game came from.
void OnlineClient::back_in_saved_seat() {
    resume_request_ = 0;
    notices_.push_back("Back in your game on " + server_ + ", where you left it.");
}

// The server refused the Resume of a saved seat: its game is over, gone, or the seat taken. The
// seat is dropped and the player, still in the lobby, is told.
bool OnlineClient::refused_resume(std::uint64_t request_id, const proto::Error& error) {
    if (request_id == 0 || request_id != resume_request_ || !game_id_) return false;
    resume_request_ = 0;
    const std::uint64_t id = *game_id_;
    forget_seat(id);
    game_id_.reset();
    seated_ = started_ = false;
    token_.clear();
    game_.clear_room();
    (void)game_.reset(Position::start(), {}, Role::Spectator);
    screen_ = Screen::Lobby;
    const std::string why = error.explanation.empty() ? error.message : error.explanation;
    notices_.push_back("Your game #" + std::to_string(id) + " on " + server_ + " could not be resumed (" + why +
                       "); it is no longer saved.");
    return true;
}

}  // namespace xq::client
