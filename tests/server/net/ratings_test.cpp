// Rated play over real sockets (issue 19): rated games between accounts change both ratings as
// the Glicko-2 tables say (tests/server/ratings: two new players, 1500/350/0.06 each; the winner
// goes to 1662.3 and the loser to 1337.7, deviation 290.3; a draw between those two then gives
// 1576.7 and 1423.3, deviation 260.5), shown to both players in GameEnded; casual, aborted and
// short games change nothing; guests cannot ask for rated games; the computer opponents play
// under accounts; profiles, the leaderboard, the archive by account, quick match by rating.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "server/store/sqlite/sqlite_store.h"
#include "support/server_fixture.h"

namespace xq {
namespace {

using namespace proto;
using test::TestClient;
using test::as;
using test::error_of;

const TimeControl kBlitz{5, 3, std::nullopt};  // 300 + 40 x 3 = 420 s: blitz
constexpr const char* kPassword = "correct horse";
constexpr const char* kComputerKey = "ratings-test-key";
// Two moves each: the fewest that rate a game.
constexpr std::array<const char*, 4> kFourPlies = {"h2e2", "h9g7", "h0g2", "i9h9"};

class RatingsTest : public test::ServerFixture {
protected:
    void configure(server::ServerConfig& config) override {
        config.accounts = AccountsMode::Optional;
        config.rate = {0, 40, 60};
        config.registrations_per_hour = 50;
        config.password_cost = server::minimal_cost();  // behaviour, not cost (server.h)
        config.computer_key = kComputerKey;
        config.leaderboard_min_games = 1;
    }
    std::unique_ptr<TestClient> registered(const std::string& name,
                                           std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
        auto c = client(name, timeout);
        EXPECT_EQ(as<LoggedIn>(c->call(Register{name, kPassword})).name, name);
        return c;
    }
    // `host` creates a game (red), `guest` joins; returns its id once both heard it start.
    GameId start(TestClient& host, TestClient& guest, bool rated) {
        const GameId game = as<Seated>(host.call(CreateGame{kBlitz, ColorChoice::Red, false, 0, rated})).game_id;
        as<Seated>(guest.call(JoinGame{game, ""}));
        EXPECT_TRUE(host.wait_for<GameStarted>());
        EXPECT_TRUE(guest.wait_for<GameStarted>());
        return game;
    }
    // The first `plies` of kFourPlies, red and black in turn.
    void play(TestClient& red, TestClient& black, GameId game, std::size_t plies) {
        for (std::size_t i = 0; i < plies; ++i)
            as<MoveMade>((i % 2 == 0 ? red : black).call(MakeMove{game, kFourPlies[i], i + 1, static_cast<std::uint32_t>(i)}));
    }
    SpeedRecord blitz_of(TestClient& c, const std::string& name) {
        const auto profile = as<Profile>(c.call(GetProfile{name}));
        EXPECT_EQ(profile.speeds.size(), 4u);
        return profile.speeds.at(static_cast<std::size_t>(Speed::Blitz));
    }
};

const PlayerRating kNewcomer{1500, 350, true};

// An account's blitz rating as the archive would have left it after a rated game: written
// straight to the server's store (the server reads ratings it has not cached from there).
void seed_rating(const std::filesystem::path& db, const char* key, const char* name, std::string game_id,
                 double rating, double deviation) {
    auto store = server::SqliteStore::open(db);
    ASSERT_TRUE(store) << store.error().message;
    if (auto found = store->find_account(key); found && !*found) {
        ASSERT_TRUE(store->create_account({key, name, "h", 1}));
    }
    server::ArchivedGame g;
    g.id = std::move(game_id);
    g.red_name = name;
    g.black_name = "x";
    g.red_account = key;
    g.time_control = {300, 3, 0};
    g.start_fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    g.moves = "h2e2 h9g7 h0g2 i9h9";
    g.result = Result::RedWins;
    g.reason = Reason::Resignation;
    g.explanation = "Black resigned.";
    g.pgn = "[Game \"Chinese Chess\"]\n";
    g.started_at_ms = 1;
    g.ended_at_ms = 2;
    g.rated = true;
    g.red_rating = server::RatingUpdate{"blitz", {}, {rating, deviation, 0.06}};
    ASSERT_TRUE(store->archive_game(g));
}

TEST_F(RatingsTest, RatedGamesChangeBothRatingsAsTheTablesSay) {
    auto ann = registered("ann");
    auto bob = registered("bob");
    const GameId first = as<Seated>(ann->call(CreateGame{kBlitz, ColorChoice::Red, false, 0, true})).game_id;
    as<Seated>(bob->call(JoinGame{first, ""}));
    const auto started = ann->wait_for<GameStarted>();
    ASSERT_TRUE(started);
    EXPECT_TRUE(started->rated);
    EXPECT_EQ(started->red_rating, kNewcomer);
    EXPECT_EQ(started->black_rating, kNewcomer);
    ASSERT_TRUE(bob->wait_for<GameStarted>());
    play(*ann, *bob, first, 4);
    const auto ended = as<GameEnded>(bob->call(Resign{first}));
    EXPECT_EQ(ended.red_change, (RatingChange{1500, 1662, true}));
    EXPECT_EQ(ended.black_change, (RatingChange{1500, 1338, true}));
    const auto seen = ann->wait_for<GameEnded>();  // both players see the change
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->red_change, ended.red_change);
    EXPECT_EQ(seen->black_change, ended.black_change);

