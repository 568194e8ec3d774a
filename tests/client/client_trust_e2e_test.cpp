// The client's trust in a TLS server (issue 18), end to end under Xvfb: a known server that shows
// a different certificate is refused with the message on screen (both fingerprints), and an
// unknown one is asked about, trusted with a click and remembered.

#include "e2e_harness.h"
#include "client/net/trust.h"
#include "tls/certificate.h"

namespace xq::client {
namespace {

using namespace e2e;

class ClientTrustEndToEnd : public ::testing::Test {
protected:
    void SetUp() override {
        if (!std::getenv("DISPLAY")) GTEST_SKIP() << "needs an X display (./xq test runs under xvfb-run)";
        ASSERT_TRUE(run("command -v xdotool")) << "xdotool is missing";
        fs::create_directories(kShots);
        dir_ = fs::temp_directory_path() / ("xq-e2e-trust-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
        LocalServerOptions options;
        options.binary = XQ_SERVER_BIN_PATH;
        options.db = dir_ / "games.db";
        options.name = "e2e";
        auto started = LocalServer::start(options);  // TLS, a self-signed certificate beside the db
        ASSERT_TRUE(started) << started.error();
        server_.emplace(std::move(*started));
        ASSERT_EQ(server_->fingerprint().size(), 64u);
        server_key_ = "127.0.0.1:" + std::to_string(server_->port());
    }
    void TearDown() override {
        server_.reset();
        std::error_code ignored;
        if (!std::getenv("XQ_KEEP")) fs::remove_all(dir_, ignored);
    }
    fs::path dir_;
    std::optional<LocalServer> server_;
    std::string server_key_;
};

// The dialog: 680 wide, centred in the 1000 x 700 window at (0, 0); its frame is 2 px inside.
constexpr int kDialogX = 160;
constexpr unsigned long kDanger = 0xde4437, kAccent = 0xd6a03c;

TEST_F(ClientTrustEndToEnd, AKnownServerWithAnotherCertificateIsRefusedOnScreen) {
    // This client once trusted another certificate at this address.
    const tls::CertificateFiles other{dir_ / "other.cert.pem", dir_ / "other.key.pem"};
    ASSERT_TRUE(tls::make_self_signed(other, "someone else"));
    const std::string remembered = *tls::fingerprint_of_file(other.cert);
    const fs::path config = dir_ / "ann";
    ASSERT_TRUE(KnownHosts::load(known_hosts_in(config)).remember(server_key_, remembered));

    ClientWindow ann("ann", {"--connect", server_key_}, config);
    const int top = (700 - 330) / 2;  // the refusal's height
    EXPECT_TRUE(pixel_becomes(kDialogX + 1, top + 1, kDanger)) << "no refusal drawn";
    std::this_thread::sleep_for(300ms);
    ann.screenshot("trust-refused");
    EXPECT_TRUE(ann.running());
    // Refused, not remembered: the old fingerprint stays.
    EXPECT_EQ(KnownHosts::load(known_hosts_in(config)).find(server_key_), remembered);
    // Close dismisses it; the start screen is back.
    ann.click({kDialogX + 680 - 80, static_cast<float>(top + 330 - 31)});
    bool gone = false;
    for (int i = 0; i < 50 && !gone; ++i) {
        gone = screen_pixel(kDialogX + 1, top + 1) != kDanger;
        std::this_thread::sleep_for(100ms);
    }
    EXPECT_TRUE(gone) << "the refusal stayed after Close";
}

TEST_F(ClientTrustEndToEnd, AnUnknownServerIsAskedAboutAndRememberedOnTrust) {
    const fs::path config = dir_ / "bob";
    ClientWindow bob("bob", {"--connect", server_key_}, config);
    const int top = (700 - 290) / 2;  // the question's height
    EXPECT_TRUE(pixel_becomes(kDialogX + 1, top + 1, kAccent)) << "no question drawn";
    std::this_thread::sleep_for(300ms);
    bob.screenshot("trust-first-contact");
    EXPECT_FALSE(KnownHosts::load(known_hosts_in(config)).find(server_key_)) << "remembered before the person said so";
    bob.click({kDialogX + 680 - 220, static_cast<float>(top + 290 - 31)});  // Trust
    bool remembered = false;
    for (int i = 0; i < 100 && !remembered; ++i) {
        remembered = KnownHosts::load(known_hosts_in(config)).find(server_key_) == server_->fingerprint();
        std::this_thread::sleep_for(100ms);
    }
    EXPECT_TRUE(remembered);
}

}  // namespace
}  // namespace xq::client
