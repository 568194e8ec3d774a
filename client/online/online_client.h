#pragma once
// The network adapter between the server and the client's models: it turns every server message
// into model updates and every player action into a request. The only client code besides net/
// that sees the protocol. It also keeps what reconnection needs: the seat's resume token, the
// last event version seen, and a move not yet acknowledged (resent with the same move id). With a
// profile, seats also outlive the process: a restarted client goes back into its game.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/model/game_actions.h"
#include "client/mirror/game_mirror.h"
#include "client/model/lobby_model.h"
#include "client/model/ratings_model.h"
#include "client/net/connection.h"
#include "client/profile/profile_store.h"

namespace xq::client {

// Profile and Leaderboard: pages over the lobby (online_ratings.cpp).
enum class Screen { Start, Lobby, Game, Profile, Leaderboard };
enum class LinkStatus { Offline, Connecting, Online, Reconnecting, Failed };

class OnlineClient final : public GameActions {
public:
    // Without a profile nothing is saved: seats last as long as the process.
    OnlineClient(GameModel& game, LobbyModel& lobby, ProfileStore* profile = nullptr);

    // `fingerprint`: the certificate this server is known to have (LAN discovery, the local
    // server): trusted without a question. Otherwise the trust store or known_hosts decides, or
    // trust_problem() asks (client/net/trust.h).
    void connect(const Endpoint& endpoint, const std::string& name, const std::string& fingerprint = {});
    // TLS or --plain, and where fingerprints are remembered, for every connect().
    void set_security(Security security) { security_ = std::move(security); }
    // A server whose certificate needs the person: unknown (trust it?) or changed (refused).
    const std::optional<TrustProblem>& trust_problem() const { return trust_problem_; }
    // Remembers the unknown server's fingerprint and connects again; false when it cannot be
    // remembered (the reason in status_text()).
    bool trust_server();
    void dismiss_trust_problem() { trust_problem_.reset(); }
    void disconnect();
    // Applies everything the server sent since the last call; true when anything came (the
    // picture may have changed). Call once per loop.
    bool pump(TimePoint now);

    LinkStatus status() const { return status_; }
    const std::string& status_text() const { return status_text_; }
    const std::string& server_name() const { return server_name_; }
    const std::string& player_name() const { return name_; }
    Screen screen() const { return screen_; }
    std::optional<std::uint64_t> game_id() const { return game_id_; }
    const std::string& join_code() const { return join_code_; }
    // The account this session is logged in as; "" for a guest.
    const std::string& account() const { return account_; }
    const std::string& archived_pgn() const { return archived_pgn_; }
    // The shown game as PGN with the archive's full tags (common/pgn_record.h): the archive's own
    // text for a replay; else Event, Site (this server), Date, Red, Black, TimeControl, Result and
    // Termination as far as the game has gone.
    std::string record_pgn() const;
    bool waiting_for_opponent() const { return seated_ && !started_; }
    // Requests the player should know failed (not move refusals: the board shows those).
    std::vector<std::string> take_notices();
    // The browser link that watches game `game_id` on this server (its watch page: http:// under
    // --plain, else https://); none while not connected.
    std::optional<std::string> watch_link(std::uint64_t game_id) const;
    // The shown game's watch link: none for a private game (no page shows one) or a local one.
    std::optional<std::string> shown_game_watch_link() const;
    // Something the player should read (a toast), e.g. "Watch link copied".
    void notify(std::string text) { notices_.push_back(std::move(text)); }

    // ---- Accounts (online_account.cpp) ----
    // Sent now when online, else as soon as the link is up (the start screen asks before the
    // connection exists). The session token a login returns is saved for this server.
    void log_in(const std::string& name, const std::string& password);
    void register_account(const std::string& name, const std::string& password);
    // Revokes and forgets this server's session token; the session goes on as a guest.
    void log_out();
    proto::AccountsMode accounts_mode() const { return accounts_; }
    // A login asked for or sent and not answered yet.
    bool login_pending() const { return login_request_ != 0 || pending_login_.has_value(); }
    // "Logged in as Ann", "Playing as a guest: ann (guest)", or "" (offline, or no accounts).
    std::string account_line() const;

    // ---- Lobby ----
    void refresh();
    // `computer_level` 1-8: a game against the server's computer of that level, started at once
    // (the server refuses NO_COMPUTER when none is free); 0: wait for a person.
    // `rated` needs an account (the server refuses a guest); spectators of a game with a
    // `spectator_delay` see it that many moves behind.
    void create(const TimeControlChoice& tc, ColorPick color, bool is_private, int computer_level = 0,
                bool rated = false, std::uint32_t spectator_delay = 0);
    void join(std::uint64_t id, const std::string& code = {});
    void watch(std::uint64_t id, const std::string& code = {});
    void quick_match(const TimeControlChoice& tc, bool rated = false);
    void cancel_seek();
    // The archive's newest games, of `player` only when given (either side, any letter case); the
    // filter is kept in LobbyModel::archive_player.
    void list_archive();
    void list_archive(const std::string& player);
    // The next, older page of the archive after the rows shown (LobbyModel::archive_next), added
    // to them.
    void more_archive();
    void open_archived(std::uint64_t id);
    // A seat saved for this server in a game not on screen (the player left the game screen, or
    // another client of this user holds it): the lobby offers to return to it.
    std::optional<SavedSeat> held_seat() const;
    void return_to_game();

