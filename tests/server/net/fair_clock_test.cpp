// Fair clocks over a slow link (issue 19), over real sockets: one player behind a proxy that
// delays each direction by 100 ms (a 200 ms round trip; no netem here), and a client that fakes
// lag by answering the server's Pings a second late. The bounds come from the compensation rules
// (server/rooms/lag_tracker.h), not from timing luck: the proxy makes every round trip, move or
// Ping, at least 200 ms, so the measured lag and each move's time are both at least 200 ms, and
// the credit, min(lag, quota, move time), is at least 200 ms while the quota lasts.

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "common/game.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "support/delay_proxy.h"
#include "support/server_fixture.h"
#include "support/test_client.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::as;
using test::TestClient;

class FairClockTest : public test::ServerFixture {};

// A legal game of `plies` plies that does not end: moves drawn with a fixed seed, skipping any
// that would end the game or that the repetition rules ban.
std::vector<std::string> a_long_game(int plies) {
    Game game;
    std::mt19937 pick(19);
    std::vector<std::string> out;
    while (static_cast<int>(out.size()) < plies) {
        const auto moves = legal_moves(game.position());
        std::vector<Move> fine;
        for (Move m : moves) {
            if (game.ban_for(m)) continue;
            Game next = game;
            if (next.play(m) && !next.is_over()) fine.push_back(m);
        }
        if (fine.empty()) break;
        const Move m = fine[pick() % fine.size()];
        (void)game.play(m);
        out.push_back(to_iccs(m));
    }
    return out;
}

// Plays `moves` with instant replies, Red the first client. The mover's request is sent, the
// opponent sees it and answers at once, and only then is the mover's own acknowledgement read, so
// the fast side never waits on the slow side's link. `think` runs before each Red move after the
// first. Returns Red's acknowledgements.
std::vector<MoveMade> play(TestClient& red, TestClient& black, GameId id, const std::vector<std::string>& moves,
                           std::chrono::milliseconds think = 0ms) {
    std::vector<MoveMade> red_acks;
    std::uint64_t pending = 0;  // Red's move awaiting its acknowledgement
    for (std::size_t ply = 0; ply < moves.size(); ++ply) {
        const bool red_moves = ply % 2 == 0;
        TestClient& mover = red_moves ? red : black;
        if (red_moves) {
            if (ply > 0) {
                // Black's move reaches Red: its own acknowledgement came first.
                if (pending) red_acks.push_back(as<MoveMade>(red.reply(pending)));
                while (auto m = red.wait_for<MoveMade>())
                    if (m->ply == ply) break;
                if (think > 0ms) red.idle(think);
            }
            pending = red.send(MakeMove{id, moves[ply], ply + 1, static_cast<std::uint32_t>(ply)});
        } else {
            while (auto m = black.wait_for<MoveMade>())
                if (m->ply == ply) break;
            EXPECT_TRUE(std::holds_alternative<MoveMade>(
                mover.call(MakeMove{id, moves[ply], ply + 1, static_cast<std::uint32_t>(ply)}).body));
        }
    }
    if (pending) red_acks.push_back(as<MoveMade>(red.reply(pending)));
    return red_acks;
}

GameId pair(TestClient& red, TestClient& black, const TimeControl& control) {
    const auto created = as<Seated>(red.call(CreateGame{control, ColorChoice::Red, false}));
    as<Seated>(black.call(JoinGame{created.game_id, ""}));
    return created.game_id;
}

TEST_F(FairClockTest, A200msLinkDoesNotCostThePlayerTime) {
    test::DelayProxy proxy(server_->port(), 100ms);
    TestClient slow(proxy.port(), 10s);
    slow.hello("slow");
    auto fast = client("fast", 10s);
    const TimeControl three_two{3, 2, std::nullopt};
    const GameId id = pair(slow, *fast, three_two);
    const auto moves = a_long_game(24);
    ASSERT_EQ(moves.size(), 24u);
    const auto acks = play(slow, *fast, id, moves);
    ASSERT_EQ(acks.size(), 12u);

    // Red's clock runs from ply 2 on: its moves at plies 3, 5, ... are timed and compensated.
    // Each one took the link's 200 ms at least, and the median of Red's Pings through the same
    // link is at least 200 ms, while the quota (3 s, +1 s a move for a 3+2) never runs short of
    // it: so every credit is at least 200 ms, and what Red loses is only the time beyond the
    // link (the test's and the server's processing).
    Millis lost = 0;
    for (std::size_t k = 1; k < acks.size(); ++k) {
        EXPECT_GE(acks[k].lag_credit_ms, 200u) << "ply " << acks[k].ply;
        EXPECT_LE(acks[k].lag_credit_ms, 3000u) << "ply " << acks[k].ply;
        const Millis before = k == 1 ? 180000 : acks[k - 1].clock.red_ms;
        lost += before + 2000 - acks[k].clock.red_ms;
    }
    const auto timed = static_cast<Millis>(acks.size() - 1);
    // Without compensation Red would have lost at least 200 ms a move; allow 50 ms a move for
    // processing on a machine shared with parallel builds.
    EXPECT_LT(lost, timed * 50) << "Red lost " << lost << " ms over " << timed << " timed moves";

    // Both players' measured round trips are shown: the slow one's at least the link's 200 ms.
    auto watcher = client("watcher");
    const auto snap = as<Snapshot>(watcher->call(WatchGame{id, ""}));
    EXPECT_GE(snap.red.lag_ms, 200u);
    EXPECT_LT(snap.black.lag_ms, 200u);
}

TEST_F(FairClockTest, FakedLagGetsNoMoreThanTheQuota) {
    auto faker = client("faker", 10s);
    faker->set_pong_delay(1000ms);  // claims a 1 s round trip on a loopback link
    auto honest = client("honest", 10s);
    const TimeControl one_zero{1, 0, std::nullopt};
    const GameId id = pair(*faker, *honest, one_zero);
    const auto acks = play(*faker, *honest, id, a_long_game(10), 1200ms);
    ASSERT_EQ(acks.size(), 5u);

    // The quota for a 1+0 (estimated 60 s): a gain of min(1 s, 60 * 4 ms + 150 ms) = 390 ms a move,
    // starting at 3 gains (1,170 ms), at most 7 (2,730 ms). Each credit is at most what the quota
    // holds, which then pays it and gains 390 ms.
    Millis quota = 1170, credited = 0;
    for (std::size_t k = 1; k < acks.size(); ++k) {
        EXPECT_LE(static_cast<Millis>(acks[k].lag_credit_ms), quota) << "ply " << acks[k].ply;
        quota = std::min<Millis>(2730, quota - acks[k].lag_credit_ms + 390);
        credited += acks[k].lag_credit_ms;
    }
    // Four timed moves each claiming 1 s got at most 1,170 + 3 x 390 ms in all.
    EXPECT_LE(credited, 1170 + 3 * 390);
    EXPECT_GT(credited, 0);  // the lag was measured and did count
    auto watcher = client("watcher");
    EXPECT_GE(as<Snapshot>(watcher->call(WatchGame{id, ""})).red.lag_ms, 1000u);
}

}  // namespace
}  // namespace xq
