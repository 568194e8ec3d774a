// The holes an independent review found (issue 18), each tried as an attack over real sockets:
// a second Hello, private games in the archive, join-code guessing, limits per address group
// (clients on other loopback addresses: 127.0.0.2, 127.0.0.3, ...), chat text and mute, archive
// paging by key, and a person posing as the computer.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "support/raw_sqlite.h"
#include "support/server_fixture.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::TestClient;
using test::as;
using test::error_of;

const TimeControl kBlitz{5, 3, std::nullopt};

class HolesTest : public test::ServerFixture {
protected:
    void configure(server::ServerConfig& config) override {
        config.join_codes = {5, 1.0 / 30, 8};
        config.rate.chat_burst = 6;
        config.rate.chat_per_second = 0.01;
    }
    // A client greeted as `name` from the local address `from`.
    std::unique_ptr<TestClient> client_from(const std::string& from, const std::string& name) {
        auto c = std::make_unique<TestClient>("127.0.0.1", server_->port(), 5s, from);
        c->hello(name);
        return c;
    }
    // A game between two clients, started; returns its Seated for the creator.
    Seated start(TestClient& red, TestClient& black, bool is_private = false) {
        const auto created = as<Seated>(red.call(CreateGame{kBlitz, ColorChoice::Red, is_private}));
        as<Seated>(black.call(JoinGame{created.game_id, created.join_code}));
        EXPECT_TRUE(red.wait_for<GameStarted>());
        EXPECT_TRUE(black.wait_for<GameStarted>());
        return created;
    }
};

// Hole: a second Hello renamed a session in the middle of its game.
TEST_F(HolesTest, ASecondHelloIsRefusedAndChangesNothing) {
    auto red = client("Alice");
    auto black = client("Bob");
    auto watcher = client("Carol");
    const auto game = start(*red, *black);
    EXPECT_EQ(error_of(red->call(Hello{"test", "Mallory", kProtocolVersion})), ErrorCode::AlreadyGreeted);
    // Not even as "the computer", or with another protocol version (which would close it).
    EXPECT_EQ(error_of(red->call(Hello{"test", "bot level 1", kProtocolVersion, 1, "guess"})), ErrorCode::AlreadyGreeted);
    EXPECT_EQ(error_of(red->call(Hello{"test", "Mallory", kProtocolVersion + 1})), ErrorCode::AlreadyGreeted);

    const auto live = as<GameList>(watcher->call(ListGames{})).live;
    ASSERT_EQ(live.size(), 1u);
    EXPECT_EQ(live[0].red, "Alice");
    EXPECT_EQ(as<Snapshot>(watcher->call(WatchGame{game.game_id, ""})).red.name, "Alice");
    as<ChatLine>(red->call(SendChat{game.game_id, ChatChannel::Players, "hello"}));
    const auto heard = black->wait_for<ChatLine>();
    ASSERT_TRUE(heard);
    EXPECT_EQ(heard->from, "Alice");
    // A new game of the same session still goes by the first name.
    as<GameEnded>(red->call(Resign{game.game_id}));
    auto other = client("Dan");
    const auto again = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    const auto open = as<GameList>(other->call(ListGames{})).open;
    ASSERT_EQ(open.size(), 1u);
    EXPECT_EQ(open[0].game_id, again.game_id);
    EXPECT_EQ(open[0].host, "Alice");
}

// Hole: private games were listed in the public archive, their join codes kept in the file.
TEST_F(HolesTest, AFinishedPrivateGameIsNotListedNotShownToOthersAndLosesItsCode) {
    auto red = client("Alice");
    auto black = client("Bob");
    auto stranger = client("Eve");
    const auto game = start(*red, *black, true);
    ASSERT_FALSE(game.join_code.empty());
    as<GameEnded>(red->call(Resign{game.game_id}));
    ASSERT_TRUE(black->wait_for<GameEnded>());
    const auto pub = start(*red, *black);  // a public game beside it
    as<GameEnded>(black->call(Resign{pub.game_id}));

    for (TestClient* c : {stranger.get(), red.get()}) {
        const auto list = as<ArchiveList>(c->call(ListArchive{0, 0, ""}));
        EXPECT_EQ(list.total, 1u);
        ASSERT_EQ(list.games.size(), 1u);
        EXPECT_EQ(list.games[0].game_id, pub.game_id);
        EXPECT_EQ(as<ArchiveList>(c->call(ListArchive{0, 0, "alice"})).total, 1u);
    }
    // Someone who did not play it hears what a game that does not exist gives.
    const auto refused = stranger->call(GetArchived{game.game_id});
    EXPECT_EQ(error_of(refused), ErrorCode::NoSuchGame);
    EXPECT_EQ(std::get<Error>(refused.body).message, "no archived game with that id");
    // Its players, on the connections they played it on, still see it.
    EXPECT_EQ(as<ArchivedGame>(red->call(GetArchived{game.game_id})).entry.game_id, game.game_id);
    EXPECT_EQ(as<ArchivedGame>(black->call(GetArchived{game.game_id})).entry.game_id, game.game_id);
    // The file keeps no code: only the mark that the game was private.
    const auto db = dir_ / "test.db";
    EXPECT_EQ(test::raw_int(db, "SELECT count(*) FROM games WHERE join_code = '" + game.join_code + "'"), 0);
    EXPECT_EQ(test::raw_int(db, "SELECT count(*) FROM games WHERE join_code = ''"), 1);
    EXPECT_EQ(test::raw_int(db, "SELECT count(*) FROM games WHERE join_code IS NULL"), 1);
}

