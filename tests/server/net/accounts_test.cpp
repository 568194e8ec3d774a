// Accounts over real sockets (issue 18): registration, password and token logins, expiry,
// logout and password changes revoking tokens, guests' marked names, throttled failures and
// registrations, a second login from elsewhere taking the account's seat, replayed and random
// tokens getting nothing, the accounts off and required modes, and the archive's account tags.

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "support/server_fixture.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::TestClient;
using test::as;
using test::error_of;

const TimeControl kBlitz{5, 3, std::nullopt};
constexpr const char* kPassword = "correct horse";

class AccountsTest : public test::ServerFixture {
protected:
    void configure(server::ServerConfig& config) override {
        config.accounts = AccountsMode::Optional;
        config.rate = {0, 40, 60};  // the throttles under test, not the request rate
        config.registrations_per_hour = 20;
        config.password_cost = server::minimal_cost();  // behaviour, not cost (server.h)
    }
    // A connection that has said Hello, and the Welcome it got.
    std::pair<std::unique_ptr<TestClient>, Welcome> greet(const std::string& name) {
        auto c = std::make_unique<TestClient>(server_->port());
        const auto welcome = as<Welcome>(c->call(Hello{"accounts-test", name}));
        return {std::move(c), welcome};
    }
    std::unique_ptr<TestClient> registered(const std::string& name, LoggedIn* out = nullptr) {
        auto [c, welcome] = greet(name);
        const auto in = as<LoggedIn>(c->call(Register{name, kPassword}));
        EXPECT_EQ(in.name, name);
        if (out) *out = in;
        return std::move(c);
    }
    std::int64_t now_ms() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    }
};

TEST_F(AccountsTest, RegisterLoginWrongPasswordAndTokenLogin) {
    LoggedIn reg;
    auto ann = registered("Ann_Lee", &reg);
    EXPECT_FALSE(reg.guest);
    EXPECT_EQ(reg.session_token.size(), 64u);  // 256 bits
    EXPECT_GT(reg.expires_at_ms, now_ms() + std::chrono::milliseconds(std::chrono::hours(24 * 29)).count());

    auto [other, w] = greet("someone");
    EXPECT_EQ(error_of(other->call(Register{"ANN_lee", kPassword})), ErrorCode::NameTaken);  // case-insensitive
    EXPECT_EQ(error_of(other->call(Register{"\xd0\x90nn_Lee", kPassword})), ErrorCode::BadName);  // Cyrillic А
    EXPECT_EQ(error_of(other->call(Register{"\xef\xbc\xa1nn", kPassword})), ErrorCode::BadName);   // fullwidth Ａ
    EXPECT_EQ(error_of(other->call(Register{"Zed", "short"})), ErrorCode::WeakPassword);

    const auto wrong = other->call(Login{"ann_lee", "horse correct", ""});
    const auto unknown = other->call(Login{"nobody", kPassword, ""});
    EXPECT_EQ(error_of(wrong), ErrorCode::BadCredentials);
    EXPECT_EQ(error_of(unknown), ErrorCode::BadCredentials);
    // Nothing tells an unknown name from a wrong password.
    EXPECT_EQ(std::get<Error>(wrong.body).message, std::get<Error>(unknown.body).message);

    const auto in = as<LoggedIn>(other->call(Login{"ANN_LEE", kPassword, ""}));
    EXPECT_EQ(in.name, "Ann_Lee");  // as registered
    EXPECT_EQ(in.session_token.size(), 64u);
    EXPECT_NE(in.session_token, reg.session_token);

    auto [third, w3] = greet("x");
    const auto by_token = as<LoggedIn>(third->call(Login{"", "", reg.session_token}));
    EXPECT_EQ(by_token.name, "Ann_Lee");
    EXPECT_FALSE(by_token.guest);
    EXPECT_EQ(by_token.session_token, "");  // the token is never sent back
}

