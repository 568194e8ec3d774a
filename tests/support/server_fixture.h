#pragma once
// An in-process server on an ephemeral loopback port, run on its own thread, for socket-level
// tests; a derived fixture overrides configure() to shorten grace periods, limits and timeouts.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include <unistd.h>

#include "server/log/log.h"
#include "server/net/server.h"
#include "support/test_client.h"

namespace xq::test {

class ServerFixture : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("xq-server-fixture-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
        std::filesystem::create_directories(dir_);
        server::ServerConfig config;
        config.listen = server::tcp::endpoint(server::asio::ip::make_address("127.0.0.1"), 0);
        config.db = dir_ / "test.db";
        config.name = "test server";
        // The game tests see names as typed (a LAN server's); the accounts tests turn accounts on.
        config.accounts = proto::AccountsMode::Off;
        if (std::getenv("XQ_TEST_DEBUG")) server::set_log_level(server::LogLevel::Debug);
        configure(config);
        server_ = std::make_unique<server::Server>(io_, config);
        server_->start();
        thread_ = std::thread([this] { io_.run(); });
    }
    void TearDown() override {
        server::asio::post(io_, [this] {
            server_->stop();
            io_.stop();
        });
        thread_.join();
        server_.reset();
        std::filesystem::remove_all(dir_);
    }

    virtual void configure(server::ServerConfig&) {}

    std::unique_ptr<TestClient> client(const std::string& name,
                                       std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
        auto c = std::make_unique<TestClient>(server_->port(), timeout);
        c->hello(name);
        return c;
    }

    static inline int counter_ = 0;
    std::filesystem::path dir_;
    server::asio::io_context io_{1};
    std::unique_ptr<server::Server> server_;
    std::thread thread_;
};

// The reply's body as a T (a copy, so `const auto& x = as<T>(client.call(...))` does not dangle); a
// different kind is a test failure that names it.
template <class T>
T as(const proto::ServerMessage& m) {
    const T* body = std::get_if<T>(&m.body);
    if (!body) {
        const auto* e = std::get_if<proto::Error>(&m.body);
        ADD_FAILURE() << "unexpected message kind " << m.body.index() << (e ? " error: " + e->message : "");
        return T{};
    }
    return *body;
}

// The error code of a reply, Unspecified when it is not an Error.
inline proto::ErrorCode error_of(const proto::ServerMessage& m) {
    const auto* e = std::get_if<proto::Error>(&m.body);
    return e ? e->code : proto::ErrorCode::Unspecified;
}

}  // namespace xq::test
