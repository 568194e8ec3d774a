// The server against proto/README.md over real sockets: the order of move refusals, contiguous
// event versions, accepted offers, per-move cap and grace times in the messages, spectator chat
// names, reconnection with a grace period and claims, and exactly-once moves across a reconnect.

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "proto/codec.h"
#include "support/server_fixture.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::TestClient;
using test::as;
using test::error_of;

// The version of a versioned room event (0 for notices and spectators' chat).
Version version_of(const ServerBody& body) {
    return std::visit(
        [](const auto& b) -> Version {
            if constexpr (requires { b.version; }) return b.version;
            return 0;
        },
        body);
}

const TimeControl kBlitz{5, 3, std::nullopt};

struct Pairing {
    GameId id;
    std::string red_token, black_token;
};
Pairing pair_up(TestClient& red, TestClient& black, TimeControl tc = kBlitz) {
    const auto created = as<Seated>(red.call(CreateGame{tc, ColorChoice::Red, false}));
    const auto joined = as<Seated>(black.call(JoinGame{created.game_id, ""}));
    EXPECT_TRUE(red.wait_for<proto::GameStarted>());
    EXPECT_TRUE(black.wait_for<proto::GameStarted>());
    return {created.game_id, created.resume_token, joined.resume_token};
}

class ServerProtocolTest : public test::ServerFixture {
protected:
    void configure(server::ServerConfig& config) override { config.grace = 400ms; }
};

TEST_F(ServerProtocolTest, MoveRefusalsInTheDocumentedOrder) {
    auto red = client("R");
    auto black = client("B");
    auto watcher = client("W");
    const auto game = pair_up(*red, *black);
    as<Snapshot>(watcher->call(WatchGame{game.id, ""}));
    // Not seated: NOT_A_PLAYER whatever else is wrong (a spectator moving, too).
    EXPECT_EQ(error_of(watcher->call(MakeMove{game.id, "zz", 1, 9})), proto::ErrorCode::NotAPlayer);
    // Out of turn and stale at once: STALE_POSITION comes first.
    EXPECT_EQ(error_of(black->call(MakeMove{game.id, "h9g7", 1, 3})), proto::ErrorCode::StalePosition);
    // Moving for the other seat at the right ply: NOT_YOUR_TURN, before the syntax.
    EXPECT_EQ(error_of(black->call(MakeMove{game.id, "zz", 2, 0})), proto::ErrorCode::NotYourTurn);
    EXPECT_EQ(error_of(red->call(MakeMove{game.id, "zz", 3, 0})), proto::ErrorCode::InvalidMoveSyntax);
    EXPECT_EQ(error_of(red->call(MakeMove{game.id, "a0a5", 4, 0})), proto::ErrorCode::IllegalMove);
    as<GameEnded>(red->call(Resign{game.id}));
    EXPECT_EQ(error_of(red->call(MakeMove{game.id, "zz", 5, 7})), proto::ErrorCode::GameOver);
}


