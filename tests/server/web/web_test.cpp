// server/web's pieces without sockets: WebSocket framing against hand-made frames, the upgrade's
// accept key (RFC 6455's own example) and Origin rule, which names may be assets, and HTTP
// exchanges fed byte by byte, pipelined, past the keep-alive limit and into an upgrade.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include <unistd.h>

#include "server/web/http_exchange.h"
#include "server/web/site.h"
#include "server/web/upgrade.h"
#include "server/web/ws_frame.h"
#include "support/web_client.h"

namespace xq::server::web {
namespace {

namespace fs = std::filesystem;

using test::ws_client_frame;

struct Seen {
    std::vector<std::pair<WsOpcode, std::string>> frames;
    std::function<bool(const WsReader::Frame&)> sink() {
        return [this](const WsReader::Frame& f) {
            frames.emplace_back(f.opcode, std::string(f.payload));
            return true;
        };
    }
};

TEST(WsFrame, ServerHeadersUseTheShortestLength) {
    WsHeader h;
    EXPECT_EQ(ws_header(WsOpcode::Binary, 5, h), 2u);
    EXPECT_EQ(static_cast<unsigned char>(h[0]), 0x82);
    EXPECT_EQ(h[1], 5);
    EXPECT_EQ(ws_header(WsOpcode::Binary, 300, h), 4u);
    EXPECT_EQ(static_cast<unsigned char>(h[1]), 126);
    EXPECT_EQ(ws_header(WsOpcode::Binary, 70000, h), 10u);
    EXPECT_EQ(static_cast<unsigned char>(h[1]), 127);
    EXPECT_EQ(ws_close_payload(WsClose::TooBig, "big"), std::string("\x03\xf1", 2) + "big");
}

TEST(WsFrame, MessagesArriveWholeWhateverTheCuts) {
    const std::string payload(300, 'x');
    const std::string stream = ws_client_frame(0x82, "one") + ws_client_frame(0x89, "ping") + ws_client_frame(0x82, payload);
    Seen seen;
    WsReader reader(1000);
    for (const char c : stream) ASSERT_FALSE(reader.take(std::string_view(&c, 1), seen.sink()));
    ASSERT_EQ(seen.frames.size(), 3u);
    EXPECT_EQ(seen.frames[0], std::pair(WsOpcode::Binary, std::string("one")));
    EXPECT_EQ(seen.frames[1], std::pair(WsOpcode::Ping, std::string("ping")));
    EXPECT_EQ(seen.frames[2].second, payload);
    EXPECT_FALSE(reader.mid_frame());
    // A fragmented message with a control frame between its parts.
    Seen parts;
    ASSERT_FALSE(reader.take(ws_client_frame(0x02, "ab") + ws_client_frame(0x8A, "") + ws_client_frame(0x80, "cd"), parts.sink()));
    ASSERT_EQ(parts.frames.size(), 2u);
    EXPECT_EQ(parts.frames[0].first, WsOpcode::Pong);
    EXPECT_EQ(parts.frames[1], std::pair(WsOpcode::Binary, std::string("abcd")));
}

TEST(WsFrame, BrokenStreamsAreRefusedWithTheirCloseCode) {
    const auto error_of = [](const std::string& bytes, std::size_t max = 100) {
        Seen seen;
        WsReader reader(max);
        const auto e = reader.take(bytes, seen.sink());
        return e ? static_cast<int>(e->code) : 0;
    };
    EXPECT_EQ(error_of(ws_client_frame(0x81, "text")), 1003);
    std::string unmasked = ws_client_frame(0x82, "x");
    unmasked[1] = static_cast<char>(unmasked[1] & 0x7F);
    EXPECT_EQ(error_of(unmasked), 1002);
    EXPECT_EQ(error_of(ws_client_frame(0xC2, "x")), 1002);  // a reserved bit
    EXPECT_EQ(error_of(ws_client_frame(0x83, "x")), 1002);  // opcode 3
    EXPECT_EQ(error_of(ws_client_frame(0x80, "x")), 1002);  // a continuation of nothing
    EXPECT_EQ(error_of(ws_client_frame(0x02, "x") + ws_client_frame(0x82, "y")), 1002);
    EXPECT_EQ(error_of(ws_client_frame(0x09, "x")), 1002);  // a fragmented ping
    EXPECT_EQ(error_of(ws_client_frame(0x82, std::string(101, 'x'))), 1009);
    EXPECT_EQ(error_of(ws_client_frame(0x02, std::string(60, 'x')) + ws_client_frame(0x80, std::string(60, 'x'))), 1009);
    // Refused on the header alone: 2^62 bytes announced, none sent.
    std::string huge{static_cast<char>(0x82), static_cast<char>(0xFF), 0x40, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(error_of(huge), 1009);
    // 2^64 - 1 announced after a first fragment: the sum must not wrap round to a small size.
    std::string wrap = ws_client_frame(0x02, "abcde");
    wrap += std::string{static_cast<char>(0x80), static_cast<char>(0xFF)} + std::string(8, static_cast<char>(0xFF));
    EXPECT_EQ(error_of(wrap), 1009);
}

TEST(Upgrade, AcceptKeyAndOrigin) {
    EXPECT_EQ(websocket_accept("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");  // RFC 6455 1.3
    EXPECT_TRUE(origin_allowed("", "example.org:7777"));
    EXPECT_TRUE(origin_allowed("https://example.org:7777", "example.org:7777"));
    EXPECT_TRUE(origin_allowed("http://Example.ORG:7777", "example.org:7777"));
    EXPECT_FALSE(origin_allowed("https://example.org", "example.org:7777"));
    EXPECT_FALSE(origin_allowed("https://evil.example", "example.org:7777"));
    EXPECT_FALSE(origin_allowed("https://example.org:7777.evil.example", "example.org:7777"));
    EXPECT_FALSE(origin_allowed("null", "example.org:7777"));
    EXPECT_FALSE(origin_allowed("ftp://example.org:7777", "example.org:7777"));
    EXPECT_FALSE(origin_allowed("https://example.org:7777", ""));
}

TEST(Site, WhichNamesMayBeAssets) {
    EXPECT_EQ(asset_name("app-7QX3KD2M.js"), "app-7QX3KD2M.js");
    EXPECT_EQ(asset_name("a%20b.css"), "a b.css");
    for (const std::string& bad : std::vector<std::string>{"", ".", "..", "%2e%2e", "%2E%2e", ".hidden", "a/b", "a%2fb", "a%5cb", "a\\b", "a%00b",
                                  "a%0ab", "%", "%2", "%zz", std::string(256, 'a')})
        EXPECT_FALSE(asset_name(bad)) << bad;
    EXPECT_EQ(content_type("x.JS"), "text/javascript; charset=utf-8");
    EXPECT_EQ(content_type("x.woff2"), "font/woff2");
    EXPECT_EQ(content_type("noext"), "application/octet-stream");
}

class SiteFiles : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("xq-site-" + std::to_string(::getpid()));
        fs::remove_all(root_);
        fs::create_directories(root_ / "assets");
        std::ofstream(root_ / "assets" / "main-ABCDEFGH.js") << "js";
        std::ofstream(root_ / "secret.txt") << "secret";
        fs::create_symlink(root_ / "secret.txt", root_ / "assets" / "out.txt");
        fs::create_directories(root_ / "assets" / "dir");
    }
    void TearDown() override { fs::remove_all(root_); }
    fs::path root_;
};

TEST_F(SiteFiles, OnlyRegularFilesInsideTheAssetsFolder) {
    const Site site(root_);
    const auto js = site.asset("main-ABCDEFGH.js");
    ASSERT_TRUE(js);
    EXPECT_EQ(js->body, "js");
    EXPECT_TRUE(js->immutable);
    EXPECT_FALSE(site.asset("out.txt"));  // a link leading out
    EXPECT_FALSE(site.asset("dir"));      // no listing
    EXPECT_FALSE(site.asset("missing.js"));
    EXPECT_FALSE(site.index());  // not built: no index.html
    std::ofstream(root_ / "index.html") << "page";
    EXPECT_EQ(site.index()->body, "page");
    std::ofstream(root_ / "assets" / "big.js") << std::string(Site::kMaxFileBytes + 1, 'x');
    EXPECT_FALSE(site.asset("big.js"));
}

TEST_F(SiteFiles, HttpExchangesByteByBytePipelinedAndUpToTheLimit) {
    const Site site(root_);
    HttpExchange http(site, HttpLimits{.requests = 2});
    std::string out;
    const std::string request = "GET /assets/main-ABCDEFGH.js HTTP/1.1\r\nHost: x\r\n\r\n";
    for (std::size_t i = 0; i + 1 < request.size(); ++i) {
        EXPECT_EQ(http.take(request.substr(i, 1), out), HttpExchange::Next::More);
    }
    EXPECT_TRUE(out.empty());
    EXPECT_EQ(http.take(request.substr(request.size() - 1), out), HttpExchange::Next::More);
    EXPECT_TRUE(out.starts_with("HTTP/1.1 200 OK\r\n"));
    EXPECT_TRUE(out.ends_with("\r\n\r\njs"));
    // The second request is the last this connection gets.
    out.clear();
    EXPECT_EQ(http.take("GET / HTTP/1.1\r\nHost: x\r\n\r\n", out), HttpExchange::Next::Close);
    EXPECT_TRUE(out.starts_with("HTTP/1.1 404 Not Found\r\n"));  // the page is not built
    EXPECT_NE(out.find("Connection: close\r\n"), std::string::npos);
    EXPECT_NE(out.find("not built"), std::string::npos);
}

TEST_F(SiteFiles, AnUpgradeKeepsTheBytesThatFollowIt) {
    const Site site(root_);
    HttpExchange http(site);
    std::string out;
    const std::string upgrade =
        "GET /ws HTTP/1.1\r\nHost: h:1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nOrigin: https://h:1\r\n"
        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
    EXPECT_EQ(http.take(upgrade + "FRAME", out), HttpExchange::Next::Upgrade);
    EXPECT_TRUE(out.starts_with("HTTP/1.1 101 Switching Protocols\r\n"));
    EXPECT_NE(out.find("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"), std::string::npos);
    EXPECT_EQ(http.leftover(), "FRAME");
}

}  // namespace
}  // namespace xq::server::web
