#include "test_client.h"

#include <poll.h>
#include <sys/socket.h>

#include <stdexcept>

#include "proto/codec.h"
#include "tls/context.h"

namespace xq::test {

namespace asio = boost::asio;
using asio::ip::tcp;

TestClient::TestClient(std::uint16_t port, std::chrono::milliseconds timeout) : TestClient("127.0.0.1", port, timeout) {}

TestClient::TestClient(const std::string& address, std::uint16_t port, std::chrono::milliseconds timeout)
    : socket_(io_), timeout_(timeout) {
    socket_.connect(tcp::endpoint(asio::ip::make_address(address), port));
    socket_.set_option(tcp::no_delay(true));
}

TestClient::TestClient(const std::string& address, std::uint16_t port, std::chrono::milliseconds timeout,
                       const std::string& from)
    : socket_(io_), timeout_(timeout) {
    const auto to = asio::ip::make_address(address);
    socket_.open(to.is_v4() ? tcp::v4() : tcp::v6());
    socket_.bind(tcp::endpoint(asio::ip::make_address(from), 0));
    socket_.connect(tcp::endpoint(to, port));
    socket_.set_option(tcp::no_delay(true));
}

TestClient::TestClient(Tls, const std::string& address, std::uint16_t port, std::chrono::milliseconds timeout)
    : TestClient(address, port, timeout) {
    tls_context_ = tls::client_context();
    tls_ = std::make_unique<asio::ssl::stream<tcp::socket&>>(socket_, *tls_context_);
    auto record = std::make_shared<tls::PeerRecord>();
    tls::verify_server(*tls_, address, record);
    tls_->handshake(asio::ssl::stream_base::client);  // throws on failure
    fingerprint_ = record->fingerprint;
    socket_.non_blocking(true);
}

TestClient::~TestClient() = default;

std::uint64_t TestClient::send(proto::ClientBody body) {
    const std::uint64_t id = next_id_++;
    send_raw(proto::encode_frame(proto::ClientMessage{id, std::move(body)}));
    return id;
}

void TestClient::send_raw(std::string_view bytes) {
    boost::system::error_code ec;
    if (tls_) asio::write(*tls_, asio::buffer(bytes.data(), bytes.size()), ec);
    else asio::write(socket_, asio::buffer(bytes.data(), bytes.size()), ec);
}

std::optional<proto::ServerMessage> TestClient::read_one() {
    const auto deadline = std::chrono::steady_clock::now() + timeout_;
    while (auto m = read_any(deadline)) {
        const auto* ping = std::get_if<proto::Ping>(&m->body);
        if (!ping) {
            take_pings();
            send_due_pongs();
            return m;
        }
        pongs_due_.emplace_back(ping->nonce, std::chrono::steady_clock::now() + pong_delay_);
    }
    return std::nullopt;
}

void TestClient::take_pings() {
    for (auto it = payloads_.begin(); it != payloads_.end();) {
        auto message = proto::decode_server(*it);
        const auto* ping = message ? std::get_if<proto::Ping>(&message->body) : nullptr;
        if (!ping) {
            ++it;
            continue;
        }
        pongs_due_.emplace_back(ping->nonce, std::chrono::steady_clock::now() + pong_delay_);
        it = payloads_.erase(it);
    }
}

void TestClient::idle(std::chrono::milliseconds time) {
    const auto deadline = std::chrono::steady_clock::now() + time;
    while (auto m = read_any(deadline)) {
        if (const auto* ping = std::get_if<proto::Ping>(&m->body))
            pongs_due_.emplace_back(ping->nonce, std::chrono::steady_clock::now() + pong_delay_);
        else
            pending_.push_back(std::move(*m));
    }
    send_due_pongs();
}

std::optional<std::chrono::milliseconds> TestClient::send_due_pongs() {
    const auto now = std::chrono::steady_clock::now();
    while (!pongs_due_.empty() && pongs_due_.front().second <= now) {
        send_raw(proto::encode_frame(proto::ClientMessage{0, proto::Pong{pongs_due_.front().first}}));
        pongs_due_.pop_front();
        ++pings_answered_;
    }
    if (pongs_due_.empty()) return std::nullopt;
    return std::chrono::ceil<std::chrono::milliseconds>(pongs_due_.front().second - now);
}

std::optional<proto::ServerMessage> TestClient::read_any(std::chrono::steady_clock::time_point deadline) {
    while (payloads_.empty()) {
        if (eof_) return std::nullopt;
        // Waits until the deadline, or until the next delayed Pong is due.
        const auto pong_in = send_due_pongs();
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        const auto wait = pong_in ? std::min(left, *pong_in) : left;
        // Asio's blocking read polls again (without a limit) when SO_RCVTIMEO expires, so the
        // timeout is a poll() before the read.
        char buffer[16384];
        boost::system::error_code ec;
        std::size_t n = 0;
        if (tls_) {
            // Asio keeps ciphertext it has read but not yet decrypted where poll() cannot see it: try
            // a read on the non-blocking socket first, and poll only when it would block.
            n = tls_->read_some(asio::buffer(buffer), ec);
            if (ec == asio::error::would_block || ec == asio::error::try_again) {
                pollfd ready{socket_.native_handle(), POLLIN, 0};
                ::poll(&ready, 1, static_cast<int>(wait.count()));
                continue;
            }
        } else {
            pollfd ready{socket_.native_handle(), POLLIN, 0};
            if (::poll(&ready, 1, static_cast<int>(wait.count())) <= 0) continue;
            n = socket_.read_some(asio::buffer(buffer), ec);
        }
        if (ec) {
            eof_ = ec == asio::error::eof || ec == asio::error::connection_reset || ec == asio::ssl::error::stream_truncated;
            return std::nullopt;  // timeout (EAGAIN) or closed
        }
        auto frames = reader_.feed(std::string_view(buffer, n));
        if (!frames) throw std::runtime_error("server sent a bad frame: " + frames.error().message);
        for (auto& f : *frames) payloads_.push_back(std::move(f));
    }
    auto message = proto::decode_server(payloads_.front());
    payloads_.pop_front();
    if (!message) throw std::runtime_error("server sent an undecodable message: " + message.error().message);
    return std::move(*message);
}

std::optional<proto::ServerMessage> TestClient::next() {
    if (!pending_.empty()) {
        auto m = std::move(pending_.front());
        pending_.pop_front();
        return m;
    }
    return read_one();
}

proto::ServerMessage TestClient::reply(std::uint64_t id) {
    for (auto it = pending_.begin(); it != pending_.end(); ++it)
        if (it->request_id == id) {
            auto m = std::move(*it);
            pending_.erase(it);
            return m;
        }
    while (auto m = read_one()) {
        if (m->request_id == id) return std::move(*m);
        pending_.push_back(std::move(*m));
    }
    throw std::runtime_error("no reply to request " + std::to_string(id));
}

bool TestClient::closed_by_server() {
    while (auto m = next()) {}
    return eof_;
}

void TestClient::hello(const std::string& name) {
    const auto m = call(proto::Hello{"test", name, proto::kProtocolVersion});
    if (!std::holds_alternative<proto::Welcome>(m.body)) throw std::runtime_error("no Welcome for " + name);
}

}  // namespace xq::test