// Every versioned event a player sees is one more than the last, whatever notices (spectators
// arriving and chatting, the opponent dropping and coming back) came between; an accepted
// takeback is OfferAnswered then TakebackApplied.
TEST_F(ServerProtocolTest, VersionsGoUpByExactlyOneAndAcceptedOffersAreAnswered) {
    auto red = client("R");
    auto black = client("B");
    const auto game = pair_up(*red, *black);  // GameStarted is version 1
    auto watcher = client("carol");
    EXPECT_EQ(as<Snapshot>(watcher->call(WatchGame{game.id, ""})).version, 1u);
    const auto line = as<ChatLine>(watcher->call(SendChat{game.id, ChatChannel::Spectators, "central cannon!"}));
    EXPECT_EQ(line.version, 0u);
    EXPECT_EQ(line.from, "carol");  // signed with the Hello name
    // Black's versions, from its replies and from what was pushed to it.
    std::vector<Version> versions;
    const auto black_call = [&](ClientBody body) {
        auto m = black->call(std::move(body));
        if (const Version v = version_of(m.body)) versions.push_back(v);
        return m;
    };
    as<proto::MoveMade>(red->call(MakeMove{game.id, "h2e2", 1, 0}));
    as<proto::MoveMade>(black_call(MakeMove{game.id, "h9g7", 1, 1}));
    as<ChatLine>(black_call(SendChat{game.id, ChatChannel::Players, "hi"}));
    as<OfferMade>(black_call(MakeOffer{game.id, OfferKind::Takeback}));
    const auto accept = red->send(AnswerOffer{game.id, OfferKind::Takeback, true});
    const auto answered = as<OfferAnswered>(red->reply(accept));
    EXPECT_TRUE(answered.accepted);
    EXPECT_EQ(answered.kind, OfferKind::Takeback);
    EXPECT_EQ(answered.side, Side::Red);
    const auto applied = red->wait_for<proto::TakebackApplied>();  // right after the answer
    ASSERT_TRUE(applied);
    EXPECT_EQ(applied->version, answered.version + 1);
    as<OfferMade>(red->call(MakeOffer{game.id, OfferKind::Draw}));
    as<OfferAnswered>(black_call(AnswerOffer{game.id, OfferKind::Draw, true}));
    bool ended = false;
    while (!ended) {
        const auto m = black->next();
        ASSERT_TRUE(m) << "no GameEnded";
        if (const Version v = version_of(m->body)) versions.push_back(v);
        ended = std::holds_alternative<GameEnded>(m->body);
    }
    // 2 (h2e2) to 10 (GameEnded), each once.
    std::sort(versions.begin(), versions.end());
    ASSERT_EQ(versions.size(), 9u);
    for (std::size_t i = 0; i < versions.size(); ++i) EXPECT_EQ(versions[i], i + 2) << "event " << i;
    // The spectator's view of the same game: a Snapshot at 1, then the same contiguous run.
    Version last = 1;
    while (auto m = watcher->next()) {
        if (const Version v = version_of(m->body)) {
            EXPECT_EQ(v, last + 1);
            last = v;
        }
        if (std::holds_alternative<GameEnded>(m->body)) break;
    }
    EXPECT_EQ(last, 10u);
}

