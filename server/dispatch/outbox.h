#pragma once
// Durability before delivery: nobody hears of a change before it is committed. A turn's journal
// records (turn_journal.h) are committed in one transaction, and while any are pending every
// outgoing frame is held, in order, until release() (posted once per turn) has committed them.
// Frames of a room whose records were refused are dropped; the dispatcher rolls the room back and
// answers its askers (Dispatcher::release). Single-threaded, as the dispatcher.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/dispatch/peer.h"
#include "server/dispatch/turn_journal.h"
#include "server/rooms/lobby.h"
#include "server/store/store.h"

namespace xq::server {

class Outbox {
public:
    // `store` must outlive the outbox; `post_release` has release() run once the handlers of the
    // current turn are done (DispatchLoop::post_release).
    Outbox(Store& store, std::function<void()> post_release);

    // The records `events` of `room` call for; `asker` (0: none) is told INTERNAL if they fail.
    void note(const Room& room, const Events& events, const Lobby& lobby, ParticipantId asker,
              std::uint64_t request_id);
    // A game ended with a result: its archive entry is committed as a record of the turn.
    void note_finished(ArchivedGame game);
    // A seat's token was replaced: the new hash is committed before the new token is sent.
    void note_seat_token(const Room& room, Color color) {
        journal_.note_seat_token(room, color);
        post();
    }

    // Delivers at once when nothing is pending, else holds the frame until release(). `room`: the
    // frame shows that room's state, so it is dropped if the room's records fail; a reply to a
    // request (`reply_to`) is then answered with INTERNAL instead, unless its request is an asker
    // of the outcome (the dispatcher answers those).
    void deliver(const std::shared_ptr<Peer>& peer, std::string_view bytes, const RoomId* room = nullptr,
                 std::uint64_t reply_to = 0);

    // Commits the pending records, then delivers the held frames to the peers still open; returns
    // the rooms refused and their askers.
    TurnJournal::Outcome release();

private:
    void post();

    Store& store_;
    std::function<void()> post_release_;
    TurnJournal journal_;
    bool release_posted_ = false;
    // Their bytes lie end to end in one buffer, and both buffers are swapped with spares kept for
    // the next turn: no allocation per frame.
    struct Held {
        std::shared_ptr<Peer> peer;
        std::size_t end;  // the frame's bytes end here in the buffer (and begin where the last ended)
        RoomId room;      // "" for frames of no room event
        std::uint64_t reply_to;  // the request a room frame answers, or 0
    };
    std::vector<Held> held_, releasing_;
    std::string held_bytes_, releasing_bytes_;
    static constexpr std::size_t kKeepHeldBytes = 1 << 20;
};

}  // namespace xq::server
