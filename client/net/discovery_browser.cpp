#include "client/net/discovery_browser.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include "client/net/asio.h"

namespace xq::client {
namespace {

using boost::system::error_code;
constexpr auto kListenFor = std::chrono::milliseconds(1500);

}  // namespace

struct DiscoveryBrowser::Impl {
    Impl(std::uint16_t port, std::vector<std::string> addresses) : discovery_port(port), targets(std::move(addresses)) {}

    // One search, on the search thread: ask every target, collect replies until the time is up.
    void search() {
        try {
            ask_and_listen();
        } catch (...) {
            // Nothing of a search is worth ending the program for; the list keeps what it had.
        }
        {
            std::lock_guard lock(mutex);
            std::erase_if(found, [&](const auto& entry) { return entry.second.round != round; });
        }
        searching = false;
    }

    void ask_and_listen() {
        udp::socket socket(io);
        error_code ec;
        socket.open(udp::v4(), ec);
        if (ec) return;
        socket.set_option(asio::socket_base::broadcast(true), ec);
        socket.bind(udp::endpoint(udp::v4(), 0), ec);
        if (ec) return;
        const std::string request = proto::discovery_request();
        for (const std::string& target : targets) {
            // Each target on its own: no broadcast route must not stop the loopback question.
            const auto address = asio::ip::make_address_v4(target, ec);
            if (ec) continue;
            socket.send_to(asio::buffer(request),
                           udp::endpoint(address, discovery_port), 0, ec);
        }
        asio::steady_timer deadline(io, kListenFor);
        deadline.async_wait([&](const error_code&) {
            error_code ignored;
            socket.close(ignored);
        });
        std::array<char, proto::kMaxDiscoveryDatagram> buffer{};
        udp::endpoint sender;
        std::function<void()> receive = [&] {
            socket.async_receive_from(asio::buffer(buffer), sender, [&](const error_code& receive_ec, std::size_t n) {
                if (receive_ec == asio::error::operation_aborted || !socket.is_open()) return;
                if (!receive_ec) take(std::string_view(buffer.data(), n), sender);
                receive();  // errors such as ICMP port unreachable only concern one target
            });
        };
        receive();
        io.run();
    }

    void take(std::string_view datagram, const udp::endpoint& sender) {
        auto reply = proto::parse_discovery_reply(datagram);
        if (!reply) return;  // our own broadcast echoed back, or something else on the port
        FoundServer server{reply->name, sender.address().to_string(), reply->port, reply->open_games, reply->live_games,
                           reply->fingerprint};
        std::lock_guard lock(mutex);
        auto key = std::make_pair(server.address, server.port);
        found[std::move(key)] = Seen{std::move(server), round};
    }

    struct Seen {
        FoundServer server;
        unsigned round = 0;
    };

    std::uint16_t discovery_port;
    std::vector<std::string> targets;
    asio::io_context io{1};
    std::thread thread;
    std::atomic<bool> searching{false};
    mutable std::mutex mutex;
    std::map<std::pair<std::string, std::uint16_t>, Seen> found;
    unsigned round = 0;  // the search in progress or the last one
};

DiscoveryBrowser::DiscoveryBrowser(std::uint16_t discovery_port, std::vector<std::string> targets)
    : impl_(std::make_unique<Impl>(discovery_port, std::move(targets))) {}

DiscoveryBrowser::~DiscoveryBrowser() {
    impl_->io.stop();
    if (impl_->thread.joinable()) impl_->thread.join();
}

void DiscoveryBrowser::refresh() {
    if (impl_->searching) return;
    if (impl_->thread.joinable()) impl_->thread.join();  // the last search has finished
    {
        std::lock_guard lock(impl_->mutex);
        ++impl_->round;
    }
    impl_->searching = true;
    impl_->io.restart();
    try {
        impl_->thread = std::thread([impl = impl_.get()] { impl->search(); });
    } catch (const std::system_error&) {
        impl_->searching = false;  // no thread to spare: this refresh finds nothing
    }
}

std::vector<FoundServer> DiscoveryBrowser::servers() const {
    std::vector<FoundServer> list;
    {
        std::lock_guard lock(impl_->mutex);
        for (const auto& [key, seen] : impl_->found) list.push_back(seen.server);
    }
    std::sort(list.begin(), list.end(), [](const FoundServer& a, const FoundServer& b) {
        return std::tie(a.name, a.address, a.port) < std::tie(b.name, b.address, b.port);
    });
    return list;
}

bool DiscoveryBrowser::searching() const { return impl_->searching; }

}  // namespace xq::client
