#include "online_client.h"

#include <chrono>
#include <algorithm>

#include "client/model/watch_link.h"
#include "client/online/convert.h"
#include "common/iccs.h"
#include "common/pgn_record.h"

namespace xq::client {

OnlineClient::OnlineClient(GameModel& game, LobbyModel& lobby, ProfileStore* profile)
    : game_(game),
      lobby_(lobby),
      profile_(profile),
      next_move_id_(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                                   std::chrono::system_clock::now().time_since_epoch())
                                                   .count())) {}

void OnlineClient::connect(const Endpoint& endpoint, const std::string& name, const std::string& fingerprint) {
    link_.reset();
    link_.emplace();
    Security security = security_;
    security.expected = fingerprint;
    link_->set_security(std::move(security));
    endpoint_ = endpoint;
    trust_problem_.reset();
    name_ = name;
    server_ = to_string(endpoint);
    held_.reset();
    resume_request_ = 0;  // request ids start again with the new connection
    status_ = LinkStatus::Connecting;
    status_text_ = "connecting to " + to_string(endpoint) + "…";
    link_->open(endpoint, name);
}

bool OnlineClient::trust_server() {
    if (!trust_problem_ || trust_problem_->changed) return false;
    auto hosts = KnownHosts::load(security_.known_hosts);
    if (auto saved = hosts.remember(trust_problem_->server, trust_problem_->presented); !saved) {
        status_text_ = "cannot remember the server: " + saved.error();
        return false;
    }
    // Remembered when a known_hosts file is kept; else trusted for this connection by name.
    const std::string fingerprint = security_.known_hosts.empty() ? trust_problem_->presented : std::string();
    connect(endpoint_, name_, fingerprint);
    return true;
}

void OnlineClient::disconnect() {
    link_.reset();
    resume_request_ = 0;
    status_ = LinkStatus::Offline;
    status_text_ = "not connected";
    screen_ = Screen::Start;
    game_id_.reset();
    seated_ = started_ = replay_ = false;
}

bool OnlineClient::pump(TimePoint now) {
    if (!link_) return false;
    auto events = link_->poll();
    // The lobby's refresh every few seconds mostly brings the same lists back: no change to show.
    const auto list = [](const NetEvent& e) {
        const auto* in = std::get_if<Incoming>(&e);
        return in && std::holds_alternative<proto::GameList>(in->message.body);
    };
    std::optional<std::pair<std::vector<LobbyGame>, std::vector<LobbyGame>>> lists_before;
    if (!events.empty() && std::ranges::all_of(events, list)) lists_before.emplace(lobby_.open, lobby_.live);
    for (auto& event : events) {
        if (const auto* up = std::get_if<LinkUp>(&event)) {
            on_link_up(*up);
        } else if (const auto* down = std::get_if<LinkDown>(&event)) {
            status_ = down->retrying ? LinkStatus::Reconnecting : LinkStatus::Failed;
            status_text_ = down->retrying ? "reconnecting… (" + down->reason + ")" : down->reason;
            if (down->trust) trust_problem_ = down->trust;
        } else if (const auto* in = std::get_if<Incoming>(&event)) {
            on_message(in->message, now);
        }
    }
    if (lists_before) return lists_before->first != lobby_.open || lists_before->second != lobby_.live;
    return !events.empty();
}

void OnlineClient::on_link_up(const LinkUp& up) {
    status_ = LinkStatus::Online;
    server_name_ = up.server_name;
    accounts_ = up.accounts;
    display_name_ = up.display_name;
    account_.clear();  // a new connection starts as a guest until its login is answered
    send_login();
    status_text_ = "connected to " + up.server_name;
    if (up.attempt == 0 || !game_id_) {
        if (screen_ == Screen::Start) screen_ = Screen::Lobby;
        if (up.attempt == 0) remember_server();
        refresh();
        // A seat saved here, unless another running client of this user holds it: back into it.
        if (up.attempt == 0 && held_ && !game_id_ && !other_process_alive(held_->pid)) resume_saved(*held_);
        return;
    }
    // A new connection after a drop: retake the seat (or the spectator's place) and catch up.
    if (seated_ && !token_.empty())
        link_->send(proto::Resume{*game_id_, token_, mirror_.version()});
    else if (!replay_)
        link_->send(proto::WatchGame{*game_id_, join_code_});
}

std::optional<std::string> OnlineClient::watch_link(std::uint64_t game_id) const {
    if (!link_ || endpoint_.host.empty()) return std::nullopt;
    return client::watch_link(endpoint_.host, endpoint_.port, !security_.plain, game_id);
}

std::optional<std::string> OnlineClient::shown_game_watch_link() const {
    // A private game's link would show nothing (the page never shows one): its join code is known here.
    if (!game_id_ || private_game_ || !join_code_.empty()) return std::nullopt;
    return watch_link(*game_id_);
}

std::vector<std::string> OnlineClient::take_notices() {
    std::vector<std::string> out;
    out.swap(notices_);
    return out;
}

void OnlineClient::refresh() {
    if (!link_) return;
    link_->send(proto::ListGames{});
    reload_held();  // another client of this user may have saved or dropped a seat
}

void OnlineClient::create(const TimeControlChoice& tc, ColorPick color, bool is_private, int computer_level, bool rated,
                          std::uint32_t spectator_delay) {
    if (!link_) return;
    private_asked_ = is_private;
    const auto pick = color == ColorPick::Red     ? proto::ColorChoice::Red
                      : color == ColorPick::Black ? proto::ColorChoice::Black
                                                  : proto::ColorChoice::Random;
    link_->send(proto::CreateGame{to_proto(tc), pick, is_private, static_cast<std::uint32_t>(computer_level), rated,
                                  spectator_delay});
}

