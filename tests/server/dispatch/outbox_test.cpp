// The outbox: while a turn's journal records are pending every frame is held, and release()
// commits them before any frame leaves, one release posted per turn. A room whose records the
// store refuses loses its frames (its replies answered with INTERNAL, its askers left to the
// dispatcher) while the other rooms' frames go out; closed peers get nothing. Fake peers, an
// in-memory store.

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "proto/codec.h"
#include "server/dispatch/outbox.h"
#include "server/store/sqlite/sqlite_store.h"
#include "server/rooms/room.h"

namespace xq::server {
namespace {

using namespace std::chrono_literals;

// A room id as the lobby makes them (twelve hex digits), so replies can name the game.
const RoomId kGood = "00000000000a";
const RoomId kRefused = "00000000000b";

// A peer that keeps what it is given; `on_deliver` sees the store as it is when a frame leaves.
class FakePeer : public Peer {
public:
    explicit FakePeer(std::uint64_t id) : id_(id) {}
    std::uint64_t id() const override { return id_; }
    void deliver(std::string_view payload) override {
        if (on_deliver) on_deliver();
        received.emplace_back(payload);
    }
    void close(CloseReason, bool) override { open_ = false; }
    bool open() const override { return open_; }
    const std::string& address_group() const override { return group_; }

    std::vector<std::string> received;
    std::function<void()> on_deliver;

private:
    std::uint64_t id_;
    bool open_ = true;
    std::string group_ = "192.0.2.1";
};

ArchivedGame finished(const RoomId& id) {
    ArchivedGame g;
    g.id = id;
    g.red_name = "ann";
    g.black_name = "bob";
    g.time_control = {300, 0, 0};
    g.start_fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    g.moves = "h2e2";
    g.result = Result::RedWins;
    g.reason = Reason::Resignation;
    g.started_at_ms = 1;
    g.ended_at_ms = 2;
    return g;
}

SqliteStore open_sqlite_store() {
    auto store = SqliteStore::open(":memory:");
    if (!store) throw std::runtime_error(store.error().message);
    return std::move(*store);
}

proto::Error error_in(const std::string& frame, std::uint64_t request_id) {
    auto message = proto::decode_server(frame);
    EXPECT_TRUE(message);
    if (!message) return {};
    EXPECT_EQ(message->request_id, request_id);
    const auto* error = std::get_if<proto::Error>(&message->body);
    EXPECT_NE(error, nullptr);
    return error ? *error : proto::Error{};
}

class OutboxTest : public ::testing::Test {
protected:
    // A game the archive already holds: finishing it again is refused.
    void refuse(const RoomId& id) { ASSERT_TRUE(store_.archive_game(finished(id))); }