// Under a per-move cap every Clock says how long the running side has left for this move.
TEST_F(ServerProtocolTest, MoveCapTimeLeftIsInEveryRunningClock) {
    auto red = client("R");
    auto black = client("B");
    const auto created = as<Seated>(red->call(CreateGame{TimeControl{5, 0, 20}, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    const auto started = red->wait_for<proto::GameStarted>();
    ASSERT_TRUE(started);
    EXPECT_FALSE(started->clock.move_cap_ms);  // no clock runs before both first moves
    ASSERT_TRUE(started->clock.first_move_ms);
    as<proto::MoveMade>(red->call(MakeMove{created.game_id, "h2e2", 1, 0}));
    const auto made = as<proto::MoveMade>(black->call(MakeMove{created.game_id, "h9g7", 1, 1}));
    ASSERT_TRUE(made.clock.move_cap_ms);
    EXPECT_GT(*made.clock.move_cap_ms, 19'000);
    EXPECT_LE(*made.clock.move_cap_ms, 20'000);
    const auto ended = as<GameEnded>(red->call(Resign{created.game_id}));
    EXPECT_FALSE(ended.clock.move_cap_ms);  // no clock runs
    // Without a cap there is no figure.
    auto c = client("C");
    auto d = client("D");
    const auto plain = pair_up(*c, *d);
    EXPECT_FALSE(as<Snapshot>(c->call(WatchGame{plain.id, ""})).clock.move_cap_ms);
}

// The opponent sees the drop with the grace time left; claims are refused until it has run out,
// then Claim{WIN} ends the game by abandonment. The clock ran all the while.
TEST_F(ServerProtocolTest, GracePeriodThenClaimByTheOpponent) {
    auto red = client("R");
    auto black = std::make_unique<TestClient>(server_->port());
    black->hello("B");
    auto watcher = client("W");
    const auto game = pair_up(*red, *black);
    as<Snapshot>(watcher->call(WatchGame{game.id, ""}));
    as<proto::MoveMade>(red->call(MakeMove{game.id, "h2e2", 1, 0}));
    as<proto::MoveMade>(black->call(MakeMove{game.id, "h9g7", 1, 1}));
    ASSERT_TRUE(red->wait_for<proto::MoveMade>());
    as<proto::MoveMade>(red->call(MakeMove{game.id, "h0g2", 2, 2}));  // Black's clock runs
    EXPECT_EQ(error_of(red->call(Claim{game.id, ClaimKind::Win})), proto::ErrorCode::ClaimNotAllowed);
    black.reset();  // the connection drops on Black's move
    const auto gone = red->wait_for<PlayerConnection>(test::seat_connected(Side::Black, false));
    ASSERT_TRUE(gone);
    ASSERT_TRUE(gone->player.grace_ms);
    EXPECT_GT(*gone->player.grace_ms, 0);
    EXPECT_LE(*gone->player.grace_ms, 400);
    const auto snap = as<Snapshot>(watcher->call(WatchGame{game.id, ""}));
    EXPECT_FALSE(snap.black.connected);
    ASSERT_TRUE(snap.black.grace_ms);
    EXPECT_LE(*snap.black.grace_ms, 400);
    EXPECT_FALSE(snap.red.grace_ms);
    EXPECT_EQ(error_of(red->call(Claim{game.id, ClaimKind::Win})), proto::ErrorCode::ClaimNotAllowed);
    EXPECT_EQ(error_of(watcher->call(Claim{game.id, ClaimKind::Win})), proto::ErrorCode::NotAPlayer);
    std::this_thread::sleep_for(500ms);
    const auto ended = as<GameEnded>(red->call(Claim{game.id, ClaimKind::Win}));
    EXPECT_EQ(ended.outcome.result, GameResult::RedWins);
    EXPECT_EQ(ended.outcome.reason, "abandonment");
    EXPECT_LT(ended.clock.black_ms, 5 * 60'000 - 400);  // Black's clock kept running while away
    const auto seen = watcher->wait_for<GameEnded>();
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->outcome.reason, "abandonment");
}

// Coming back within the grace period: no claim; Resume gets exactly the missed events.
TEST_F(ServerProtocolTest, ResumeInTimeGetsTheMissedEventsAndBlocksClaims) {
    auto red = client("R");
    auto black = std::make_unique<TestClient>(server_->port());
    black->hello("B");
    const auto game = pair_up(*red, *black);
    black.reset();
    ASSERT_TRUE(red->wait_for<PlayerConnection>(test::seat_connected(Side::Black, false)));
    as<proto::MoveMade>(red->call(MakeMove{game.id, "h2e2", 1, 0}));   // version 2
    as<ChatLine>(red->call(SendChat{game.id, ChatChannel::Players, "where are you?"}));  // 3
    auto back = client("B");
    const auto resumed = as<Resumed>(back->call(Resume{game.id, game.black_token, 1}));
    ASSERT_EQ(resumed.events.size(), 2u);
    EXPECT_EQ(std::get<proto::MoveMade>(resumed.events[0]).version, 2u);
    EXPECT_EQ(std::get<proto::ChatLine>(resumed.events[1]).version, 3u);
    EXPECT_TRUE(resumed.black.connected);
    EXPECT_FALSE(resumed.black.grace_ms);
    ASSERT_TRUE(red->wait_for<PlayerConnection>(test::seat_connected(Side::Black, true)));
    std::this_thread::sleep_for(500ms);
    EXPECT_EQ(error_of(red->call(Claim{game.id, ClaimKind::Draw})), proto::ErrorCode::ClaimNotAllowed);
    EXPECT_EQ(as<proto::MoveMade>(back->call(MakeMove{game.id, "h9g7", 1, 1})).version, 4u);
}

// ChatLine.side is the speaker's seat, not the first seat that shares its name: a Black player
// who took Red's name is still shown as Black.
TEST_F(ServerProtocolTest, ChatSideIsTheSpeakersSeatWhenNamesMatch) {
    auto red = client("alice");
    auto black = client("alice");
    const auto game = pair_up(*red, *black);
    EXPECT_EQ(as<ChatLine>(black->call(SendChat{game.id, ChatChannel::Players, "I am Red"})).side, Side::Black);
    const auto seen = red->wait_for<ChatLine>();
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->from, "alice");
    EXPECT_EQ(seen->side, Side::Black);
    EXPECT_EQ(as<ChatLine>(red->call(SendChat{game.id, ChatChannel::Players, "no"})).side, Side::Red);
}

// Each role has its own channel (proto/README.md, Chat): a spectator on PLAYERS gets
// NOT_A_PLAYER, a player on SPECTATORS gets BAD_REQUEST, and neither line reaches anyone.
TEST_F(ServerProtocolTest, ChatOnTheOtherRolesChannelIsRefused) {
    auto red = client("R");
    auto black = client("B");
    auto watcher = client("W");
    auto fan = client("F");
    const auto game = pair_up(*red, *black);  // GameStarted is version 1
    as<Snapshot>(watcher->call(WatchGame{game.id, ""}));
    as<Snapshot>(fan->call(WatchGame{game.id, ""}));
    EXPECT_EQ(error_of(watcher->call(SendChat{game.id, ChatChannel::Players, "resign now!"})),
              proto::ErrorCode::NotAPlayer);
    EXPECT_EQ(error_of(red->call(SendChat{game.id, ChatChannel::Spectators, "tell me his plan"})),
              proto::ErrorCode::BadRequest);
    // Nothing was broadcast and no version was spent: the next line is version 2 for everyone.
    EXPECT_EQ(as<ChatLine>(black->call(SendChat{game.id, ChatChannel::Players, "gl"})).version, 2u);
    for (TestClient* c : {red.get(), watcher.get(), fan.get()}) {
        const auto line = c->wait_for<ChatLine>();
        ASSERT_TRUE(line);
        EXPECT_EQ(line->text, "gl");
        EXPECT_EQ(line->version, 2u);
    }
}

// Snapshot.chat holds the recent lines its receiver may see, oldest first: a late spectator
// gets both channels, a player (here WatchGame on its own game) only the players' channel.
TEST_F(ServerProtocolTest, SnapshotCarriesTheRecentChatTheReceiverMaySee) {
    auto red = client("R");
    auto black = client("B");
    auto watcher = client("W");
    const auto game = pair_up(*red, *black);
    as<Snapshot>(watcher->call(WatchGame{game.id, ""}));
    as<ChatLine>(red->call(SendChat{game.id, ChatChannel::Players, "good luck"}));
    as<ChatLine>(watcher->call(SendChat{game.id, ChatChannel::Spectators, "red will win"}));
    as<ChatLine>(black->call(SendChat{game.id, ChatChannel::Players, "thanks"}));

    auto late = client("L");
    const auto seen = as<Snapshot>(late->call(WatchGame{game.id, ""}));
    ASSERT_EQ(seen.chat.size(), 3u);
    EXPECT_EQ(seen.chat[0].text, "good luck");
    EXPECT_EQ(seen.chat[0].side, Side::Red);
    EXPECT_EQ(seen.chat[0].version, 2u);
    EXPECT_EQ(seen.chat[1].text, "red will win");
    EXPECT_EQ(seen.chat[1].channel, ChatChannel::Spectators);
    EXPECT_EQ(seen.chat[1].from, "W");
    EXPECT_FALSE(seen.chat[1].side);
    EXPECT_EQ(seen.chat[2].text, "thanks");
    EXPECT_EQ(seen.chat[2].side, Side::Black);

    const auto own = as<Snapshot>(black->call(WatchGame{game.id, ""}));
    EXPECT_EQ(own.your_side, Side::Black);
    ASSERT_EQ(own.chat.size(), 2u);
    EXPECT_EQ(own.chat[0].text, "good luck");
    EXPECT_EQ(own.chat[1].text, "thanks");
}

// A move whose reply was lost with the connection: retried after Resume with the same move id,
// it gets the original acknowledgement and is played once. A move for an outdated position is
// refused.
TEST_F(ServerProtocolTest, RetriedMoveIdAfterReconnectPlaysOnce) {
    auto red = std::make_unique<TestClient>(server_->port());
    red->hello("R");
    auto black = client("B", 1s);
    const auto game = pair_up(*red, *black);
    red->send(MakeMove{game.id, "h2e2", 77, 0});
    const auto first = black->wait_for<proto::MoveMade>();  // it was played
    ASSERT_TRUE(first);
    red.reset();  // before Red read its acknowledgement
    auto back = client("R");
    as<Resumed>(back->call(Resume{game.id, game.red_token, 1}));
    const auto ack = as<proto::MoveMade>(back->call(MakeMove{game.id, "h2e2", 77, 0}));
    EXPECT_EQ(ack.move_id, 77u);
    EXPECT_EQ(ack.ply, 1u);
    EXPECT_EQ(ack.version, first->version);
    const auto reply = as<proto::MoveMade>(black->call(MakeMove{game.id, "h9g7", 5, 1}));
    EXPECT_EQ(reply.ply, 2u);
    // Red moving from the position before Black's reply: stale, never applied to the new one.
    const auto stale = back->call(MakeMove{game.id, "h0g2", 78, 1});
    EXPECT_EQ(error_of(stale), proto::ErrorCode::StalePosition);
    const auto snap = as<Snapshot>(black->call(WatchGame{game.id, ""}));
    EXPECT_EQ(snap.moves, (std::vector<std::string>{"h2e2", "h9g7"}));
    // Black saw one MoveMade for h2e2 (its own join-time events aside), not two.
    int copies = 0;
    while (auto m = black->next())
        if (const auto* made = std::get_if<proto::MoveMade>(&m->body)) copies += made->move == "h2e2";
    EXPECT_EQ(copies, 0) << "the retry was broadcast again";
}

}  // namespace
}  // namespace xq