TEST_F(AccountsTest, LogoutAndPasswordChangeRevokeTokens) {
    LoggedIn reg;
    auto ann = registered("ann", &reg);
    auto [a2, w2] = greet("x");
    const auto second = as<LoggedIn>(a2->call(Login{"ann", kPassword, ""}));
    // Logout revokes that session's token only.
    const auto out = as<LoggedIn>(a2->call(Logout{}));
    EXPECT_TRUE(out.guest);
    EXPECT_EQ(out.name, "x (guest)");
    EXPECT_EQ(error_of(a2->call(Logout{})), ErrorCode::AccountRequired);
    auto [a3, w3] = greet("y");
    EXPECT_EQ(error_of(a3->call(Login{"", "", second.session_token})), ErrorCode::BadCredentials);
    const auto still = as<LoggedIn>(a3->call(Login{"", "", reg.session_token}));
    EXPECT_EQ(still.name, "ann");

    // A password change ends every other session's token and needs the old password.
    EXPECT_EQ(error_of(ann->call(ChangePassword{"not it at all", "a new password"})), ErrorCode::BadCredentials);
    EXPECT_EQ(error_of(ann->call(ChangePassword{kPassword, "short"})), ErrorCode::WeakPassword);
    const auto changed = as<LoggedIn>(ann->call(ChangePassword{kPassword, "a new password"}));
    EXPECT_EQ(changed.session_token.size(), 64u);
    auto [a4, w4] = greet("z");
    EXPECT_EQ(error_of(a4->call(Login{"", "", reg.session_token})), ErrorCode::BadCredentials);
    EXPECT_EQ(error_of(a4->call(Login{"ann", kPassword, ""})), ErrorCode::BadCredentials);
    EXPECT_EQ(as<LoggedIn>(a4->call(Login{"", "", changed.session_token})).name, "ann");
    EXPECT_EQ(as<LoggedIn>(a4->call(Login{"ann", "a new password", ""})).name, "ann");
}