    // ---- Ratings, profiles, rematch, chat muting, passwords (online_ratings.cpp) ----
    const RatingsModel& ratings() const { return ratings_; }
    // An account's profile page: its ratings and their history (GetProfile) and its games
    // (ListArchive by player, in LobbyModel::archive).
    void open_profile(const std::string& name);
    void open_leaderboard(SpeedPool speed);
    // Back from a profile or the leaderboard: to the game shown, if any, else the lobby.
    void close_page();
    // ChangePassword for the account logged in; the answer in password_status().
    void change_password(const std::string& old_password, const std::string& new_password);
    struct PasswordStatus {
        bool pending = false;
        bool ok = false;
        std::string text;  // "Password changed." or the server's reason
    };
    const PasswordStatus& password_status() const { return password_; }
    // Stops (or resumes) this session's copy of the chat it can see: the players' chat for a
    // player, the spectators' chat for a spectator.
    void mute_chat(bool muted);
    bool chat_muted() const { return chat_muted_; }
    // The rematch of the game shown, once it started (for a spectator to follow); 0: none.
    std::uint64_t rematch_game_id() const { return rematch_game_id_; }
    void follow_rematch();
    // A player's view: may this player offer a rematch now (the game over, no rematch yet).
    bool can_offer_rematch() const;

    // ---- The game (GameActions) ----
    void move(Move m) override;
    void resign() override;
    void offer(OfferType kind) override;
    void answer(OfferType kind, bool accept) override;
    void abort_game() override;
    void chat(const std::string& text) override;
    void claim(bool win) override;
    void leave() override;

private:
    void on_link_up(const LinkUp& up);
    void on_message(const proto::ServerMessage& message, TimePoint now);
    void on_error(std::uint64_t request_id, const proto::Error& error);
    void on_snapshot(const proto::Snapshot& snapshot, TimePoint now);
    void on_event(const proto::RoomEvent& event, std::uint64_t request_id, TimePoint now);
    void resync(const std::string& why);
    bool mine(std::uint64_t game_id) const { return game_id_ && *game_id_ == game_id; }
    void send_pending_move();
    // A seat in a game: the model set up for it until the server's Snapshot or events arrive.
    void take_seat(std::uint64_t game_id, const std::string& token, Color side);
    // The profile's side of seats (online_seats.cpp): saved on Seated, dropped when the game ends
    // or is left, resumed after connecting.
    void remember_server();
    void reload_held();
    void resume_saved(const SavedSeat& seat);
    void save_seat(std::uint64_t game_id, const std::string& token, Color side);
    void forget_seat(std::uint64_t game_id);
    bool refused_resume(std::uint64_t request_id, const proto::Error& error);
    void send_login();
    void on_logged_in(std::uint64_t request_id, const proto::LoggedIn& in);
    bool refused_login(std::uint64_t request_id, const proto::Error& error);
    void back_in_saved_seat();
    void on_profile(const proto::Profile& profile);
    void on_leaderboard(const proto::Leaderboard& board);
    bool refused_page(std::uint64_t request_id, const proto::Error& error);
    bool answered_password(std::uint64_t request_id, const proto::Error* error);
    // The opponent's move came: a queued premove goes now if it is legal.
    void play_premove();

    GameModel& game_;
    LobbyModel& lobby_;
    ProfileStore* profile_;
    std::optional<Connection> link_;
    Security security_;
    std::optional<TrustProblem> trust_problem_;
    Endpoint endpoint_;
    std::string server_;  // "host:port" as connected to: the key of saved seats
    std::optional<SavedSeat> held_;  // the newest seat saved for server_
    std::uint64_t resume_request_ = 0;  // the Resume of a saved seat, until answered
    LinkStatus status_ = LinkStatus::Offline;
    std::string status_text_ = "not connected";
    std::string server_name_;
    std::string name_;
    Screen screen_ = Screen::Start;
    std::vector<std::string> notices_;

    std::optional<std::uint64_t> game_id_;
    bool seated_ = false;   // a player in game_id_ (else a spectator or replay)
    bool started_ = false;  // GameStarted seen
    bool replay_ = false;   // an archived game
    bool archive_appending_ = false;  // the awaited ArchiveList is an older page (more_archive)
    std::string token_;
    std::string join_code_;
    bool private_asked_ = false;  // the last CreateGame or JoinGame was for a private game
    bool private_game_ = false;   // the shown game is private: no watch link
    std::string account_;
    std::string display_name_;  // as the server shows this session
    proto::AccountsMode accounts_ = proto::AccountsMode::Optional;
    struct Credentials {
        bool create = false;  // Register, else Login
        std::string name;
        std::string password;
    };
    std::optional<Credentials> pending_login_;  // asked for before the link was up
    std::uint64_t login_request_ = 0;
    bool token_login_ = false;  // login_request_ shows the saved token
    std::string archived_pgn_;
    std::optional<TimeControlChoice> time_control_;  // of the game shown, from its Snapshot
    std::chrono::sys_days started_on_{};  // the day this client first saw the game (UTC)
    GameMirror mirror_;  // the game as the server reported it, with the last version seen
    // The server takes a seat's move ids only in increasing order, and a restarted client resumes
    // its seat knowing none of the ids used before: ids start from the microsecond clock.
    std::uint64_t next_move_id_;
    std::uint64_t move_request_ = 0;  // the request id of the pending move
    RatingsModel ratings_;
    std::uint64_t profile_request_ = 0;
    std::uint64_t password_request_ = 0;
    PasswordStatus password_;
    bool chat_muted_ = false;
    std::uint64_t rematch_game_id_ = 0;
};

}  // namespace xq::client
