// The game port's web face (issue 23) over real loopback sockets, plain and TLS: the page and its
// assets, paths that try to leave the web root, methods and limits, a slowloris header, the framed
// protocol on the same port, and WebSocket watchers of a live game (catch-up after a reconnect,
// private games, refused writes, Origin, oversized and text frames).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "proto/codec.h"
#include "proto/frame.h"
#include "support/server_fixture.h"
#include "support/web_client.h"
#include "tls/certificate.h"
#include "tls/context.h"

namespace xq {
namespace {

using namespace proto;
using namespace std::chrono_literals;
using test::as;
using test::error_of;
using test::HttpReply;
using test::TestClient;
using test::WebConnection;
using test::WsClient;
namespace fs = std::filesystem;

const TimeControl kBlitz{5, 3, std::nullopt};
constexpr auto kPatience = 20s;  // for anything the loaded CI machine might be slow to do

class WebTest : public test::ServerFixture, public ::testing::WithParamInterface<bool> {
protected:
    bool tls() const { return GetParam(); }

    void configure(server::ServerConfig& config) override {
        // A copy of the fixture page, with links that try to lead out of it.
        const fs::path root = dir_ / "web";
        fs::copy(XQ_WEB_FIXTURE, root, fs::copy_options::recursive);
        fs::create_symlink(root / "private.txt", root / "assets" / "link.txt");
        fs::create_symlink("/etc", root / "assets" / "etc");
        config.web_root = root;
        config.session.frame_timeout = 2s;  // the slowloris bound, for HTTP as for frames
        config.session.max_queue_bytes = 256 * 1024;  // a browser that never reads is dropped sooner
        if (tls()) {
            const auto files = tls::files_beside(config.db);
            EXPECT_TRUE(tls::make_self_signed(files, "test server"));
            auto context = tls::server_context(files);
            EXPECT_TRUE(context) << context.error();
            config.tls = *context;
        }
    }
    std::unique_ptr<TestClient> framed(const std::string& name) {
        auto c = tls() ? std::make_unique<TestClient>(TestClient::Tls{}, "127.0.0.1", server_->port(), kPatience)
                       : std::make_unique<TestClient>(server_->port(), kPatience);
        c->hello(name);
        return c;
    }
    WebConnection web() { return WebConnection(server_->port(), tls()); }
    std::unique_ptr<WsClient> watcher(const std::string& name, WsClient::Options options = {}) {
        options.tls = tls();
        auto w = std::make_unique<WsClient>(server_->port(), options);
        EXPECT_EQ(w->status(), 101);
        w->hello(name);
        return w;
    }
    std::size_t sessions() {
        std::promise<std::size_t> count;
        server::asio::post(io_, [&] { count.set_value(server_->connections()); });
        return count.get_future().get();
    }
    bool sessions_drop_to(std::size_t n) {
        const auto end = std::chrono::steady_clock::now() + kPatience;
        while (std::chrono::steady_clock::now() < end) {
            if (sessions() <= n) return true;
            std::this_thread::sleep_for(20ms);
        }
        return false;
    }
    std::string index_html() const {
        std::ifstream in(fs::path(XQ_WEB_FIXTURE) / "index.html");
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
};

INSTANTIATE_TEST_SUITE_P(PlainAndTls, WebTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Tls" : "Plain"; });

TEST_P(WebTest, ThePageForEveryPagePathAndItsAssets) {
    auto c = web();
    for (const std::string path : {"/", "/g/42", "/g/999999999", "/?from=link"}) {
        const auto page = c.get(path);
        ASSERT_TRUE(page) << path;
        EXPECT_EQ(page->status, 200) << path;
        EXPECT_EQ(page->body, index_html()) << path;  // an unknown game gets the same page
        EXPECT_EQ(page->header("content-type"), "text/html; charset=utf-8");
        EXPECT_EQ(page->header("cache-control"), "no-cache");
        EXPECT_NE(page->header("content-security-policy").find("connect-src 'self'"), std::string::npos);
        EXPECT_EQ(page->header("content-security-policy").find("unsafe-inline"), std::string::npos);
        EXPECT_EQ(page->header("x-content-type-options"), "nosniff");
        EXPECT_EQ(page->header("referrer-policy"), "no-referrer");
        EXPECT_EQ(page->header("x-frame-options"), "DENY");
    }
    const auto script = c.get("/assets/app-7QX3KD2M.js");
    ASSERT_TRUE(script);
    EXPECT_EQ(script->status, 200);
    EXPECT_EQ(script->header("content-type"), "text/javascript; charset=utf-8");
    EXPECT_EQ(script->header("cache-control"), "public, max-age=31536000, immutable");  // a hashed name
    EXPECT_NE(script->body.find("fixture script ran"), std::string::npos);
    const auto style = c.get("/assets/style.css");
    ASSERT_TRUE(style);
    EXPECT_EQ(style->header("content-type"), "text/css; charset=utf-8");
    EXPECT_EQ(style->header("cache-control"), "no-cache");  // not hashed: revalidated
    // HEAD: the length of the body, no body (the next response on the connection reads cleanly).
    const auto head = c.get("/assets/style.css", "HEAD");
    ASSERT_TRUE(head);
    EXPECT_EQ(head->status, 200);
    EXPECT_EQ(head->header("content-length"), std::to_string(style->body.size()));
    EXPECT_TRUE(head->body.empty());
    EXPECT_EQ(c.get("/")->status, 200);
}

TEST_P(WebTest, NothingOutsideTheAssetsFolder) {
    const std::string secret = "secret outside the assets folder";
    for (const std::string path :
         {"/assets/../private.txt", "/assets/..%2fprivate.txt", "/assets/%2e%2e%2fprivate.txt", "/assets/%2E%2E/private.txt",
          "/assets/%2e%2e", "/assets/..", "/assets/", "/assets", "/private.txt", "/../private.txt", "//etc/passwd",
          "/assets//etc/passwd", "/assets/%2fetc%2fpasswd", "/assets/etc/passwd", "/assets/etc", "/assets/link.txt",
          "/assets/app-7QX3KD2M.js%00.txt", "/assets/%00", "/assets/.hidden", "/assets/%5c..%5cprivate.txt",
          "/assets/%zz", "/assets/%2", "/index.html", "/g/", "/g/1/2", "/ws/../private.txt"}) {
        auto c = web();
        const auto reply = c.get(path);
        ASSERT_TRUE(reply) << path;
        EXPECT_EQ(reply->status, 404) << path;
        EXPECT_EQ(reply->body.find(secret), std::string::npos) << path;
        EXPECT_EQ(reply->body.find("root:"), std::string::npos) << path;
    }
    // An absolute URL (a proxy's request form) and an asterisk are not paths here.
    for (const std::string target : {"http://127.0.0.1/assets/style.css", "*", "/etc/passwd"}) {
        auto c = web();
        const auto reply = c.get(target);
        ASSERT_TRUE(reply) << target;
        EXPECT_TRUE(reply->status == 400 || reply->status == 404) << target << " " << reply->status;
    }
}

TEST_P(WebTest, OnlyGetAndHeadWithoutBodiesWithinTheLimits) {
    {
        auto c = web();
        const auto reply = c.get("/", "POST");
        ASSERT_TRUE(reply);
        EXPECT_EQ(reply->status, 405);
        EXPECT_EQ(reply->header("allow"), "GET, HEAD");
        EXPECT_TRUE(c.closed_within(kPatience));
    }
    for (const std::string method : {"PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT"}) {
        auto c = web();
        const auto reply = c.get(method == "CONNECT" ? "127.0.0.1:1" : "/", method);
        ASSERT_TRUE(reply) << method;
        EXPECT_TRUE(reply->status == 405 || reply->status == 400) << method << " " << reply->status;
    }
    {
        auto c = web();  // a body: no request here has one
        c.write("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789");
        const auto reply = c.read_reply();
        ASSERT_TRUE(reply);
        EXPECT_EQ(reply->status, 413);
        EXPECT_TRUE(c.closed_within(kPatience));
    }
    {
        auto c = web();  // a header over 8 KiB
        c.write("GET / HTTP/1.1\r\nHost: x\r\nX-Padding: " + std::string(9000, 'a') + "\r\n\r\n");
        const auto reply = c.read_reply();
        ASSERT_TRUE(reply);
        EXPECT_EQ(reply->status, 431);
        EXPECT_TRUE(c.closed_within(kPatience));
    }
    {
        auto c = web();  // a URL over 2 KiB
        const auto reply = c.get("/g/" + std::string(3000, '1'));
        ASSERT_TRUE(reply);
        EXPECT_EQ(reply->status, 414);
    }
    {
        auto c = web();  // not HTTP after all
        c.write("GET\x01\x02 nonsense\r\n\r\n");
        const auto reply = c.read_reply();
        ASSERT_TRUE(reply);
        EXPECT_EQ(reply->status, 400);
        EXPECT_TRUE(c.closed_within(kPatience));
    }
    {
        auto c = web();  // Connection: close is honoured
        c.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        const auto reply = c.read_reply();
        ASSERT_TRUE(reply);
        EXPECT_EQ(reply->header("connection"), "close");
        EXPECT_TRUE(c.closed_within(kPatience));
    }
    {
        auto c = web();  // pipelined requests are answered in order
        c.write("GET /assets/style.css HTTP/1.1\r\nHost: x\r\n\r\nGET /nothing HTTP/1.1\r\nHost: x\r\n\r\n");
        EXPECT_EQ(c.read_reply()->status, 200);
        EXPECT_EQ(c.read_reply()->status, 404);
    }
}

TEST_P(WebTest, ASlowHeaderOrAnIdleKeepAliveFreesItsSlot) {
    const std::size_t before = sessions();
    auto slow = web();
    auto idle = web();
    ASSERT_EQ(idle.get("/")->status, 200);
    slow.write("GET / HTTP/1.1\r\nHost: x\r\n");
    ASSERT_TRUE(sessions() >= before + 2);
    // One header byte at a time keeps the connection busy but never finishes the request: the
    // frame timeout (2 s here) counts from the request's start, not from the last byte.
    const auto start = std::chrono::steady_clock::now();
    bool closed = false;
    while (!closed && std::chrono::steady_clock::now() - start < kPatience) {
        slow.write("X");
        closed = slow.closed_within(300ms);
    }
    EXPECT_TRUE(closed);
    EXPECT_TRUE(idle.closed_within(kPatience));
    EXPECT_TRUE(sessions_drop_to(before));
}

TEST_P(WebTest, TheFramedProtocolOnTheSamePort) {
    auto a = framed("Framed A");
    auto b = framed("Framed B");
    const auto& created = as<Seated>(a->call(CreateGame{kBlitz, ColorChoice::Red, false}));
    EXPECT_EQ(as<GameList>(b->call(ListGames{})).open.size(), 1u);
    as<Seated>(b->call(JoinGame{created.game_id, ""}));
    EXPECT_TRUE(a->wait_for<GameStarted>());
    auto page = web();  // and HTTP beside it
    EXPECT_EQ(page.get("/")->status, 200);
    EXPECT_EQ(as<MoveMade>(a->call(MakeMove{created.game_id, "b2b4", 1, 0})).ply, 1u);
}

TEST_P(WebTest, AWebSocketWatcherFollowsALiveGameAndCatchesUpAfterAReconnect) {
    auto red = framed("Red");
    auto black = framed("Black");
    const GameId id = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false})).game_id;
    as<Seated>(black->call(JoinGame{id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());

    auto w = watcher("Browser");
    const auto& listed = as<GameList>(w->call(ListGames{}));
    ASSERT_EQ(listed.live.size(), 1u);
    EXPECT_EQ(listed.live[0].game_id, id);
    EXPECT_TRUE(as<Snapshot>(w->call(WatchGame{id, ""})).moves.empty());

    const std::vector<std::string> line = {"b2b4", "a6a5", "b4c4", "f9e8", "c4c9"};
    const auto play = [&](std::size_t ply) {
        TestClient& mover = ply % 2 == 0 ? *red : *black;
        EXPECT_EQ(as<MoveMade>(mover.call(MakeMove{id, line[ply], 100 + ply, static_cast<std::uint32_t>(ply)})).ply,
                  ply + 1);
    };
    Version last_seen = 0;
    for (std::size_t ply = 0; ply < 2; ++ply) {
        play(ply);
        const auto made = w->wait_for<MoveMade>();
        ASSERT_TRUE(made);
        EXPECT_EQ(made->move, line[ply]);
        EXPECT_EQ(made->move_id, 0u);  // a spectator's copy acknowledges nothing
        EXPECT_GT(made->version, last_seen);
        last_seen = made->version;
    }
    // The page's socket drops; a move is played meanwhile; the page comes back.
    w.reset();
    play(2);
    w = watcher("Browser again");
    const auto& snap = as<Snapshot>(w->call(WatchGame{id, ""}));
    EXPECT_EQ(snap.moves, (std::vector<std::string>{"b2b4", "a6a5", "b4c4"}));
    EXPECT_GT(snap.version, last_seen);  // what it missed is in the snapshot
    play(3);
    play(4);
    std::vector<std::string> seen;
    std::optional<GameEnded> ended;
    while (!ended) {
        auto m = w->next();
        ASSERT_TRUE(m);
        if (const auto* made = std::get_if<MoveMade>(&m->body)) seen.push_back(made->move);
        if (const auto* e = std::get_if<GameEnded>(&m->body)) ended = *e;
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"f9e8", "c4c9"}));
    EXPECT_EQ(ended->outcome.reason, "checkmate");
}

TEST_P(WebTest, APrivateGameIsAnUnknownGameToABrowser) {
    auto host = framed("Host");
    const auto& hidden = as<Seated>(host->call(CreateGame{kBlitz, ColorChoice::Red, true}));
    auto w = watcher("Browser");
    EXPECT_TRUE(as<GameList>(w->call(ListGames{})).open.empty());
    const auto with_code = w->call(WatchGame{hidden.game_id, hidden.join_code});
    const auto unknown = w->call(WatchGame{hidden.game_id + 1000, ""});
    ASSERT_EQ(error_of(with_code), ErrorCode::NoSuchGame);
    ASSERT_EQ(error_of(unknown), ErrorCode::NoSuchGame);
    // Word for word the same but for the id each names.
    const auto without_id = [](const ServerMessage& m) {
        const auto& text = std::get<Error>(m.body).message;
        return text.substr(0, text.rfind(' ')) + "/" + std::to_string(text.size() - text.rfind(' '));
    };
    EXPECT_EQ(without_id(with_code), without_id(unknown));
    EXPECT_EQ(std::get<Error>(with_code.body).game_id, hidden.game_id);
    // And its page is the page every link gets.
    auto c = web();
    EXPECT_EQ(c.get("/g/" + std::to_string(hidden.game_id))->body, index_html());
}

TEST_P(WebTest, ABrowserOnlyWatches) {
    auto red = framed("Red");
    auto black = framed("Black");
    const GameId id = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false})).game_id;
    as<Seated>(black->call(JoinGame{id, ""}));
    auto w = watcher("Browser");
    as<Snapshot>(w->call(WatchGame{id, ""}));
    const std::vector<ClientBody> refused = {
        CreateGame{kBlitz, ColorChoice::Red, false}, JoinGame{id, ""}, QuickMatch{kBlitz},
        MakeMove{id, "b2b4", 1, 0}, Resign{id}, MakeOffer{id, OfferKind::Draw}, Abort{id},
        SendChat{id, ChatChannel::Spectators, "hello"}, Resume{id, "token", 0}, Claim{id, ClaimKind::Win},
        Register{"browser1", "password123"}, Login{"browser1", "password123", ""}, Logout{},
        ChangePassword{"a", "b"}};
    for (const auto& body : refused) EXPECT_EQ(error_of(w->call(body)), ErrorCode::WatchOnly) << body.index();
    // Reading is allowed, and the session is still open.
    as<ArchiveList>(w->call(ListArchive{0, 0, ""}));
    EXPECT_TRUE(std::holds_alternative<Pong>(w->call(Ping{5}).body));
    // A computer's Hello is writing too.
    WsClient::Options options;
    options.tls = tls();
    WsClient bot(server_->port(), options);
    EXPECT_EQ(error_of(bot.call(Hello{"bot", "Computer", kProtocolVersion, 3, "key"})), ErrorCode::WatchOnly);
}

