#pragma once
// The server's request handling, transport-free: decodes each frame a peer sends, routes the
// request to the lobby and rooms, answers the asker and sends every room event to the people in
// that room, through an outbox that commits what must be durable before any of it leaves
// (outbox.h). It knows peers only as ids that take messages and can be closed (peer.h), and its
// event loop only as a clock and three wake-ups (DispatchLoop), so the fuzzer drives this very
// code with fake peers and fake time. Single-threaded: every call on the loop's thread.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "proto/codec.h"
#include "proto/messages.h"
#include "server/accounts/password_pool.h"
#include "server/accounts/passwords.h"
#include "server/accounts/throttle.h"
#include "server/rooms/lobby.h"
#include "server/dispatch/outbox.h"
#include "server/dispatch/peer.h"
#include "server/dispatch/join_code_guard.h"
#include "server/dispatch/rate_limit.h"
#include "server/dispatch/rating_book.h"
#include "server/dispatch/recovery.h"
#include "server/dispatch/router.h"
#include "server/store/store.h"

namespace xq::server {

// Computer opponents' levels are 1 to this (engine/levels.h, which the server does not link).
inline constexpr std::uint32_t kMaxComputerLevel = 8;
// CreateGame.spectator_delay is 0 to this many moves (plies).
inline constexpr std::uint32_t kMaxSpectatorDelay = 20;

struct DispatchConfig {
    std::string name = "xiangqi";  // shown in Welcome
    // At most one SpectatorCount per room per interval, so a crowd arriving at once does not flood
    // the players; the count after a burst follows when the interval ends.
    std::chrono::milliseconds spectator_count_interval{1000};
    // How long a disconnected player may take to resume before its opponent may claim the game.
    std::chrono::milliseconds grace{std::chrono::seconds(60)};
    // How long each side may take over its first move before the game is aborted (room.h).
    std::chrono::milliseconds first_move{Room::kFirstMoveTime};
    RateLimits rate;  // per connection; Ping is free
    // The key of the computer opponents this server started (Hello.computer_key); empty: no Hello
    // may give a computer level.
    std::string computer_key;
    // Games waiting for an opponent that one address group may host at once (the server's own
    // computers aside), so that a few addresses cannot fill the lobby; 0: no limit.
    std::size_t max_waiting_per_group = 2;
    JoinCodeLimits join_codes;  // wrong join codes per address group and per game
    // Accounts (account_handlers.cpp): off, optional (guests marked " (guest)") or required.
    proto::AccountsMode accounts = proto::AccountsMode::Optional;
    std::chrono::seconds session_lifetime{std::chrono::hours(24 * 30)};  // a login token's life
    PasswordCost password_cost = interactive_cost();
    // Failed logins, per address group (many players may share one, behind NAT: more free tries)
    // and per account.
    BackoffRules address_backoff{.free_failures = 20};
    BackoffRules account_backoff{.free_failures = 5};
    std::size_t registrations_per_hour = 5;  // per address group
    // Rated games at a speed an account needs to appear on that speed's leaderboard.
    std::uint32_t leaderboard_min_games = 10;
};

// What the dispatcher needs of the loop that runs it.
class DispatchLoop {
public:
    virtual ~DispatchLoop() = default;
    virtual TimePoint now() const = 0;
    // Calls Dispatcher::release() once the handlers of the current turn are done.
    virtual void post_release() = 0;
    // Calls Dispatcher::on_flag_timer() at `at`, instead of at any time armed before.
    virtual void arm_flag_timer(TimePoint at) = 0;
    // Calls Dispatcher::on_count_timer() at `at` (armed only when not already armed).
    virtual void arm_count_timer(TimePoint at) = 0;
};

class Dispatcher {
public:
    // `store` and `loop` must outlive the dispatcher; `random` makes ids, tokens and join codes.
    // `passwords` runs Argon2id off the loop (and must outlive the dispatcher); null: inline, on
    // the caller's thread (the fuzzer and tests without a server loop).
    Dispatcher(DispatchConfig config, Store& store, DispatchLoop& loop, RandomSource random,
               PasswordWork* passwords = nullptr);
    ~Dispatcher();
    Dispatcher(const Dispatcher&) = delete;  // the lobby calls back into this object
    Dispatcher& operator=(const Dispatcher&) = delete;

