// Accounts on the client: Register, Login by password or by the session token saved for this
// server, Logout. The token is kept in the profile's folder (ProfileStore::session_token, a 0600
// file per server) and logs in again after every (re)connection, so a restarted client is the
// same account without a password; the server's LoggedIn lists the account's live seats, and the
// client goes back into the first one when it is not already in a game.

#include <unistd.h>

#include "client/online/online_client.h"

namespace xq::client {

using proto::AccountsMode;

void OnlineClient::log_in(const std::string& name, const std::string& password) {
    pending_login_ = Credentials{false, name, password};
    if (status_ == LinkStatus::Online) send_login();
}

void OnlineClient::register_account(const std::string& name, const std::string& password) {
    pending_login_ = Credentials{true, name, password};
    if (status_ == LinkStatus::Online) send_login();
}

void OnlineClient::log_out() {
    if (profile_ && !server_.empty()) profile_->forget_session_token(server_);
    if (!link_ || status_ != LinkStatus::Online || account_.empty()) return;
    login_request_ = link_->send(proto::Logout{});
}

std::string OnlineClient::account_line() const {
    if (status_ != LinkStatus::Online || accounts_ == AccountsMode::Off) return {};
    if (!account_.empty()) return "Logged in as " + account_;
    return "Playing as a guest: " + display_name_;
}

// On every link up: a login asked for, else the saved session token (the same account after a
// reconnection or a restart), else nothing (a guest).
void OnlineClient::send_login() {
    if (!link_) return;
    if (accounts_ == AccountsMode::Off) {
        if (pending_login_) notices_.push_back("this server has no accounts: you play under your name");
        pending_login_.reset();
        return;
    }
    token_login_ = false;
    if (pending_login_) {
        const Credentials c = std::move(*pending_login_);
        pending_login_.reset();  // the password is not kept once sent
        login_request_ = c.create ? link_->send(proto::Register{c.name, c.password})
                                  : link_->send(proto::Login{c.name, c.password, ""});
        return;
    }
    if (!profile_ || server_.empty()) return;
    if (const auto token = profile_->session_token(server_)) {
        token_login_ = true;
        login_request_ = link_->send(proto::Login{"", "", *token});
    }
}

void OnlineClient::on_logged_in(std::uint64_t request_id, const proto::LoggedIn& in) {
    if (request_id == login_request_) login_request_ = 0;
    account_ = in.guest ? "" : in.name;
    display_name_ = in.name;
    if (profile_ && !server_.empty()) {
        if (in.guest) profile_->forget_session_token(server_);
        else if (!in.session_token.empty()) profile_->save_session_token(server_, in.session_token);
    }
    // The account's seats: back into the first when not in a game (another machine's seat, or a
    // client restarted without its saved seat).
    if (!in.seats.empty() && !game_id_) {
        const proto::Seated& seat = in.seats.front();
        const Color side = seat.side == proto::Side::Black ? Color::Black : Color::Red;
        resume_saved(SavedSeat{server_, seat.game_id, seat.resume_token, side, 0, static_cast<int>(::getpid())});
        screen_ = Screen::Game;
    }
}

bool OnlineClient::refused_login(std::uint64_t request_id, const proto::Error& error) {
    if (request_id == 0 || request_id != login_request_) return false;
    login_request_ = 0;
    if (token_login_ && error.code == proto::ErrorCode::BadCredentials) {
        // Expired or revoked: forgotten, and the player logs in again with its password.
        if (profile_ && !server_.empty()) profile_->forget_session_token(server_);
        notices_.push_back("your saved login to this server has expired: log in again");
        return true;
    }
    notices_.push_back(error.message);
    return true;
}

}  // namespace xq::client