// Hole: join-code guesses were counted nowhere. An address gets 5 wrong, then waits; the right
// code from there is refused too (a refusal must not tell right from wrong); a friend elsewhere
// gets in.
TEST_F(HolesTest, WrongJoinCodesAreLimitedPerAddress) {
    auto host = client("Host");
    const auto game = as<Seated>(host->call(CreateGame{kBlitz, ColorChoice::Red, true}));
    auto guesser = client_from("127.0.0.2", "Eve");
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(error_of(guesser->call(JoinGame{game.game_id, "AAAAA" + std::to_string(i + 2)})),
                  ErrorCode::WrongJoinCode);
    for (int i = 0; i < 2; ++i)  // watching guesses count the same
        EXPECT_EQ(error_of(guesser->call(WatchGame{game.game_id, "BBBBB" + std::to_string(i + 2)})),
                  ErrorCode::WrongJoinCode);
    const auto limited = guesser->call(JoinGame{game.game_id, game.join_code});
    EXPECT_EQ(error_of(limited), ErrorCode::RateLimited);
    EXPECT_NE(std::get<Error>(limited.body).message.find("wrong join codes"), std::string::npos);
    // Another connection from the same address is the same address.
    auto again = client_from("127.0.0.2", "Eve2");
    EXPECT_EQ(error_of(again->call(WatchGame{game.game_id, game.join_code})), ErrorCode::RateLimited);
    auto friend_ = client_from("127.0.0.3", "Friend");
    as<Seated>(friend_->call(JoinGame{game.game_id, game.join_code}));
}

// Per game: once a game has heard 8 wrong codes (this fixture's limit), an address that got its
// code wrong is not heard again, whatever its own allowance; a fresh address still is.
TEST_F(HolesTest, AGameStopsHearingAddressesThatGuessedWrong) {
    auto host = client("Host");
    const auto game = as<Seated>(host->call(CreateGame{kBlitz, ColorChoice::Red, true}));
    std::vector<std::unique_ptr<TestClient>> guessers;
    for (int i = 0; i < 4; ++i) {
        guessers.push_back(client_from("127.0.1." + std::to_string(i + 1), "g"));
        for (int k = 0; k < 2; ++k)
            EXPECT_EQ(error_of(guessers.back()->call(WatchGame{game.game_id, "ZZZZZ" + std::to_string(k + 2)})),
                      ErrorCode::WrongJoinCode);
    }
    EXPECT_EQ(error_of(guessers[0]->call(WatchGame{game.game_id, game.join_code})), ErrorCode::RateLimited);
    auto fresh = client_from("127.0.1.9", "f");
    as<Snapshot>(fresh->call(WatchGame{game.game_id, game.join_code}));
}

