// A reconnect flood against the per-address connection cap: each refusal used to log a line (43 MB
// in two minutes); now a handful are written whatever the flood's size.

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "support/server_fixture.h"

namespace xq {
namespace {

namespace asio = boost::asio;

class LogFloodTest : public test::ServerFixture {
protected:
    void configure(server::ServerConfig& config) override { config.connections.max_per_address = 2; }
};

TEST_F(LogFloodTest, RefusedConnectionsLogAHandfulOfLines) {
    auto a = client("a");
    auto b = client("b");
    const auto path = dir_ / "stderr.log";
    std::fflush(stderr);
    const int saved = ::dup(2);
    const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(file, 0);
    ::dup2(file, 2);
    int refused = 0;
    asio::io_context io;
    for (int i = 0; i < 1000; ++i) {
        asio::ip::tcp::socket s(io);
        s.connect({asio::ip::make_address("127.0.0.1"), server_->port()});
        char byte;
        boost::system::error_code ec;
        s.read_some(asio::buffer(&byte, 1), ec);  // the server closes at once
        refused += ec ? 1 : 0;
    }
    a->call(proto::ListGames{});  // the server has handled every refusal before this reply
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    ::close(file);
    EXPECT_EQ(refused, 1000);
    std::ifstream in(path);
    int lines = 0;
    for (std::string line; std::getline(in, line);) lines += line.find("refusing ") != std::string::npos ? 1 : 0;
    EXPECT_LE(lines, 5);
}

}  // namespace
}  // namespace xq