    SqliteStore store_ = open_sqlite_store();
    int posted_ = 0;
    Outbox outbox_{store_, [this] { ++posted_; }};
    std::shared_ptr<FakePeer> ann_ = std::make_shared<FakePeer>(1);
    std::shared_ptr<FakePeer> bob_ = std::make_shared<FakePeer>(2);
};

TEST_F(OutboxTest, SendsAtOnceWhenNothingIsPending) {
    outbox_.deliver(ann_, "hello");
    outbox_.deliver(ann_, "again", &kGood, 3);
    EXPECT_EQ(ann_->received, (std::vector<std::string>{"hello", "again"}));
    EXPECT_EQ(posted_, 0);
    const auto outcome = outbox_.release();
    EXPECT_TRUE(outcome.failed.empty());
    EXPECT_EQ(outcome.records, 0u);
    EXPECT_EQ(ann_->received.size(), 2u);
}

TEST_F(OutboxTest, HoldsFramesUntilTheTurnIsCommitted) {
    outbox_.note_finished(finished(kGood));
    EXPECT_EQ(posted_, 1);
    ann_->on_deliver = [this] {
        EXPECT_TRUE(store_.fetch_archived(kGood)) << "a frame left before the commit";
    };
    outbox_.deliver(ann_, "over", &kGood);
    outbox_.deliver(ann_, "lobby");
    EXPECT_TRUE(ann_->received.empty());

    const auto outcome = outbox_.release();
    EXPECT_TRUE(outcome.failed.empty());
    EXPECT_EQ(outcome.records, 1u);
    EXPECT_EQ(ann_->received, (std::vector<std::string>{"over", "lobby"}));
    // The turn is over: the next frame goes at once.
    outbox_.deliver(ann_, "next");
    EXPECT_EQ(ann_->received.back(), "next");
}

TEST_F(OutboxTest, PostsOneReleaseATurn) {
    outbox_.note_finished(finished(kGood));
    outbox_.note_finished(finished("00000000000c"));
    EXPECT_EQ(posted_, 1);
    EXPECT_EQ(outbox_.release().records, 2u);
    outbox_.note_finished(finished("00000000000d"));
    EXPECT_EQ(posted_, 2);
}

TEST_F(OutboxTest, DeliversInOrderPerPeer) {
    outbox_.note_finished(finished(kGood));
    for (int i = 0; i < 5; ++i) {
        outbox_.deliver(ann_, "ann" + std::to_string(i), i % 2 ? &kGood : nullptr);
        outbox_.deliver(bob_, "bob" + std::to_string(i), i % 2 ? nullptr : &kGood);
    }
    (void)outbox_.release();
    EXPECT_EQ(ann_->received, (std::vector<std::string>{"ann0", "ann1", "ann2", "ann3", "ann4"}));
    EXPECT_EQ(bob_->received, (std::vector<std::string>{"bob0", "bob1", "bob2", "bob3", "bob4"}));
}

TEST_F(OutboxTest, DropsAFailedRoomsFramesAndSendsTheOthers) {
    refuse(kRefused);
    outbox_.note_finished(finished(kGood));
    outbox_.note_finished(finished(kRefused));
    outbox_.deliver(ann_, "good", &kGood);
    outbox_.deliver(ann_, "refused", &kRefused);
    outbox_.deliver(bob_, "refused", &kRefused);
    outbox_.deliver(ann_, "no room");

    const auto outcome = outbox_.release();
    EXPECT_EQ(outcome.failed, (std::set<RoomId>{kRefused}));
    EXPECT_TRUE(outcome.askers.empty());
    EXPECT_EQ(ann_->received, (std::vector<std::string>{"good", "no room"}));
    EXPECT_TRUE(bob_->received.empty());
    EXPECT_TRUE(store_.fetch_archived(kGood));
}

TEST_F(OutboxTest, RepliesOfAFailedRoomAreAnsweredWithInternalButNotTheAskersOwn) {
    // Bob's join starts a game whose start the store refuses (its id is taken).
    refuse(kRefused);
    const auto random = [] { return std::uint64_t{4}; };
    Lobby lobby(random, [] { return WallTime{}; }, [](const FinishedGame&) { return RatingShifts{}; });
    Room room(kRefused, TimeControl{5min, 0s, {}}, random);
    ASSERT_TRUE(room.join(Color::Red, "ann", ann_->id(), TimePoint{}));
    const auto joined = room.join(Color::Black, "bob", bob_->id(), TimePoint{});
    ASSERT_TRUE(joined);
    outbox_.note(room, joined->events, lobby, bob_->id(), 9);
    EXPECT_EQ(posted_, 1);
    outbox_.deliver(bob_, "seated", &kRefused, 9);     // the asker's own reply: the dispatcher answers it
    outbox_.deliver(bob_, "snapshot", &kRefused, 10);  // another request of the asker, in the same turn
    outbox_.deliver(ann_, "started", &kRefused);       // an event: dropped
    outbox_.deliver(ann_, "ack", &kRefused, 4);        // a reply describing the refused state
    outbox_.deliver(ann_, "pong", nullptr, 5);         // no room: goes out

    const auto outcome = outbox_.release();
    EXPECT_EQ(outcome.failed, (std::set<RoomId>{kRefused}));
    ASSERT_EQ(outcome.askers.size(), 1u);
    EXPECT_EQ(outcome.askers[0].room, kRefused);
    EXPECT_EQ(outcome.askers[0].who, bob_->id());
    EXPECT_EQ(outcome.askers[0].request_id, 9u);

    ASSERT_EQ(bob_->received.size(), 1u);
    const proto::Error to_bob = error_in(bob_->received[0], 10);
    EXPECT_EQ(to_bob.code, proto::ErrorCode::Internal);
    EXPECT_EQ(to_bob.game_id, 0xbu);
    ASSERT_EQ(ann_->received.size(), 2u);
    EXPECT_EQ(error_in(ann_->received[0], 4).code, proto::ErrorCode::Internal);
    EXPECT_EQ(ann_->received[1], "pong");
}

TEST_F(OutboxTest, SkipsClosedPeers) {
    refuse(kRefused);
    outbox_.note_finished(finished(kGood));
    outbox_.note_finished(finished(kRefused));
    outbox_.deliver(ann_, "good", &kGood);
    outbox_.deliver(ann_, "ack", &kRefused, 4);
    outbox_.deliver(bob_, "good", &kGood);
    ann_->close(CloseReason::PeerClosed, false);

    (void)outbox_.release();
    EXPECT_TRUE(ann_->received.empty());  // not even the INTERNAL answer
    EXPECT_EQ(bob_->received, (std::vector<std::string>{"good"}));
}

}  // namespace
}  // namespace xq::server