    // Crash recovery at startup (recovery.h): every live game of the store back in the lobby.
    void recover();
    // Arms the flag timer for every room's clock (after recovery).
    void arm_clocks() { arm_flag_timer(nullptr); }

    // One frame's payload from `peer` (valid only during the call).
    void on_frame(const std::shared_ptr<Peer>& peer, std::string_view payload);
    // The peer's stream cannot be framed; the transport closes it after this.
    void on_bad_frame(const std::shared_ptr<Peer>& peer, const proto::DecodeError& error);
    // The peer is gone: its seats are marked away, its spectating ends.
    void on_closed(const Peer& peer);

    // Commits the turn's journal records and delivers the frames held meanwhile (post_release);
    // rooms whose records were refused are rolled back and their askers told INTERNAL.
    void release();
    void on_flag_timer();
    void on_count_timer();
    // Finished rooms stay a minute for those who watched the end, then live on only in the archive.
    void sweep_finished_rooms();

    // This server as one node of a cluster (router.h); null (the default): every game is local.
    void set_router(Router* router) { router_ = router; }
    // A request another node forwarded for one of its sessions, which `remote` stands for here
    // (its output goes back to that node; its close comes as on_closed). `who` is the client as
    // that node knows it; that node has applied the rate limits. Never forwarded again.
    void on_forwarded(const std::shared_ptr<Peer>& remote, const proto::NodeIdentity& who, std::string_view frame);

    // A quick-match pairing this node's matcher made (router.h): a new game here with the two
    // seekers seated, `first` the earlier; `remote` as on_forwarded's. Both are told as a local
    // pairing's waiter is (Seated, GameStarted). False, and no game, for a seek that makes no sense.
    bool start_pairing(const std::shared_ptr<Peer>& first, const proto::NodeSeek& first_seek, const std::shared_ptr<Peer>& second,
                       const proto::NodeSeek& second_seek);

    // Games this node took over from a dead node (GameOwnership::take_over): rooms again, as after
    // a restart; their players resume with their tokens. The ids of the games restored.
    std::vector<RoomId> adopt_games(const std::vector<RecoverableGame>& games);
    // Another node took the game over (its fence moved on): the room goes from here, and the
    // connections in it close, so their clients reconnect and resume on the game's new owner.
    void give_up(const RoomId& id);

    // Every peer that has sent a frame and is not closed yet.
    std::vector<std::shared_ptr<Peer>> peers() const;
    const Lobby& lobby() const { return lobby_; }

private:
    struct Client {
        std::shared_ptr<Peer> peer;
        std::string name;
        bool greeted = false;
        std::uint32_t computer_level = 0;  // a computer opponent (Hello.computer_level); 0: a person
        std::set<RoomId> rooms;  // rooms it sits in or watches
        std::set<RoomId> private_seats;  // private games it has sat in (their archive entries are its to see)
        // Chat channels it has muted, per room: bit 0 the players', bit 1 the spectators'.
        std::map<RoomId, unsigned> muted;
        RateLimiter rate;
        bool remote = false;             // another node's session (on_forwarded)
        std::string hello_name;          // the name its Hello gave (cleaned): its name as a guest
        std::string account;             // the account's key once logged in; "" for a guest
        std::string session_token_hash;  // the login session Logout revokes
        bool password_work = false;      // a Register/Login/ChangePassword is being hashed
        // Round trips (round_trips.cpp): the server's Ping awaiting its Pong, and the measure.
        struct PendingPing {
            std::uint64_t nonce = 0;
            TimePoint sent;
        };
        std::optional<PendingPing> ping;
        std::optional<TimePoint> last_ping;  // when the last Ping went out
        RoundTrip round_trip;
    };
    // The connections of one address group (address_group() of their peers) and what they share.
    struct Group {
        std::set<ParticipantId> members;
        TokenBucket requests;
        TokenBucket chat;
    };
    // Who is in a room, by participant (= peer) id.
    using Members = std::map<ParticipantId, Role>;

