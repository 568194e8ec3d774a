#pragma once
// The game server: accepts connections, decodes each frame, routes requests to the lobby and
// rooms, and sends every room event to the people in that room. Runs on one io_context thread.

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "proto/messages.h"
#include "server/discovery.h"
#include "server/journal.h"
#include "server/listener.h"
#include "server/lobby.h"
#include "server/rate_limit.h"
#include "server/store.h"
#include "server/store_checkpoint.h"

namespace xq::server {

struct ServerConfig {
    tcp::endpoint listen{asio::ip::make_address("0.0.0.0"), 7777};
    std::filesystem::path db;                // SQLite file; created if absent
    std::string name = "xiangqi";            // shown in LAN discovery and Welcome
    std::optional<std::uint16_t> discovery;  // UDP port to answer discovery on; none: off
    ListenerLimits connections;
    SessionLimits session;
    // At most one SpectatorCount per room per interval, so a crowd arriving at once does not flood
    // the players; the count after a burst follows when the interval ends.
    std::chrono::milliseconds spectator_count_interval{1000};
    // How long a disconnected player may take to resume before its opponent may claim the game.
    std::chrono::milliseconds grace{std::chrono::seconds(60)};
    RateLimits rate;  // per connection; Ping is free
};

class Server final : public SessionHandler {
public:
    // Opens the store and binds the sockets; throws std::runtime_error naming what failed (startup
    // is the one place exceptions are allowed: main catches them).
    Server(asio::io_context& io, ServerConfig config);
    ~Server() override;

    void start();
    void stop();
    std::uint16_t port() const { return listener_.port(); }
    std::optional<std::uint16_t> discovery_port() const;
    const Lobby& lobby() const { return lobby_; }
    // Open connections (sessions not yet closed and released). On the server's thread only.
    std::size_t connections() const { return listener_.connections(); }

    void on_frame(const std::shared_ptr<Session>& session, std::string_view payload) override;
    void on_bad_frame(const std::shared_ptr<Session>& session, const proto::DecodeError& error) override;
    void on_closed(const std::shared_ptr<Session>& session, CloseReason reason) override;

private:
    struct Client {
        std::shared_ptr<Session> session;
        std::string name;
        bool greeted = false;
        std::set<RoomId> rooms;  // rooms it sits in or watches
        RateLimiter rate;
    };
    // Who is in a room, by participant (= session) id.
    using Members = std::map<ParticipantId, Role>;

    void dispatch(Client& client, const proto::ClientMessage& message);
    bool hosts_waiting_game(const Client& client) const;
    void send(Client& client, const proto::ServerMessage& message);
    // Sends room events to every member allowed to see them. The one who asked (if any) gets its
    // copy with its request id, and the mover's copy of a MoveMade carries its move id.
    void broadcast(const RoomId& id, const Events& events, ParticipantId asker = 0, std::uint64_t request_id = 0);
    void enter(Client& client, const RoomId& id, Role role);
    void leave_all(Client& client);
    // Arms the flag timer for `room`'s deadline when that comes before the timer's current one.
    // Moves only push deadlines later, so the timer may fire early; it then rescans all rooms.
    void arm_flag_timer(const Room* room);
    void on_flag_timer();
    void sweep_finished_rooms();
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
    // Durability (journal.h): a turn's journal records are committed in one transaction before
    // any frame of that turn leaves. While records are pending every outgoing frame is held (in
    // order), and release(), posted once per turn, commits and then delivers them. Frames of a room
    // whose records were refused are dropped, the room is rolled back to its journaled state and
    // the askers get INTERNAL. Finished games reach the archive the same way.
    void deliver(const std::shared_ptr<Session>& session, std::string_view bytes, const RoomId* room = nullptr);
    void journal_pending();
    void release();
    void roll_back(const RoomId& id);
    void recover();  // crash recovery at startup (recovery.h)
    void on_archive(const FinishedGame& game);
    void flush_archive() { release(); }  // before an archive read, and at stop()
    TimePoint now() const { return SteadyClock::now(); }

    // Request handlers (dispatch.cpp).
    void on_hello(Client& c, std::uint64_t rid, const proto::Hello& m);
    void on_list(Client& c, std::uint64_t rid);
    void on_create(Client& c, std::uint64_t rid, const proto::CreateGame& m);
    void on_join(Client& c, std::uint64_t rid, const proto::JoinGame& m);
    void on_quick_match(Client& c, std::uint64_t rid, const proto::QuickMatch& m);
    void on_leave(Client& c, std::uint64_t rid, const proto::Leave& m);
    void on_watch(Client& c, std::uint64_t rid, const proto::WatchGame& m);
    void on_move(Client& c, std::uint64_t rid, const proto::MakeMove& m);
    void on_room_request(Client& c, std::uint64_t rid, const proto::ClientBody& body);
    void on_resume(Client& c, std::uint64_t rid, const proto::Resume& m);
    void on_list_archive(Client& c, std::uint64_t rid, const proto::ListArchive& m);
    void on_get_archived(Client& c, std::uint64_t rid, const proto::GetArchived& m);

    asio::io_context& io_;
    ServerConfig config_;
    Store store_;
    Lobby lobby_;
    Listener listener_;
    std::optional<DiscoveryResponder> discovery_;
    asio::steady_timer flag_timer_;
    std::optional<TimePoint> flag_timer_at_;  // when the armed flag timer fires, if armed
    asio::steady_timer sweep_timer_;
    asio::steady_timer count_timer_;
    std::unique_ptr<Checkpointer> checkpointer_;  // null: SQLite checkpoints on commit
    Journal journal_;
    struct Held {
        std::shared_ptr<Session> session;
        std::string bytes;
        RoomId room;  // "" for frames of no room event
    };
    std::vector<Held> held_;
    bool release_posted_ = false;
    bool count_timer_armed_ = false;
    std::map<RoomId, CountThrottle> counts_;  // rooms whose count changed within the last interval
    std::unordered_map<ParticipantId, Client> clients_;
    std::map<RoomId, Members> members_;
    std::set<RoomId> private_rooms_;
};

}  // namespace xq::server