// Hole: about 3 addresses filled the visible lobby. Two waiting games per address.
TEST_F(HolesTest, WaitingGamesAreLimitedPerAddress) {
    auto a = client_from("127.0.0.2", "a");
    auto b = client_from("127.0.0.2", "b");
    auto c = client_from("127.0.0.2", "c");
    auto d = client_from("127.0.0.3", "d");
    as<Seated>(a->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    const auto second = as<Seated>(b->call(CreateGame{kBlitz, ColorChoice::Red, true}));
    EXPECT_EQ(error_of(c->call(CreateGame{kBlitz, ColorChoice::Red, false})), ErrorCode::TooManyGames);
    as<Seated>(d->call(CreateGame{kBlitz, ColorChoice::Red, false}));  // another address
    // Once one of them starts, the address may host another.
    auto joiner = client("j");
    as<Seated>(joiner->call(JoinGame{second.game_id, second.join_code}));
    as<Seated>(c->call(CreateGame{kBlitz, ColorChoice::Red, false}));
}

// Hole: limits were per connection only. An address's connections share an allowance of
// requests (this fixture: 30 at once, no refill), beside each connection's own (40).
class GroupRateTest : public HolesTest {
protected:
    void configure(server::ServerConfig& config) override {
        config.rate.group_burst = 30;
        config.rate.group_per_second = 0.001;
    }
};

TEST_F(GroupRateTest, RequestsAreLimitedPerAddressToo) {
    auto first = client_from("127.0.0.2", "a");  // Hello: one request
    auto second = client_from("127.0.0.2", "b");
    int allowed = 0;
    for (int i = 0; i < 20; ++i) allowed += error_of(first->call(ListGames{})) == ErrorCode::Unspecified ? 1 : 0;
    for (int i = 0; i < 20; ++i) allowed += error_of(second->call(ListGames{})) == ErrorCode::Unspecified ? 1 : 0;
    EXPECT_EQ(allowed, 28);  // 30 less the two Hellos
    const auto refused = second->call(ListGames{});
    EXPECT_EQ(error_of(refused), ErrorCode::RateLimited);
    EXPECT_EQ(std::get<Error>(refused.body).message, "too many requests from your address: slow down");
    EXPECT_TRUE(std::holds_alternative<Pong>(second->call(Ping{1}).body));  // pings stay free
    auto elsewhere = client_from("127.0.0.3", "c");
    as<GameList>(elsewhere->call(ListGames{}));
}

// Hole: chat kept newlines, had no limit per address, and nobody could mute anyone.
TEST_F(HolesTest, ChatRefusesControlCharactersAndIsLimitedPerAddress) {
    auto red = client_from("127.0.0.2", "Red");
    auto black = client_from("127.0.0.3", "Black");
    const auto game = start(*red, *black);
    for (const std::string text : {"line one\nline two", "tab\there", "\xe2\x80\xae" "desrever", "nul\x01",
                                   "sep\xe2\x80\xa8" "arator", "c1\xc2\x85"})
        EXPECT_EQ(error_of(red->call(SendChat{game.game_id, ChatChannel::Players, text})), ErrorCode::BadText) << text;
    as<ChatLine>(red->call(SendChat{game.game_id, ChatChannel::Players, "fine, with \xe4\xb8\xad\xe6\x96\x87"}));
    // Six lines an address, in this fixture; more connections from it do not add any.
    auto watcher = client_from("127.0.0.2", "w");
    as<Snapshot>(watcher->call(WatchGame{game.game_id, ""}));
    for (int i = 0; i < 3; ++i) as<ChatLine>(red->call(SendChat{game.game_id, ChatChannel::Players, "r"}));
    for (int i = 0; i < 2; ++i) as<ChatLine>(watcher->call(SendChat{game.game_id, ChatChannel::Spectators, "w"}));
    EXPECT_EQ(error_of(red->call(SendChat{game.game_id, ChatChannel::Players, "r"})), ErrorCode::RateLimited);
    EXPECT_EQ(error_of(watcher->call(SendChat{game.game_id, ChatChannel::Spectators, "w"})), ErrorCode::RateLimited);
    as<ChatLine>(black->call(SendChat{game.game_id, ChatChannel::Players, "b"}));  // another address
}

TEST_F(HolesTest, AMutedChannelIsNotDeliveredToTheMuter) {
    auto red = client_from("127.0.0.2", "Red");
    auto black = client_from("127.0.0.3", "Black");
    auto watcher = client_from("127.0.0.4", "Watcher");
    auto other = client_from("127.0.0.5", "Other");
    const auto game = start(*red, *black);
    as<Snapshot>(watcher->call(WatchGame{game.game_id, ""}));
    as<Snapshot>(other->call(WatchGame{game.game_id, ""}));
    as<ChatLine>(red->call(SendChat{game.game_id, ChatChannel::Players, "before"}));
    // Black mutes its opponent: the reply's chat no longer holds Red's lines.
    const auto muted = as<Snapshot>(black->call(Mute{game.game_id, ChatChannel::Players, true}));
    for (const auto& line : muted.chat) EXPECT_NE(line.from, "Red");
    as<ChatLine>(red->call(SendChat{game.game_id, ChatChannel::Players, "rude"}));
    as<ChatLine>(black->call(SendChat{game.game_id, ChatChannel::Players, "own line"}));  // still its own
    as<MoveMade>(red->call(MakeMove{game.game_id, "h2e2", 1, 0}));
    // Black hears the move but not the line sent before it; the watcher hears both.
    for (auto m = black->next(); m; m = black->next()) {
        if (const auto* line = std::get_if<ChatLine>(&m->body)) {
            EXPECT_NE(line->text, "rude");
        }
        if (std::holds_alternative<MoveMade>(m->body)) break;
    }
    bool watcher_heard = false;
    for (auto m = watcher->next(); m && !watcher_heard; m = watcher->next())
        if (const auto* line = std::get_if<ChatLine>(&m->body)) watcher_heard = line->text == "rude";
    EXPECT_TRUE(watcher_heard);
    // A spectator mutes the other spectators.
    as<Snapshot>(watcher->call(Mute{game.game_id, ChatChannel::Spectators, true}));
    as<ChatLine>(other->call(SendChat{game.game_id, ChatChannel::Spectators, "spam"}));
    as<ChatLine>(red->call(SendChat{game.game_id, ChatChannel::Players, "after"}));
    for (auto m = watcher->next(); m; m = watcher->next()) {
        const auto* line = std::get_if<ChatLine>(&m->body);
        if (!line) continue;
        EXPECT_NE(line->text, "spam");
        if (line->text == "after") break;
    }
    // Unmuted, Red is heard again; muting a game one is not in is refused.
    as<Snapshot>(black->call(Mute{game.game_id, ChatChannel::Players, false}));
    as<ChatLine>(red->call(SendChat{game.game_id, ChatChannel::Players, "again"}));
    const auto again = black->wait_for<ChatLine>();
    ASSERT_TRUE(again);
    EXPECT_EQ(again->text, "again");
    auto outsider = client("Outsider");
    EXPECT_EQ(error_of(outsider->call(Mute{game.game_id, ChatChannel::Players, true})), ErrorCode::NotAPlayer);
}

// Hole: ListArchive skipped rows by offset on the game loop. Pages follow each other by key; an
// offset is served only up to 200.
TEST_F(HolesTest, TheArchivePagesByKey) {
    auto red = client("Red");
    auto black = client("Black");
    std::vector<GameId> games;
    for (int i = 0; i < 7; ++i) {
        const auto game = start(*red, *black);
        as<GameEnded>(red->call(Resign{game.game_id}));
        games.push_back(game.game_id);
    }
    std::vector<GameId> seen;
    std::string after;
    int pages = 0;
    do {
        const auto page = as<ArchiveList>(red->call(ListArchive{0, 3, "", after}));
        EXPECT_EQ(page.total, 7u);
        for (const auto& e : page.games) seen.push_back(e.game_id);
        after = page.next;
        ++pages;
    } while (!after.empty() && pages < 10);
    EXPECT_EQ(pages, 3);
    // The order of one long page (newest first; games ended in the same millisecond by id), each once.
    std::vector<GameId> whole;
    for (const auto& e : as<ArchiveList>(red->call(ListArchive{0, 50, ""})).games) whole.push_back(e.game_id);
    EXPECT_EQ(seen, whole);
    std::ranges::sort(seen);
    std::ranges::sort(games);
    EXPECT_EQ(seen, games);
    // Old clients' offsets work up to the cap.
    EXPECT_EQ(as<ArchiveList>(red->call(ListArchive{5, 3, ""})).games.size(), 2u);
    EXPECT_EQ(error_of(red->call(ListArchive{201, 3, ""})), ErrorCode::BadRequest);
    EXPECT_EQ(error_of(red->call(ListArchive{0, 3, "", "not a key"})), ErrorCode::BadRequest);
}

// Hole: "Play the computer" took whoever was named like a bot. A person with that name is neither
// offered as the computer nor listed under the computer's name.
TEST_F(HolesTest, APersonNamedLikeTheComputerIsNotTheComputer) {
    std::vector<std::unique_ptr<TestClient>> posers;
    auto player = client("player");
    for (const std::string name : {"bot level 3", "Bot Level 3", "bot level 3 (really)", "bot level 3 with a long name"}) {
        posers.push_back(client_from("127.0.2." + std::to_string(posers.size() + 1), name));
        const auto hosted = as<Seated>(posers.back()->call(CreateGame{kBlitz, ColorChoice::Red, false}));
        bool listed = false;
        for (const auto& g : as<GameList>(player->call(ListGames{})).open)
            if (g.game_id == hosted.game_id) {
                listed = true;
                // Still within 32 bytes: the name is cut to make room for the mark.
                EXPECT_EQ(g.host, name.substr(0, 23) + " (person)");
            }
        EXPECT_TRUE(listed);
        EXPECT_EQ(error_of(player->call(CreateGame{kBlitz, ColorChoice::Red, false, 3})), ErrorCode::NoComputer);
        EXPECT_TRUE(as<GameList>(player->call(ListGames{})).live.empty());
    }
}

}  // namespace
}  // namespace xq
