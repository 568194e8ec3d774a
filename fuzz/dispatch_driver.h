#pragma once
// The server's request handling without sockets, for fuzz_dispatch. Server::dispatch needs a
// Session (a TCP socket) and the Server opens its store and binds ports, so this driver mirrors
// server/dispatch.cpp over the transport-free core instead: decoded requests from a few fake
// participants go to a Lobby and its Rooms, every reply and event goes through server/wire.cpp and
// the codec, and the invariants are checked after every request.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "proto/messages.h"
#include "server/lobby.h"

namespace xq::fuzz {

class DispatchDriver {
public:
    static constexpr int kParticipants = 4;

    DispatchDriver();

    // Moves the fake clock on, fires due flags (as the server's timer does) and checks every room.
    void advance(server::Millis by);
    // A request from participant `slot` (0..kParticipants-1).
    void request(int slot, const proto::ClientMessage& message);
    // The participant's connection drops: its seats are marked away, and it comes back as a new
    // session that must say Hello again (and Resume to retake a seat).
    void reconnect(int slot);
    // The server's sweep: rooms that ended a minute ago go.
    void sweep();

private:
    struct Client {
        server::ParticipantId id = 0;
        bool greeted = false;
        std::string name;
        std::set<server::RoomId> rooms;
    };

    void dispatch(Client& c, std::uint64_t rid, const proto::ClientBody& body);
    void on_create(Client& c, std::uint64_t rid, const proto::CreateGame& m);
    void on_join(Client& c, std::uint64_t rid, const proto::JoinGame& m);
    void on_quick_match(Client& c, std::uint64_t rid, const proto::QuickMatch& m);
    void on_leave(Client& c, std::uint64_t rid, const proto::Leave& m);
    void on_watch(Client& c, std::uint64_t rid, const proto::WatchGame& m);
    void on_move(Client& c, std::uint64_t rid, const proto::MakeMove& m);
    void on_resume(Client& c, std::uint64_t rid, const proto::Resume& m);
    void on_room_request(Client& c, std::uint64_t rid, const proto::ClientBody& body, proto::GameId game);

    // Small game ids (1..16) name the rooms in creation order, so the fuzzer need not guess the
    // 48-bit ids the lobby draws; larger ids are read as the server reads them.
    std::optional<server::RoomId> room_of(proto::GameId id) const;
    Client* client_by_id(server::ParticipantId id);
    // "Sending": the message must fit in a frame and decode to itself.
    void send(const proto::ServerMessage& message);
    void broadcast(const server::RoomId& id, const server::Events& events, std::uint64_t rid = 0);
    void error(std::uint64_t rid, const server::Error& e, proto::GameId game = 0);
    void check_events(const server::RoomId& id, const server::Events& events);
    void check_rooms();
    void on_archive(const server::FinishedGame& game);

    server::TimePoint now_{};
    std::uint64_t random_state_ = 0x9e3779b97f4a7c15ULL;
    std::uint64_t next_session_ = 1;
    server::Lobby lobby_;
    std::array<Client, kParticipants> clients_;
    std::vector<server::RoomId> created_;                   // every room ever made, in order
    std::map<server::RoomId, std::uint64_t> versions_;      // the last version seen per room
    std::map<server::RoomId, std::string> join_codes_;      // private rooms
    std::size_t archived_ = 0;
};

}  // namespace xq::fuzz
