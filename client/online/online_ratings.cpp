// Issue 19 on the client's side of the wire: profiles and the leaderboard (pages over the lobby),
// rematches, premoves going out when the opponent's move arrives, muting a chat channel, and
// changing the account's password.

#include "client/online/convert.h"
#include "client/online/online_client.h"

namespace xq::client {

void OnlineClient::open_profile(const std::string& name) {
    if (!link_ || name.empty()) return;
    ratings_.profile_name = name;
    ratings_.profile.reset();
    ratings_.profile_error.clear();
    profile_request_ = link_->send(proto::GetProfile{name});
    list_archive(name);  // its games, under the ratings
    screen_ = Screen::Profile;
}

void OnlineClient::open_leaderboard(SpeedPool speed) {
    if (!link_) return;
    ratings_.board_speed = speed;
    ratings_.leaderboard_loaded = false;
    link_->send(proto::GetLeaderboard{to_proto(speed)});
    screen_ = Screen::Leaderboard;
}

// Back where the page was opened from: the game shown (a profile opened from its panel), else the lobby.
void OnlineClient::close_page() {
    if (screen_ != Screen::Profile && screen_ != Screen::Leaderboard) return;
    screen_ = !link_ ? Screen::Start : game_id_ ? Screen::Game : Screen::Lobby;
}

void OnlineClient::on_profile(const proto::Profile& p) {
    ProfileView view{p.name, p.computer, {}, p.wins, p.draws, p.losses};
    for (const auto& s : p.speeds) {
        SpeedRecordView record{to_pool(s.speed), to_rating(s.rating), s.games, {}};
        for (const auto& point : s.history) record.history.push_back({point.at_ms, point.rating, point.game_id});
        view.speeds.push_back(std::move(record));
    }
    ratings_.profile = std::move(view);
    ratings_.profile_error.clear();
}

void OnlineClient::on_leaderboard(const proto::Leaderboard& board) {
    if (to_pool(board.speed) != ratings_.board_speed) return;  // an older tab's answer
    ratings_.leaderboard.clear();
    for (const auto& row : board.rows)
        ratings_.leaderboard.push_back({row.rank, row.name, to_rating(row.rating), row.games, row.computer});
    ratings_.min_games = board.min_games;
    ratings_.leaderboard_loaded = true;
}

// A profile refused (no such account): said on its page rather than as a passing notice.
bool OnlineClient::refused_page(std::uint64_t request_id, const proto::Error& error) {
    if (request_id == 0 || request_id != profile_request_) return false;
    profile_request_ = 0;
    ratings_.profile_error = error.code == proto::ErrorCode::NoSuchAccount
                                 ? "No account is called " + ratings_.profile_name + "."
                                 : error.message;
    return true;
}

void OnlineClient::change_password(const std::string& old_password, const std::string& new_password) {
    if (!link_ || account_.empty()) {
        password_ = {false, false, "Log in first to change your password."};
        return;
    }
    password_ = {true, false, "Changing the password…"};
    password_request_ = link_->send(proto::ChangePassword{old_password, new_password});
}

// The answer to ChangePassword: LoggedIn (error null) or an Error.
bool OnlineClient::answered_password(std::uint64_t request_id, const proto::Error* error) {
    if (request_id == 0 || request_id != password_request_) return false;
    password_request_ = 0;
    if (error)
        password_ = {false, false, error->explanation.empty() ? error->message : error->explanation};
    else
        password_ = {false, true, "Password changed."};
    return true;
}

void OnlineClient::mute_chat(bool muted) {
    if (!link_ || !game_id_ || replay_) return;
    const auto channel = seated_ ? proto::ChatChannel::Players : proto::ChatChannel::Spectators;
    chat_muted_ = muted;
    link_->send(proto::Mute{*game_id_, channel, muted});
}

void OnlineClient::follow_rematch() {
    if (rematch_game_id_ == 0) return;
    const auto id = rematch_game_id_;
    rematch_game_id_ = 0;
    watch(id);
}

bool OnlineClient::can_offer_rematch() const {
    return link_ && game_id_ && seated_ && started_ && !replay_ && game_.result() && rematch_game_id_ == 0;
}

void OnlineClient::play_premove() {
    if (const auto m = game_.take_premove()) move(*m);
}

}  // namespace xq::client
