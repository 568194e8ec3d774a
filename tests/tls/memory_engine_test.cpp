// tls/memory_engine: a client and a server engine joined by hand, with no socket: the handshake,
// frames both ways, close_notify, and input that is not TLS at all.

#include <gtest/gtest.h>

#include <unistd.h>

#include "tls/certificate.h"
#include "tls/context.h"
#include "tls/memory_engine.h"

namespace xq::tls {
namespace {

namespace fs = std::filesystem;
using Status = MemoryEngine::Status;

class MemoryEngineTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("xq-tls-engine-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        const CertificateFiles files{dir_ / "cert.pem", dir_ / "key.pem"};
        ASSERT_TRUE(make_self_signed(files, "engine-test"));
        auto server = server_context(files);
        ASSERT_TRUE(server) << server.error();
        server_context_ = *server;
        client_context_ = client_context();
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Moves what `from` has written to `to`; the number of bytes moved.
    static std::size_t pass(MemoryEngine& from, MemoryEngine& to) {
        std::string bytes;
        from.take_output(bytes);
        to.feed(bytes);
        return bytes.size();
    }

    // Runs both handshakes to the end, passing bytes back and forth.
    static bool handshake(MemoryEngine& client, MemoryEngine& server) {
        for (int round = 0; round < 10; ++round) {
            const Status c = client.handshake();
            pass(client, server);
            const Status s = server.handshake();
            pass(server, client);
            if (c == Status::Failed || s == Status::Failed) return false;
            if (c == Status::Done && s == Status::Done) return true;
        }
        return false;
    }

    static std::string read_all(MemoryEngine& engine, Status& last) {
        std::string got;
        char buffer[64];  // smaller than what comes, so read() is called again
        for (std::size_t n = 0;;) {
            last = engine.read(buffer, sizeof buffer, n);
            if (n == 0) return got;
            got.append(buffer, n);
        }
    }

    fs::path dir_;
    std::shared_ptr<ssl::context> server_context_, client_context_;
};

TEST_F(MemoryEngineTest, HandshakesAndCarriesBytesBothWays) {
    MemoryEngine client(*client_context_, MemoryEngine::Role::Client);
    MemoryEngine server(*server_context_, MemoryEngine::Role::Server);
    ASSERT_TRUE(handshake(client, server)) << client.error() << " / " << server.error();
    EXPECT_TRUE(client.handshake_done() && server.handshake_done());

    // A header and a payload go out together as one record, and come out in order.
    ASSERT_TRUE(client.write(std::string_view("\x00\x00\x00\x05", 4), "hello"));
    ASSERT_TRUE(client.write("", std::string(300, 'x')));
    const std::size_t sent = pass(client, server);
    EXPECT_LT(sent, 4 + 5 + 300 + 2 * 30) << "two records, each about 22 bytes over its plaintext";
    Status last{};
    EXPECT_EQ(read_all(server, last), std::string("\x00\x00\x00\x05hello", 9) + std::string(300, 'x'));
    EXPECT_EQ(last, Status::Done);

    // Ciphertext fed a byte at a time is decrypted once its record is whole.
    ASSERT_TRUE(server.write("", "reply"));
    std::string bytes;
    server.take_output(bytes);
    std::string got;
    for (char c : bytes) {
        client.feed(std::string_view(&c, 1));
        got += read_all(client, last);
        EXPECT_EQ(last, Status::Done);
    }
    EXPECT_EQ(got, "reply");
    EXPECT_EQ(client.output_size(), 0u);
}

TEST_F(MemoryEngineTest, CloseNotifyReadsAsClosed) {
    MemoryEngine client(*client_context_, MemoryEngine::Role::Client);
    MemoryEngine server(*server_context_, MemoryEngine::Role::Server);
    ASSERT_TRUE(handshake(client, server));
    ASSERT_TRUE(server.write("", "last words"));
    server.shutdown();
    pass(server, client);
    Status last{};
    EXPECT_EQ(read_all(client, last), "last words");
    EXPECT_EQ(last, Status::Closed);
    EXPECT_TRUE(client.peer_closed());
    EXPECT_FALSE(server.peer_closed());
    client.shutdown();
    pass(client, server);
    read_all(server, last);
    EXPECT_TRUE(server.peer_closed());
}

TEST_F(MemoryEngineTest, GarbageInsteadOfAClientHelloFails) {
    MemoryEngine server(*server_context_, MemoryEngine::Role::Server);
    server.feed(std::string(300, 'G'));
    EXPECT_EQ(server.handshake(), Status::Failed);
    EXPECT_FALSE(server.error().empty());
    // An empty engine only waits.
    MemoryEngine waiting(*server_context_, MemoryEngine::Role::Server);
    EXPECT_EQ(waiting.handshake(), Status::More);
}

TEST_F(MemoryEngineTest, TamperedRecordFails) {
    MemoryEngine client(*client_context_, MemoryEngine::Role::Client);
    MemoryEngine server(*server_context_, MemoryEngine::Role::Server);
    ASSERT_TRUE(handshake(client, server));
    ASSERT_TRUE(client.write("", "move h2e2"));
    std::string bytes;
    client.take_output(bytes);
    bytes[bytes.size() - 3] ^= 1;  // in the tag
    server.feed(bytes);
    Status last{};
    EXPECT_EQ(read_all(server, last), "");
    EXPECT_EQ(last, Status::Failed);
}

}  // namespace
}  // namespace xq::tls