    void dispatch(Client& client, const proto::ClientMessage& message);
    // Sends `message` to the node that owns its game when another node does (remote_requests.cpp).
    bool forwarded(Client& client, const proto::ClientMessage& message);
    static proto::NodeIdentity identity(const Client& client);
    // The client another node's session is here (created on its first request), as `who` says.
    Client& remote_client(const std::shared_ptr<Peer>& remote, const proto::NodeIdentity& who);
    // A local client with a seek out in the cluster may not create or join a game meanwhile.
    bool refused_while_seeking(Client& client, std::uint64_t rid, const proto::ClientBody& body);
    bool hosts_waiting_game(const Client& client) const { return waiting_room(client).has_value(); }
    // The game `client` hosts that waits for an opponent, if any.
    std::optional<RoomId> waiting_room(const Client& client) const;
    // `room`: the reply describes that room, so it is dropped (and the request answered with
    // INTERNAL) if the room's journal records of this turn fail.
    void send(Client& client, const proto::ServerMessage& message, const RoomId* room = nullptr);
    // Sends room events to every member allowed to see them. The one who asked (if any) gets its
    // copy with its request id, and the mover's copy of a MoveMade carries its move id.
    void broadcast(const RoomId& id, const Events& events, ParticipantId asker = 0, std::uint64_t request_id = 0);
    void enter(Client& client, const RoomId& id, Role role);
    void leave_all(Client& client);
    void tell_cancelled(const RoomId& id, std::uint64_t version, std::optional<Color> by, std::string explanation);
    void forget_room(const RoomId& id);
    // Arms the flag timer for `room`'s deadline when that comes before the timer's current one.
    // Moves only push deadlines later, so the timer may fire early; it then rescans all rooms.
    void arm_flag_timer(const Room* room);
    // Spectator counts (throttled): a change is sent at once if the room's last count went out an
    // interval ago, else marked pending and sent, as the latest count, when the interval ends.
    struct CountThrottle {
        TimePoint sent;
        std::size_t count = 0;  // as last sent
        bool pending = false;
    };
    void spectators_changed(const RoomId& id);
    void send_spectator_count(const RoomId& id, CountThrottle& throttle, TimePoint at);
    void arm_count_timer();
    // A refused commit refuses the change: the room goes back to what the journal holds.
    void roll_back(const RoomId& id);
    // Rooms restored from the journal (recovery.h), after a restart or a takeover: their private
    // flags and seat ratings; what could not be restored is logged under `what`.
    void take_in(const RecoveryReport& report, std::string_view what);
    RatingShifts on_archive(const FinishedGame& game);
    // Seats the players of quick-match pairings (`asker`'s copy answers request `rid`).
    void seat_match(const Match& found, ParticipantId asker, std::uint64_t rid);
    void flush_archive() { release(); }  // before an archive read
    TimePoint now() const { return loop_.now(); }

    // Request handlers (request_handlers.cpp).
    void on_hello(Client& c, std::uint64_t rid, const proto::Hello& m);
    void on_list(Client& c, std::uint64_t rid);
    void on_create(Client& c, std::uint64_t rid, const proto::CreateGame& m);
    // CreateGame against the computer (computer_games.cpp).
    void on_create_vs_computer(Client& c, std::uint64_t rid, const proto::CreateGame& m, const TimeControl& control,
                               ColorChoice color);
    Client* idle_computer(std::uint32_t level);
    void on_join(Client& c, std::uint64_t rid, const proto::JoinGame& m);
    void on_quick_match(Client& c, std::uint64_t rid, const proto::QuickMatch& m);
    void on_leave(Client& c, std::uint64_t rid, const proto::Leave& m);
    void on_watch(Client& c, std::uint64_t rid, const proto::WatchGame& m);
    void on_move(Client& c, std::uint64_t rid, const proto::MakeMove& m);
    void on_room_request(Client& c, std::uint64_t rid, const proto::ClientBody& body);
    void on_resume(Client& c, std::uint64_t rid, const proto::Resume& m);
    void on_list_archive(Client& c, std::uint64_t rid, const proto::ListArchive& m);
    void on_get_archived(Client& c, std::uint64_t rid, const proto::GetArchived& m);
    void on_mute(Client& c, std::uint64_t rid, const proto::Mute& m);
    // A private game's join code is about to be checked: "" when `c` may try, else why not.
    std::string join_code_refusal(const Client& c, const RoomId& id) const;
    // Counts a wrong code if that is what `error` says.
    void note_join_code(const Client& c, const RoomId& id, proto::ErrorCode error);
    std::size_t waiting_games_of_group(const std::string& group) const;
    // Whether `c` should not see `line` of room `id` (muted; its own lines always pass).
    bool muted_for(const Client& c, const RoomId& id, const proto::ChatLine& line, std::optional<proto::Side> own) const;
    void drop_muted(const Client& c, const RoomId& id, std::vector<proto::ChatLine>& lines, std::optional<proto::Side> own) const;