TEST_P(WebTest, TheOriginMustBeThePagesOwn) {
    const std::string host = "127.0.0.1:" + std::to_string(server_->port());
    for (const std::string origin : {"https://evil.example", "http://127.0.0.1:1", "null", "file://"}) {
        WsClient::Options options;
        options.tls = tls();
        options.origin = origin;
        WsClient w(server_->port(), options);
        EXPECT_EQ(w.status(), 403) << origin;
    }
    for (const std::string& origin : {"http://" + host, "https://" + host, std::string()}) {
        WsClient::Options options;
        options.origin = origin;
        watcher("Same site", options);
    }
    auto c = web();  // a GET of /ws that is no upgrade
    EXPECT_EQ(c.get("/ws")->status, 426);
}

TEST_P(WebTest, OversizedAndTextFramesCloseTheSocket) {
    {
        auto w = watcher("Big");
        w->send_frame(std::string(kMaxFrameBytes + 1, '\0'));
        const auto error = w->next();
        ASSERT_TRUE(error);
        EXPECT_EQ(error_of(*error), ErrorCode::FrameTooLarge);
        EXPECT_EQ(w->closed_by_server(), 1009);
    }
    {
        auto w = watcher("Text");
        w->send_frame("{\"hello\": 1}", false);
        EXPECT_EQ(w->closed_by_server(), 1003);
    }
    {
        auto w = watcher("Garbage");  // binary, but no ClientMessage
        w->send_frame("\xff\xff\xff");
        EXPECT_EQ(error_of(*w->next()), ErrorCode::MalformedFrame);
    }
    // The server is unharmed.
    EXPECT_EQ(web().get("/")->status, 200);
}