TEST_F(AccountsTest, StolenLookingTokensGetNothing) {
    auto [c, w] = greet("mallory");
    EXPECT_EQ(error_of(c->call(Login{"", "", std::string(64, '0')})), ErrorCode::BadCredentials);
    EXPECT_EQ(error_of(c->call(Login{"", "", "' OR 1=1 --"})), ErrorCode::BadCredentials);
    EXPECT_EQ(error_of(c->call(Login{"", "", std::string(10'000, 'a')})), ErrorCode::BadCredentials);

    // A seat token replayed after its owner resumed (rotation) holds nothing, nor does a random one.
    auto red = registered("redplayer");
    auto [black, wb] = greet("blackplayer");
    const auto created = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(black->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());
    auto [back, wk] = greet("redplayer-again");
    EXPECT_EQ(error_of(back->call(Resume{created.game_id, created.resume_token, 0})), ErrorCode::Unspecified);
    const auto rotated = back->wait_for<ResumeToken>();
    ASSERT_TRUE(rotated);
    EXPECT_NE(rotated->resume_token, created.resume_token);
    // The owner uses the new token, which retires the one it replaced (kept until then, in case the
    // new one was lost on the way).
    EXPECT_EQ(error_of(back->call(Resume{created.game_id, rotated->resume_token, 0})), ErrorCode::Unspecified);
    EXPECT_EQ(error_of(c->call(Resume{created.game_id, created.resume_token, 0})), ErrorCode::BadToken);
    EXPECT_EQ(error_of(c->call(Resume{created.game_id, std::string(32, 'f'), 0})), ErrorCode::BadToken);
    EXPECT_EQ(as<MoveMade>(back->call(MakeMove{created.game_id, "h2e2", 1, 0})).ply, 1u);
}

TEST_F(AccountsTest, GuestsAreMarkedAndNeverTakeAnAccountsName) {
    auto ann = registered("Ann");
    auto [guest, welcome] = greet("ann");
    EXPECT_EQ(welcome.accounts, AccountsMode::Optional);
    EXPECT_TRUE(welcome.display_name.starts_with("guest-")) << welcome.display_name;
    EXPECT_TRUE(welcome.display_name.ends_with(" (guest)"));
    auto [bob, wbob] = greet("Bob");
    EXPECT_EQ(wbob.display_name, "Bob (guest)");
    as<Seated>(bob->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(ann->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    std::vector<std::string> hosts;
    for (const auto& g : as<GameList>(guest->call(ListGames{})).open) hosts.push_back(g.host);
    std::ranges::sort(hosts);
    EXPECT_EQ(hosts, (std::vector<std::string>{"Ann", "Bob (guest)"}));
    // A guest whose Hello name is taken later keeps its mark; it never reads as the account.
    auto [late, wl] = greet("Carl");
    registered("carl");
    EXPECT_EQ(wl.display_name, "Carl (guest)");
}

TEST_F(AccountsTest, ASecondLoginFromElsewhereTakesTheAccountsSeat) {
    auto first = registered("ann");
    auto [bob, wb] = greet("bob");
    const auto created = as<Seated>(first->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(bob->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(first->wait_for<GameStarted>());
    as<MoveMade>(first->call(MakeMove{created.game_id, "h2e2", 1, 0}));

    // Another machine (or a restarted client that lost its local seat) logs in to the account.
    auto [second, w2] = greet("whoever");
    const auto in = as<LoggedIn>(second->call(Login{"ann", kPassword, ""}));
    ASSERT_EQ(in.seats.size(), 1u);
    EXPECT_EQ(in.seats[0].game_id, created.game_id);
    EXPECT_EQ(in.seats[0].side, Side::Red);
    // The seat follows the newest session: the first session's token is dead...
    auto [thief, wt] = greet("t");
    EXPECT_EQ(error_of(thief->call(Resume{created.game_id, created.resume_token, 0})), ErrorCode::BadToken);
    // ...and the new one takes the seat back with the token LoggedIn gave it.
    const auto back = as<Resumed>(second->call(Resume{created.game_id, in.seats[0].resume_token, 0}));
    EXPECT_EQ(back.your_side, Side::Red);
    ASSERT_EQ(back.events.size(), 2u);  // GameStarted, h2e2
    EXPECT_EQ(std::get<MoveMade>(back.events[1]).move, "h2e2");
    as<MoveMade>(bob->call(MakeMove{created.game_id, "h9g7", 2, 1}));
    EXPECT_EQ(error_of(first->call(MakeMove{created.game_id, "h0g2", 3, 2})), ErrorCode::NotAPlayer);
    EXPECT_EQ(as<MoveMade>(second->call(MakeMove{created.game_id, "h0g2", 3, 2})).ply, 3u);
    // Both sessions stay logged in: the first may still play elsewhere as ann.
    EXPECT_EQ(as<Seated>(first->call(CreateGame{kBlitz, ColorChoice::Black, false})).side, Side::Black);
}

// Both players gone (nobody left in the room): a login still finds the account's seat.
TEST_F(AccountsTest, ALoginFindsTheSeatOfAGameEveryoneLeft) {
    GameId game = 0;
    {
        auto ann = registered("ann");
        auto [bob, wb] = greet("bob");
        game = as<Seated>(ann->call(CreateGame{kBlitz, ColorChoice::Red, false})).game_id;
        as<Seated>(bob->call(JoinGame{game, ""}));
        ASSERT_TRUE(ann->wait_for<GameStarted>());
        as<MoveMade>(ann->call(MakeMove{game, "h2e2", 1, 0}));
    }  // both connections close
    std::this_thread::sleep_for(200ms);  // the server hears of both closes
    auto [back, w] = greet("ann again");
    const auto in = as<LoggedIn>(back->call(Login{"ann", kPassword, ""}));
    ASSERT_EQ(in.seats.size(), 1u);
    EXPECT_EQ(in.seats[0].game_id, game);
    EXPECT_EQ(in.seats[0].side, Side::Red);
    EXPECT_EQ(as<Resumed>(back->call(Resume{game, in.seats[0].resume_token, 0})).your_side, Side::Red);
}

TEST_F(AccountsTest, TheArchiveRecordsEachSidesAccount) {
    auto ann = registered("ann");
    auto [bob, wb] = greet("bob");
    const auto created = as<Seated>(ann->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<Seated>(bob->call(JoinGame{created.game_id, ""}));
    ASSERT_TRUE(ann->wait_for<GameStarted>());
    as<MoveMade>(ann->call(MakeMove{created.game_id, "h2e2", 1, 0}));
    as<MoveMade>(bob->call(MakeMove{created.game_id, "h9g7", 2, 1}));
    as<GameEnded>(bob->call(Resign{created.game_id}));
    const auto game = as<proto::ArchivedGame>(ann->call(GetArchived{created.game_id}));
    EXPECT_EQ(game.entry.red, "ann");
    EXPECT_EQ(game.entry.black, "bob (guest)");
    EXPECT_NE(game.pgn.find("[RedAccount \"ann\"]"), std::string::npos) << game.pgn;
    EXPECT_EQ(game.pgn.find("BlackAccount"), std::string::npos);
}

TEST_F(AccountsTest, TheDatabaseIsReadableByItsOwnerOnly) {
    registered("ann");
    for (const char* suffix : {"", "-wal", "-shm"}) {
        struct stat st{};
        ASSERT_EQ(::stat((dir_ / ("test.db" + std::string(suffix))).c_str(), &st), 0) << suffix;
        EXPECT_EQ(st.st_mode & 0777, 0600u) << suffix;
    }
}

class ShortSessionsTest : public AccountsTest {
    void configure(server::ServerConfig& config) override {
        AccountsTest::configure(config);
        config.session_lifetime = 1s;
    }
};

TEST_F(ShortSessionsTest, AnExpiredTokenGetsNothing) {
    LoggedIn reg;
    registered("ann", &reg);
    std::this_thread::sleep_for(1100ms);
    auto [c, w] = greet("ann again");
    EXPECT_EQ(error_of(c->call(Login{"", "", reg.session_token})), ErrorCode::BadCredentials);
    EXPECT_EQ(as<LoggedIn>(c->call(Login{"ann", kPassword, ""})).name, "ann");  // a password still works
}

class ThrottleTest : public AccountsTest {
protected:
    void configure(server::ServerConfig& config) override {
        AccountsTest::configure(config);
        config.address_backoff = {.free_failures = address_free_, .first_wait = 1000ms};
        config.account_backoff = {.free_failures = 3, .first_wait = 1000ms};
        config.registrations_per_hour = 2;
    }
    int address_free_ = 100;
};

TEST_F(ThrottleTest, FailedLoginsBackOffPerAccountWithoutLockingItOut) {
    registered("ann");
    registered("bob");
    auto [c, w] = greet("mallory");
    for (int i = 0; i < 4; ++i) EXPECT_EQ(error_of(c->call(Login{"ann", "wrong password", ""})), ErrorCode::BadCredentials);
    const auto refused = c->call(Login{"ann", kPassword, ""});  // even the right password waits
    ASSERT_EQ(error_of(refused), ErrorCode::TryLater);
    const auto wait = std::get<Error>(refused.body).retry_after_ms;
    EXPECT_GT(wait, 0u);
    EXPECT_LE(wait, 1000u);
    // Another account from the same address is not held up.
    EXPECT_EQ(as<LoggedIn>(c->call(Login{"bob", kPassword, ""})).name, "bob");
    // A backoff, not a lock-out: once the wait is over, the right password logs in.
    std::this_thread::sleep_for(std::chrono::milliseconds(wait + 50));
    auto [d, wd] = greet("ann");
    EXPECT_EQ(as<LoggedIn>(d->call(Login{"ann", kPassword, ""})).name, "ann");
}

TEST_F(ThrottleTest, RegistrationsPerAddressAreLimited) {
    registered("ann");
    registered("bob");
    auto [c, w] = greet("carl");
    const auto refused = c->call(Register{"carl", kPassword});
    ASSERT_EQ(error_of(refused), ErrorCode::TryLater);
    EXPECT_GT(std::get<Error>(refused.body).retry_after_ms, 3'000'000u);  // most of an hour
}

class AddressThrottleTest : public ThrottleTest {
    void configure(server::ServerConfig& config) override {
        address_free_ = 3;
        ThrottleTest::configure(config);
    }
};

TEST_F(AddressThrottleTest, FailedLoginsBackOffPerAddress) {
    registered("ann");
    auto [c, w] = greet("mallory");
    // A guesser spreading its tries over many names is held up by its address.
    for (const char* name : {"zed", "yan", "xia", "wu"})
        EXPECT_EQ(error_of(c->call(Login{name, "wrong password", ""})), ErrorCode::BadCredentials);
    const auto refused = c->call(Login{"vic", "wrong password", ""});
    ASSERT_EQ(error_of(refused), ErrorCode::TryLater);
    EXPECT_GT(std::get<Error>(refused.body).retry_after_ms, 0u);
    EXPECT_EQ(error_of(c->call(Login{"", "", std::string(64, '1')})), ErrorCode::TryLater);  // tokens too
}

class AccountsOffTest : public AccountsTest {
    void configure(server::ServerConfig& config) override {
        AccountsTest::configure(config);
        config.accounts = AccountsMode::Off;
    }
};

TEST_F(AccountsOffTest, NoAccountsAndNamesAsTyped) {
    auto [c, w] = greet("ann");
    EXPECT_EQ(w.accounts, AccountsMode::Off);
    EXPECT_EQ(w.display_name, "ann");
    EXPECT_EQ(error_of(c->call(Register{"ann", kPassword})), ErrorCode::AccountsDisabled);
    EXPECT_EQ(error_of(c->call(Login{"ann", kPassword, ""})), ErrorCode::AccountsDisabled);
    EXPECT_EQ(error_of(c->call(Logout{})), ErrorCode::AccountsDisabled);
    as<Seated>(c->call(CreateGame{kBlitz, ColorChoice::Red, false}));
}

class AccountsRequiredTest : public AccountsTest {
    void configure(server::ServerConfig& config) override {
        AccountsTest::configure(config);
        config.accounts = AccountsMode::Required;
    }
};

TEST_F(AccountsRequiredTest, NoGameRequestBeforeLogin) {
    auto [c, w] = greet("ann");
    EXPECT_EQ(w.accounts, AccountsMode::Required);
    EXPECT_EQ(error_of(c->call(ListGames{})), ErrorCode::AccountRequired);
    EXPECT_EQ(error_of(c->call(CreateGame{kBlitz, ColorChoice::Red, false})), ErrorCode::AccountRequired);
    EXPECT_EQ(error_of(c->call(WatchGame{1, ""})), ErrorCode::AccountRequired);
    as<Pong>(c->call(Ping{7}));
    as<LoggedIn>(c->call(Register{"ann", kPassword}));
    as<GameList>(c->call(ListGames{}));
    as<Seated>(c->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    as<LoggedIn>(c->call(Logout{}));
    EXPECT_EQ(error_of(c->call(ListGames{})), ErrorCode::AccountRequired);
}

}  // namespace
}  // namespace xq
