#include "server/dispatch/outbox.h"

#include <algorithm>

#include "proto/codec.h"
#include "server/dispatch/wire.h"

namespace xq::server {
namespace {

// The requests whose own journal records failed: the dispatcher answers them itself.
bool asked(const TurnJournal::Outcome& outcome, ParticipantId who, std::uint64_t request_id) {
    return std::ranges::any_of(outcome.askers, [&](const TurnJournal::Asker& a) {
        return a.who == who && a.request_id == request_id;
    });
}

}  // namespace

Outbox::Outbox(Store& store, std::function<void()> post_release)
    : store_(store), post_release_(std::move(post_release)) {}

void Outbox::note(const Room& room, const Events& events, const Lobby& lobby, ParticipantId asker,
                  std::uint64_t request_id) {
    if (journal_.note(room, events, lobby, asker, request_id)) post();
}

void Outbox::note_finished(ArchivedGame game) {
    journal_.note_finished(std::move(game));
    post();
}

void Outbox::deliver(const std::shared_ptr<Peer>& peer, std::string_view bytes, const RoomId* room,
                     std::uint64_t reply_to) {
    if (!journal_.pending() && held_.empty()) return peer->deliver(bytes);
    held_bytes_.append(bytes);
    held_.push_back({peer, held_bytes_.size(), room ? *room : RoomId(), room ? reply_to : 0});
}

// Posted, so it runs once the handlers of this readiness burst are done: one commit for them all.
void Outbox::post() {
    if (release_posted_) return;
    release_posted_ = true;
    post_release_();
}

TurnJournal::Outcome Outbox::release() {
    release_posted_ = false;
    TurnJournal::Outcome outcome;
    if (journal_.pending()) outcome = journal_.commit(store_);
    held_.swap(releasing_);
    held_bytes_.swap(releasing_bytes_);
    std::size_t begin = 0;
    for (const Held& h : releasing_) {
        if (!h.peer->open()) {
        } else if (!outcome.failed.contains(h.room)) {
            h.peer->deliver(std::string_view(releasing_bytes_).substr(begin, h.end - begin));
        } else if (h.reply_to != 0 && !asked(outcome, h.peer->id(), h.reply_to)) {
            // A reply that described the rolled-back state (a retried move's acknowledgement, a
            // snapshot): the request is answered, but with the failure.
            h.peer->deliver(proto::encode(wire::error(h.reply_to, proto::ErrorCode::Internal,
                                                      "the server could not store that game; try again",
                                                      wire::game_id(h.room))));
        }
        begin = h.end;
    }
    releasing_.clear();
    releasing_bytes_.clear();
    // A burst's worth is kept for the next turn, not a spike's.
    if (releasing_bytes_.capacity() > kKeepHeldBytes) std::string().swap(releasing_bytes_);
    if (outcome.records > 0) journal_.maintain(store_);
    return outcome;
}

}  // namespace xq::server