TEST_P(WebTest, ABrowserThatNeverReadsIsDroppedAndTheGameGoesOn) {
    auto red = framed("Red");
    auto black = framed("Black");
    const GameId id = as<Seated>(red->call(CreateGame{kBlitz, ColorChoice::Red, false})).game_id;
    as<Seated>(black->call(JoinGame{id, ""}));
    ASSERT_TRUE(red->wait_for<GameStarted>());
    auto good = watcher("Reading watcher");
    as<Snapshot>(good->call(WatchGame{id, ""}));
    const std::size_t before = sessions();

    // A socket upgraded by hand that watches the game, then asks for pongs and reads none of them.
    auto stuck = web();
    stuck.write("GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
    ASSERT_EQ(stuck.read_reply()->status, 101);
    stuck.write(test::ws_client_frame(0x82, encode(ClientMessage{1, Hello{"stuck", "Stuck", kProtocolVersion}})));
    stuck.write(test::ws_client_frame(0x82, encode(ClientMessage{2, WatchGame{id, ""}})));
    std::string pings;
    for (int i = 0; i < 1000; ++i) pings += test::ws_client_frame(0x89, std::string(125, 'p'));
    // Each round asks for 127 KiB of pongs: the server's queue (256 KiB here) fills once the
    // kernel's buffers are full, and the session is reset rather than buffered without end.
    bool dropped = false;
    const auto end = std::chrono::steady_clock::now() + kPatience;
    while (!dropped && std::chrono::steady_clock::now() < end) {
        ASSERT_TRUE(stuck.write(pings));  // the server reads on while its output waits
        dropped = sessions() < before + 1;
    }
    EXPECT_TRUE(dropped);
    // The game and the other watcher are unaffected.
    EXPECT_EQ(as<MoveMade>(red->call(MakeMove{id, "b2b4", 1, 0})).ply, 1u);
    const auto seen = good->wait_for<MoveMade>();
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->move, "b2b4");
}

}  // namespace
}  // namespace xq