    // Round trips (round_trips.cpp): a Ping to each seated player of `id` (at the start and after
    // each move), the Pong that answers it, and whether a Pong answers the one awaited.
    void ping_players(const RoomId& id);
    void ping(Client& c);
    void on_pong(Client& c, const proto::Pong& m);
    static bool answers_ping(const Client& c, const proto::ClientBody& body);
    static bool watcher_may(const proto::ClientBody& body);
    // MakeOffer / AnswerOffer of kind REMATCH (rematch.cpp).
    void on_rematch(Client& c, std::uint64_t rid, const RoomId& id, bool offer, bool accept);

    // Accounts (account_handlers.cpp).
    void on_register(Client& c, std::uint64_t rid, const proto::Register& m);
    void on_login(Client& c, std::uint64_t rid, const proto::Login& m);
    void on_logout(Client& c, std::uint64_t rid);
    void on_change_password(Client& c, std::uint64_t rid, const proto::ChangePassword& m);
    // The session becomes `account`'s: named as registered, its seats in live games listed with
    // fresh resume tokens (the seat follows the newest session). `token` is sent only when new.
    void log_in(Client& c, std::uint64_t rid, const AccountRecord& account, const std::string& token,
                std::int64_t expires_at_ms);
    // A new login session for `account`: its token in clear (stored hashed) and expiry.
    std::optional<std::pair<std::string, std::int64_t>> open_session(Client& c, const std::string& account);
    // Runs `job` on the password workers, then `done` with the client if it is still connected;
    // false (and TRY_LATER sent) if the workers are saturated or one of its jobs is running.
    bool run_password_work(Client& c, std::uint64_t rid, std::function<void()> job,
                           std::function<void(Client&)> done);
    // How the guest `c` is shown: its Hello name, marked when accounts exist, never an account's.
    std::string guest_name(const Client& c);
    // Records the accounts of the players in `id`'s seats (before the start is journaled).
    void mark_accounts(const RoomId& id);
    // A computer opponent's Hello: its account (made on first use), so its games are rated.
    void use_computer_account(Client& c);

    // Ratings, profiles and the leaderboard (profile_handlers.cpp).
    void on_get_profile(Client& c, std::uint64_t rid, const proto::GetProfile& m);
    void on_get_leaderboard(Client& c, std::uint64_t rid, const proto::GetLeaderboard& m);
    // A rated request from a guest: ACCOUNT_REQUIRED sent, true.
    bool refuse_rated_guest(Client& c, std::uint64_t rid, bool rated);
    // The key of the account `name` names (a computer's too), if there is one.
    std::optional<std::string> archive_account(std::string_view name);
    std::string throttle_address(const Client& c) const { return "addr " + c.peer->address_group(); }
    DispatchConfig config_;
    Store& store_;
    DispatchLoop& loop_;
    Outbox outbox_;  // every frame leaves through it
    RandomSource random_;
    Lobby lobby_;
    std::optional<TimePoint> flag_timer_at_;  // when the armed flag timer fires, if armed
    bool count_timer_armed_ = false;
    std::unordered_map<RoomId, CountThrottle> counts_;  // rooms whose count changed within the last interval
    std::unordered_map<ParticipantId, Client> clients_;
    std::unordered_map<RoomId, Members> members_;
    std::set<RoomId> private_rooms_;
    // Delayed rooms: the last event version their spectators were sent (Room::spectator_version).
    std::unordered_map<RoomId, std::uint64_t> spectators_sent_;
    // Sends spectators of a delayed room the events the delay now lets them see.
    void reveal_to_spectators(const RoomId& id, const Room& room);
    std::unordered_map<std::string, Group> groups_;  // by address group
    JoinCodeGuard join_guard_;
    InlinePasswordWork inline_passwords_;
    PasswordWork& passwords_;
    LoginThrottle address_throttle_;
    LoginThrottle account_throttle_;
    RegistrationLimit registrations_;
    // Completions of password work check this: the dispatcher may be gone when one is run.
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    RatingBook ratings_{store_};
    Router* router_ = nullptr;
};

}  // namespace xq::server