void OnlineClient::join(std::uint64_t id, const std::string& code) {
    if (!link_) return;
    private_asked_ = !code.empty();  // a public game needs no code
    link_->send(proto::JoinGame{id, code});
}

void OnlineClient::watch(std::uint64_t id, const std::string& code) {
    if (!link_) return;
    game_id_ = id;
    seated_ = started_ = replay_ = false;
    chat_muted_ = false;
    rematch_game_id_ = 0;
    join_code_ = code;
    private_game_ = !code.empty();
    link_->send(proto::WatchGame{id, code});
}

void OnlineClient::quick_match(const TimeControlChoice& tc, bool rated) {
    if (link_) link_->send(proto::QuickMatch{to_proto(tc), rated});
}

void OnlineClient::cancel_seek() {
    if (link_) link_->send(proto::Leave{0});
}

void OnlineClient::list_archive() {
    archive_appending_ = false;
    if (link_) link_->send(proto::ListArchive{0, 50, lobby_.archive_player});
}

// Paged by the server's key, not an offset: the server finds the page through its index.
void OnlineClient::more_archive() {
    if (!link_ || lobby_.archive_next.empty()) return;
    archive_appending_ = true;
    link_->send(proto::ListArchive{0, 50, lobby_.archive_player, lobby_.archive_next});
}

void OnlineClient::list_archive(const std::string& player) {
    lobby_.archive_player = player;
    list_archive();
}

std::string OnlineClient::record_pgn() const {
    if (replay_ && !archived_pgn_.empty()) return archived_pgn_;
    GameRecordTags tags;
    tags.event = "Online game" + (game_id_ ? " " + std::to_string(*game_id_) : std::string());
    tags.site = server_name_;
    tags.date = started_on_;
    tags.red = game_.seat(Color::Red).name;
    tags.black = game_.seat(Color::Black).name;
    if (time_control_) {
        using std::chrono::minutes, std::chrono::seconds;
        const auto& tc = *time_control_;
        tags.time_control = pgn_time_control(minutes(tc.base_minutes), seconds(tc.increment_seconds),
                                             tc.move_cap_seconds ? std::optional(seconds(*tc.move_cap_seconds))
                                                                 : std::nullopt);
    }
    if (const auto& r = game_.result()) {
        tags.result = r->result;
        tags.termination = r->reason;
        tags.explanation = r->explanation;
    }
    return write_pgn(game_record(game_.position_at(0), game_.moves(), tags));
}

void OnlineClient::open_archived(std::uint64_t id) {
    if (link_) link_->send(proto::GetArchived{id});
}

void OnlineClient::move(Move m) {
    if (!link_ || !game_id_ || !seated_ || !game_.can_move()) return;
    game_.begin_pending(m, next_move_id_++);
    // Until pump() has seen the link come back, a new session holds no seat (the Resume goes out
    // in on_link_up): the move waits as pending and goes with the Resumed or Snapshot reply.
    if (status_ == LinkStatus::Online) send_pending_move();
}

// Sends (or, after a reconnection, resends) the pending move. The move id makes a resend safe:
// the server answers a move it already played with its original acknowledgement.
void OnlineClient::send_pending_move() {
    const auto& pending = game_.pending();
    if (!pending || !game_id_) return;
    move_request_ = link_->send(proto::MakeMove{*game_id_, to_iccs(pending->move), pending->move_id,
                                                static_cast<std::uint32_t>(pending->ply)});
}

void OnlineClient::resign() {
    if (link_ && game_id_ && seated_) link_->send(proto::Resign{*game_id_});
}

void OnlineClient::offer(OfferType kind) {
    if (link_ && game_id_ && seated_) link_->send(proto::MakeOffer{*game_id_, to_proto(kind)});
}

void OnlineClient::answer(OfferType kind, bool accept) {
    if (link_ && game_id_ && seated_) link_->send(proto::AnswerOffer{*game_id_, to_proto(kind), accept});
}

void OnlineClient::abort_game() {
    if (link_ && game_id_ && seated_) link_->send(proto::Abort{*game_id_});
}

void OnlineClient::chat(const std::string& text) {
    if (!link_ || !game_id_ || replay_ || text.empty()) return;
    const auto channel = seated_ ? proto::ChatChannel::Players : proto::ChatChannel::Spectators;
    link_->send(proto::SendChat{*game_id_, channel, text});
}

void OnlineClient::claim(bool win) {
    if (link_ && game_id_ && seated_)
        link_->send(proto::Claim{*game_id_, win ? proto::ClaimKind::Win : proto::ClaimKind::Draw});
}

void OnlineClient::leave() {
    // Only a spectator, or a player whose game has not started, has a place to give up: the server
    // refuses Leave once a game has started (a live game is left by resigning, a finished one needs
    // nothing), and the refusal would show as a notice in the lobby.
    if (link_ && game_id_ && !replay_ && (!seated_ || !started_)) link_->send(proto::Leave{*game_id_});
    // A seat in a game that has not started is given up; one in a live game is kept (and saved):
    // the lobby offers to return to it.
    if (game_id_ && seated_ && !started_) forget_seat(*game_id_);
    game_id_.reset();
    seated_ = started_ = replay_ = false;
    token_.clear();
    join_code_.clear();
    screen_ = link_ ? Screen::Lobby : Screen::Start;
    refresh();
}

}  // namespace xq::client
