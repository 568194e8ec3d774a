// relay: the reference the server benchmark compares against. A bare length-prefixed Asio relay:
// it pairs connections in the order it accepts them and forwards every whole frame to the
// partner. No protobuf, no rules, no storage; one thread, like the server.
//
// usage: relay [--listen ADDR:PORT]   (prints "relay listening on PORT" once bound)

#include <utility>

#include <boost/asio.hpp>
#include <array>
#include <csignal>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

constexpr std::size_t kHeaderBytes = 4;
constexpr std::size_t kMaxFrameBytes = 64 * 1024;

class Link : public std::enable_shared_from_this<Link> {
public:
    explicit Link(tcp::socket socket) : socket_(std::move(socket)) {
        boost::system::error_code ec;
        socket_.set_option(tcp::no_delay(true), ec);
    }

    void pair_with(const std::shared_ptr<Link>& partner) {
        partner_ = partner;
        if (!held_.empty()) partner->send(held_);
        held_.clear();
    }

    void start() { asio::co_spawn(socket_.get_executor(), read_loop(shared_from_this()), asio::detached); }

    void send(std::string_view bytes) {
        if (closed_) return;
        pending_.append(bytes);
        if (!writing_) flush();
    }

    bool closed() const { return closed_; }

    void close() {
        if (closed_) return;
        closed_ = true;
        boost::system::error_code ignored;
        socket_.close(ignored);
        if (auto partner = partner_.lock()) partner->close();
    }

private:
    // Cuts whole frames off the inbound bytes and forwards them, keeping any partial frame.
    asio::awaitable<void> read_loop([[maybe_unused]] std::shared_ptr<Link> self) {
        std::array<char, 16 * 1024> buffer{};
        std::string inbound;
        while (!closed_) {
            boost::system::error_code ec;
            const std::size_t n =
                co_await socket_.async_read_some(asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
            if (ec) {
                close();
                co_return;
            }
            inbound.append(buffer.data(), n);
            std::size_t whole = 0;
            while (inbound.size() - whole >= kHeaderBytes) {
                const auto* h = reinterpret_cast<const unsigned char*>(inbound.data() + whole);
                const std::size_t length = std::size_t{h[0]} << 24 | std::size_t{h[1]} << 16 | std::size_t{h[2]} << 8 | h[3];
                if (length > kMaxFrameBytes) {
                    close();
                    co_return;
                }
                if (inbound.size() - whole < kHeaderBytes + length) break;
                whole += kHeaderBytes + length;
            }
            if (whole == 0) continue;
            const std::string_view frames(inbound.data(), whole);
            if (auto partner = partner_.lock()) partner->send(frames);
            else held_.append(frames);
            inbound.erase(0, whole);
        }
    }

    void flush() {
        writing_ = true;
        inflight_.swap(pending_);
        pending_.clear();
        asio::async_write(socket_, asio::buffer(inflight_),
                          [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
                              self->writing_ = false;
                              if (ec) return self->close();
                              if (!self->pending_.empty() && !self->closed_) self->flush();
                          });
    }

    tcp::socket socket_;
    std::weak_ptr<Link> partner_;
    std::string held_;  // frames read before the partner arrived
    std::string pending_;
    std::string inflight_;
    bool writing_ = false;
    bool closed_ = false;
};

asio::awaitable<void> accept_loop(tcp::acceptor& acceptor) {
    // Each link is kept alive by its own read loop; partners know each other only weakly.
    std::shared_ptr<Link> waiting;
    for (;;) {
        boost::system::error_code ec;
        tcp::socket socket = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
        if (ec == asio::error::operation_aborted) co_return;
        if (ec) continue;
        auto link = std::make_shared<Link>(std::move(socket));
        link->start();
        // A link that left before its partner came (a port probe, say) pairs with nobody.
        if (!waiting || waiting->closed()) {
            waiting = link;
            continue;
        }
        waiting->pair_with(link);
        link->pair_with(waiting);
        waiting.reset();
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::string listen = "127.0.0.1:7778";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--listen" && i + 1 < argc) listen = argv[++i];
        else {
            std::cerr << "usage: relay [--listen ADDR:PORT]\n";
            return 2;
        }
    }
    const auto colon = listen.rfind(':');
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(colon == std::string::npos ? "" : listen.substr(0, colon), ec);
    if (ec) {
        std::cerr << "relay: --listen wants ADDR:PORT, got '" << listen << "'\n";
        return 2;
    }
    std::signal(SIGPIPE, SIG_IGN);
    asio::io_context io(1);
    tcp::acceptor acceptor(io);
    try {
        const tcp::endpoint endpoint(address, static_cast<std::uint16_t>(std::stoi(listen.substr(colon + 1))));
        acceptor.open(endpoint.protocol());
        acceptor.set_option(asio::socket_base::reuse_address(true));
        acceptor.bind(endpoint);
        acceptor.listen(asio::socket_base::max_listen_connections);
    } catch (const std::exception& e) {
        std::cerr << "relay: " << e.what() << "\n";
        return 1;
    }
    std::cout << "relay listening on " << acceptor.local_endpoint().port() << std::endl;
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code&, int) { io.stop(); });
    asio::co_spawn(io, accept_loop(acceptor), asio::detached);
    io.run();
    return 0;
}
