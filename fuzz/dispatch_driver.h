#pragma once
// The server's real request handling (server::Dispatcher) driven without sockets, for
// fuzz_dispatch. A few fake peers send frames, a fake loop owns the time and fires the flag and
// spectator-count timers, and the store is an in-memory SQLite database, so the dispatcher, the
// journal, the lobby and the rooms run exactly as in the server. After every step each message a
// peer received is checked as a client would see it, and every room against its invariants.
// The process has one store, which each driver leaves empty: one driver at a time.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "proto/messages.h"
#include "server/dispatch/dispatcher.h"

namespace xq::fuzz {

class DispatchDriver final : private server::DispatchLoop {
public:
    static constexpr int kParticipants = 4;

    DispatchDriver();
    ~DispatchDriver() override;

    // Moves the fake clock on and fires the timers that fall due.
    void advance(server::Millis by);
    // A frame's payload from participant `slot` (0..kParticipants-1).
    void request(int slot, std::string_view payload);
    // The participant's connection drops; it comes back as a new peer that must say Hello again
    // (and Resume to retake a seat).
    void reconnect(int slot);
    // The server's sweep of rooms that ended a minute ago.
    void sweep();

private:
    // A connection as the dispatcher sees it; what it is sent is kept for the checks.
    class FakePeer final : public server::Peer {
    public:
        explicit FakePeer(std::uint64_t id) : id_(id) {}
        std::uint64_t id() const override { return id_; }
        void deliver(std::string_view payload) override;
        void close(server::CloseReason, bool) override { closing_ = true; }
        bool open() const override { return open_; }
        // All the fuzzer's participants share one address, as clients behind one NAT would.
        const std::string& address_group() const override { return group_; }

        std::vector<std::string> inbox;  // delivered since the last check
        bool closing_ = false;           // asked to close: reported closed at the end of the turn
        bool open_ = true;

    private:
        std::uint64_t id_;
        std::string group_ = "192.0.2.1";
    };

    // What a participant has learnt from the wire, per game: its last version seen (the events
    // it hears must continue from there).
    struct View {
        std::map<proto::GameId, std::uint64_t> versions;
        // Games whose players' chat it muted: a muted line's version is a gap it may see.
        std::set<proto::GameId> muted;
    };
    // The request of the current step, if the step is one.
    struct Asked {
        int slot = -1;
        std::uint64_t request_id = 0;
        std::optional<proto::ClientMessage> message;  // as the dispatcher read it
        int plies_before = -1;                        // MakeMove: the game's length before
        // JoinGame: the room's version before, where the joiner's events start (a waiting room
        // has events already, chat for one).
        std::optional<std::pair<proto::GameId, std::uint64_t>> joined_at;
        int replies = 0;                              // messages carrying the request id
    };

    // DispatchLoop.
    server::TimePoint now() const override { return now_; }
    void post_release() override { release_posted_ = true; }
    void arm_flag_timer(server::TimePoint at) override { flag_at_ = at; }
    void arm_count_timer(server::TimePoint at) override { count_at_ = at; }

    // The loop's work after a step: the posted release, the closes, then every check.
    void end_turn();
    void check_message(int slot, const proto::ServerMessage& m);
    void check_event(int slot, proto::GameId game, std::uint64_t version, const proto::ServerMessage& m);
    void check_rooms();
    // Small game ids (1..16) name the games in the order their seats were handed out, "*" stands
    // for a private game's join code and "r"/"b" for the Red and Black seats' resume tokens, so
    // the fuzzer reaches joined, resumed and finished games without guessing secrets.
    proto::ClientMessage with_secrets(proto::ClientMessage m) const;
    proto::GameId game_of(proto::GameId id) const;
    const server::Room* room(proto::GameId id) const;
    void new_peer(int slot);

    server::TimePoint now_{};
    std::uint64_t random_state_ = 0x9e3779b97f4a7c15ULL;
    std::uint64_t next_peer_ = 1;
    bool release_posted_ = false;
    std::optional<server::TimePoint> flag_at_;
    std::optional<server::TimePoint> count_at_;
    server::Store& store_;  // the process's one store
    server::Dispatcher dispatcher_;
    std::array<std::shared_ptr<FakePeer>, kParticipants> peers_;
    std::array<View, kParticipants> views_;
    Asked asked_;
    std::vector<proto::GameId> games_;                                      // in order of first Seated
    std::map<proto::GameId, std::string> join_codes_;                       // private games
    std::map<std::pair<proto::GameId, proto::Side>, std::string> tokens_;  // per seat
    std::map<proto::GameId, std::uint64_t> room_versions_;                 // never go back
};

}  // namespace xq::fuzz