    // The second game, a draw between the two new ratings; bob is red this time.
    const GameId second = start(*bob, *ann, true);
    play(*bob, *ann, second, 4);
    as<OfferMade>(ann->call(MakeOffer{second, OfferKind::Draw}));
    as<OfferAnswered>(bob->call(AnswerOffer{second, OfferKind::Draw, true}));
    const auto drawn = *bob->wait_for<GameEnded>();
    EXPECT_EQ(drawn.red_change, (RatingChange{1338, 1423, true}));
    EXPECT_EQ(drawn.black_change, (RatingChange{1662, 1577, true}));

    const auto profile = as<Profile>(ann->call(GetProfile{"ANN"}));  // any case
    EXPECT_EQ(profile.name, "ann");
    EXPECT_FALSE(profile.computer);
    EXPECT_GT(profile.created_at_ms, 0);
    EXPECT_EQ(profile.wins, 1u);
    EXPECT_EQ(profile.draws, 1u);
    EXPECT_EQ(profile.losses, 0u);
    const SpeedRecord& blitz = profile.speeds.at(static_cast<std::size_t>(Speed::Blitz));
    EXPECT_EQ(blitz.speed, Speed::Blitz);
    EXPECT_EQ(blitz.rating, (PlayerRating{1577, 260, true}));
    EXPECT_EQ(blitz.games, 2u);
    ASSERT_EQ(blitz.history.size(), 2u);
    EXPECT_EQ(blitz.history[0].rating, 1662);
    EXPECT_EQ(blitz.history[0].game_id, first);
    EXPECT_EQ(blitz.history[1].rating, 1577);
    EXPECT_EQ(blitz.history[1].deviation, 260);
    EXPECT_EQ(profile.speeds.at(static_cast<std::size_t>(Speed::Rapid)).rating, kNewcomer);  // never played
    EXPECT_EQ(profile.speeds.at(static_cast<std::size_t>(Speed::Rapid)).games, 0u);

    // The archive by account: both games, newest first, with their changes.
    const auto list = as<ArchiveList>(bob->call(ListArchive{0, 0, "Ann"}));
    ASSERT_EQ(list.games.size(), 2u);
    EXPECT_EQ(list.games[0].game_id, second);
    EXPECT_TRUE(list.games[0].rated);
    EXPECT_EQ(list.games[0].red_account, "bob");
    EXPECT_EQ(list.games[0].black_account, "ann");
    EXPECT_EQ(list.games[0].black_change, (RatingChange{1662, 1577, true}));
    EXPECT_EQ(list.games[1].red_change, (RatingChange{1500, 1662, true}));

    // A new game shows the players' ratings at its speed, in the lobby and in the room.
    const GameId third = as<Seated>(ann->call(CreateGame{kBlitz, ColorChoice::Red, false, 0, true})).game_id;
    const auto lobby = as<GameList>(bob->call(ListGames{}));
    ASSERT_EQ(lobby.open.size(), 1u);
    EXPECT_TRUE(lobby.open[0].rated);
    EXPECT_EQ(lobby.open[0].host_rating, (PlayerRating{1577, 260, true}));
    as<Seated>(bob->call(JoinGame{third, ""}));
    const auto snapshot = as<Snapshot>(bob->call(WatchGame{third, ""}));
    EXPECT_TRUE(snapshot.rated);
    EXPECT_EQ(snapshot.red.rating, (PlayerRating{1577, 260, true}));
    EXPECT_EQ(snapshot.black.rating, (PlayerRating{1423, 260, true}));
}

TEST_F(RatingsTest, CasualAbortedAndShortGamesChangeNothing) {
    auto ann = registered("ann");
    auto bob = registered("bob");
    const GameId casual = start(*ann, *bob, false);
    play(*ann, *bob, casual, 4);
    const auto casual_end = as<GameEnded>(bob->call(Resign{casual}));
    EXPECT_FALSE(casual_end.red_change);
    EXPECT_FALSE(casual_end.black_change);

    const GameId aborted = start(*ann, *bob, true);
    play(*ann, *bob, aborted, 1);
    as<GameAborted>(bob->call(Abort{aborted}));

    const GameId short_game = start(*ann, *bob, true);  // one move each: too short to rate
    play(*ann, *bob, short_game, 3);
    const auto short_end = as<GameEnded>(bob->call(Resign{short_game}));
    EXPECT_FALSE(short_end.red_change);
    EXPECT_FALSE(short_end.black_change);

    const SpeedRecord blitz = blitz_of(*ann, "ann");
    EXPECT_EQ(blitz.rating, kNewcomer);
    EXPECT_EQ(blitz.games, 0u);
    EXPECT_TRUE(blitz.history.empty());
    const auto list = as<ArchiveList>(ann->call(ListArchive{0, 0, "bob"}));
    ASSERT_EQ(list.games.size(), 2u);  // the casual and the short one; the aborted one is not archived
    EXPECT_TRUE(list.games[0].rated);
    EXPECT_FALSE(list.games[0].red_change);
    EXPECT_FALSE(list.games[1].rated);
}

TEST_F(RatingsTest, GuestsCannotAskForRatedGames) {
    auto guest = client("gus");
    EXPECT_EQ(error_of(guest->call(CreateGame{kBlitz, ColorChoice::Red, false, 0, true})), ErrorCode::AccountRequired);
    EXPECT_EQ(error_of(guest->call(QuickMatch{kBlitz, true})), ErrorCode::AccountRequired);
    as<Seated>(guest->call(CreateGame{kBlitz, ColorChoice::Red, false, 0, false}));  // casual is fine
    EXPECT_EQ(error_of(guest->call(GetProfile{"gus"})), ErrorCode::NoSuchAccount);
    EXPECT_EQ(error_of(guest->call(GetProfile{"nobody at all"})), ErrorCode::NoSuchAccount);
}

TEST_F(RatingsTest, QuickMatchPairsRatedSeeksOnlyWithRatedSeeks) {
    auto ann = registered("ann");
    auto bob = registered("bob");
    auto cat = registered("cat");
    EXPECT_EQ(as<Seeking>(ann->call(QuickMatch{kBlitz, true})), (Seeking{kBlitz, true}));
    EXPECT_EQ(as<Seeking>(cat->call(QuickMatch{kBlitz, false})), (Seeking{kBlitz, false}));  // casual: waits
    const auto seated = as<Seated>(bob->call(QuickMatch{kBlitz, true}));  // 1500 and 1500: in range
    const auto started = bob->wait_for<GameStarted>();
    ASSERT_TRUE(started);
    EXPECT_TRUE(started->rated);
    EXPECT_EQ(started->red_rating, kNewcomer);
    const auto ann_seat = ann->wait_for<Seated>();
    ASSERT_TRUE(ann_seat);
    EXPECT_EQ(ann_seat->game_id, seated.game_id);
    auto dan = registered("dan");
    const auto casual = as<Seated>(dan->call(QuickMatch{kBlitz, false}));  // cat's partner
    const auto casual_start = dan->wait_for<GameStarted>();
    ASSERT_TRUE(casual_start);
    EXPECT_FALSE(casual_start->rated);
    EXPECT_NE(casual.game_id, seated.game_id);
}

// Two rated seekers 200 points apart: out of range (150) at first, paired by the server's timer
// once the waiter's range has widened to 200 (after 5 s), without a third seek arriving.
TEST_F(RatingsTest, RatedSeeksOutOfRangeArePairedWhenTheRangeWidens) {
    auto ann = registered("ann", std::chrono::seconds(15));
    auto far = registered("far", std::chrono::seconds(15));
    seed_rating(dir_ / "test.db", "far", "far", "0000000000f1", 1700, 80);  // before the server reads it
    EXPECT_EQ(as<Seeking>(ann->call(QuickMatch{kBlitz, true})), (Seeking{kBlitz, true}));
    EXPECT_EQ(as<Seeking>(far->call(QuickMatch{kBlitz, true})), (Seeking{kBlitz, true}));  // 200 apart
    const auto ann_seat = ann->wait_for<Seated>();  // pushed once ann's range reaches 200
    const auto far_seat = far->wait_for<Seated>();
    ASSERT_TRUE(ann_seat && far_seat);
    EXPECT_EQ(ann_seat->game_id, far_seat->game_id);
    const auto started = far->wait_for<GameStarted>();
    ASSERT_TRUE(started);
    EXPECT_TRUE(started->rated);
    const PlayerRating far_rating{1700, 80, false};
    EXPECT_TRUE(started->red_rating == far_rating || started->black_rating == far_rating);
}

TEST_F(RatingsTest, ComputerOpponentsPlayUnderAccountsAndPlaceAPlayer) {
    auto bot = std::make_unique<TestClient>(server_->port());
    const auto welcome = as<Welcome>(bot->call(Hello{"bot", "bot level 3", kProtocolVersion, 3, kComputerKey}));
    EXPECT_EQ(welcome.display_name, "bot level 3");
    as<Seated>(bot->call(CreateGame{kBlitz, ColorChoice::Random}));  // idle: hosts an open game
    auto ann = registered("ann");
    const GameId game = as<Seated>(ann->call(CreateGame{kBlitz, ColorChoice::Red, false, 3, true})).game_id;
    const auto started = ann->wait_for<GameStarted>();
    ASSERT_TRUE(started);
    EXPECT_TRUE(started->rated);
    EXPECT_EQ(started->black_rating, kNewcomer);
    const auto snapshot = as<Snapshot>(ann->call(WatchGame{game, ""}));
    EXPECT_TRUE(snapshot.black.computer);
    EXPECT_FALSE(snapshot.red.computer);
    ASSERT_TRUE(bot->wait_for<GameStarted>());
    play(*ann, *bot, game, 4);
    const auto ended = as<GameEnded>(ann->call(Resign{game}));
    EXPECT_EQ(ended.red_change, (RatingChange{1500, 1338, true}));
    EXPECT_EQ(ended.black_change, (RatingChange{1500, 1662, true}));
    const auto profile = as<Profile>(ann->call(GetProfile{"bot level 3"}));
    EXPECT_TRUE(profile.computer);
    EXPECT_EQ(profile.losses + profile.wins, 1u);
    EXPECT_EQ(profile.speeds.at(static_cast<std::size_t>(Speed::Blitz)).games, 1u);
    // Nobody logs in to a computer's account, nor takes its name.
    auto thief = client("thief");
    EXPECT_NE(thief->call(Login{"bot level 3", "", ""}).body.index(), ServerBody(LoggedIn{}).index());
    EXPECT_NE(thief->call(Register{"bot level 3", kPassword}).body.index(), ServerBody(LoggedIn{}).index());
}

TEST_F(RatingsTest, TheLeaderboardListsEstablishedRatingsBestFirst) {
    auto ann = registered("ann");
    auto bob = registered("bob");
    const GameId game = start(*ann, *bob, true);
    play(*ann, *bob, game, 4);
    as<GameEnded>(bob->call(Resign{game}));  // ann 1662, but provisional: not listed
    // Two established players, written as the archive writes a rated game.
    seed_rating(dir_ / "test.db", "dan", "Dan", "0000000000d1", 1800, 60);
    seed_rating(dir_ / "test.db", "eve", "Eve", "0000000000e1", 1900, 50);
    const auto board = as<Leaderboard>(ann->call(GetLeaderboard{Speed::Blitz}));
    EXPECT_EQ(board.speed, Speed::Blitz);
    EXPECT_EQ(board.min_games, 1u);
    ASSERT_EQ(board.rows.size(), 2u);
    EXPECT_EQ(board.rows[0], (LeaderboardRow{1, "Eve", {1900, 50, false}, 1, false}));
    EXPECT_EQ(board.rows[1], (LeaderboardRow{2, "Dan", {1800, 60, false}, 1, false}));
    EXPECT_TRUE(as<Leaderboard>(ann->call(GetLeaderboard{Speed::Rapid})).rows.empty());
}

}  // namespace
}  // namespace xq
