#include "server/net/discovery.h"

#include <array>
#include <cstring>

#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include "server/log/log.h"

namespace xq::server {
namespace {

unsigned prefix_of(const sockaddr* mask) {
    const auto* bytes = mask->sa_family == AF_INET
                            ? reinterpret_cast<const unsigned char*>(&reinterpret_cast<const sockaddr_in*>(mask)->sin_addr)
                            : reinterpret_cast<const unsigned char*>(&reinterpret_cast<const sockaddr_in6*>(mask)->sin6_addr);
    const std::size_t size = mask->sa_family == AF_INET ? 4 : 16;
    unsigned bits = 0;
    for (std::size_t i = 0; i < size; ++i) bits += static_cast<unsigned>(__builtin_popcount(bytes[i]));
    return bits;
}

template <std::size_t N>
bool same_prefix(const std::array<unsigned char, N>& a, const std::array<unsigned char, N>& b, unsigned prefix) {
    for (std::size_t i = 0; i < N && prefix > 0; ++i, prefix = prefix >= 8 ? prefix - 8 : 0) {
        const auto mask = static_cast<unsigned char>(prefix >= 8 ? 0xff : 0xff << (8 - prefix));
        if ((a[i] & mask) != (b[i] & mask)) return false;
    }
    return true;
}

}  // namespace

std::vector<LocalSubnet> local_subnets() {
    std::vector<LocalSubnet> subnets;
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0) return subnets;
    for (const ifaddrs* i = list; i; i = i->ifa_next) {
        if (!i->ifa_addr || !i->ifa_netmask || !(i->ifa_flags & IFF_UP)) continue;
        if (i->ifa_addr->sa_family == AF_INET) {
            const auto* in = reinterpret_cast<const sockaddr_in*>(i->ifa_addr);
            asio::ip::address_v4::bytes_type bytes;
            std::memcpy(bytes.data(), &in->sin_addr, 4);
            subnets.push_back({asio::ip::address_v4(bytes), prefix_of(i->ifa_netmask)});
        } else if (i->ifa_addr->sa_family == AF_INET6) {
            const auto* in6 = reinterpret_cast<const sockaddr_in6*>(i->ifa_addr);
            asio::ip::address_v6::bytes_type bytes;
            std::memcpy(bytes.data(), &in6->sin6_addr, 16);
            subnets.push_back({asio::ip::address_v6(bytes, in6->sin6_scope_id), prefix_of(i->ifa_netmask)});
        }
    }
    ::freeifaddrs(list);
    return subnets;
}

bool on_local_network(const asio::ip::address& sender, const std::vector<LocalSubnet>& subnets) {
    auto from = sender;
    if (from.is_v6() && from.to_v6().is_v4_mapped()) from = from.to_v6().to_v4();
    if (from.is_loopback()) return true;
    for (const auto& subnet : subnets) {
        if (subnet.address.is_v4() && from.is_v4()) {
            if (same_prefix(subnet.address.to_v4().to_bytes(), from.to_v4().to_bytes(), subnet.prefix)) return true;
        } else if (subnet.address.is_v6() && from.is_v6()) {
            if (same_prefix(subnet.address.to_v6().to_bytes(), from.to_v6().to_bytes(), subnet.prefix)) return true;
        }
    }
    return false;
}

DiscoveryResponder::DiscoveryResponder(asio::io_context& io, const udp::endpoint& listen,
                                       std::function<proto::DiscoveryReply()> describe)
    : socket_(io), describe_(std::move(describe)) {
    socket_.open(listen.protocol());
    socket_.set_option(asio::socket_base::reuse_address(true));
    socket_.bind(listen);
}

void DiscoveryResponder::start() { asio::co_spawn(socket_.get_executor(), serve(), asio::detached); }

void DiscoveryResponder::stop() {
    boost::system::error_code ignored;
    socket_.close(ignored);
}

asio::awaitable<void> DiscoveryResponder::serve() {
    std::array<char, proto::kMaxDiscoveryDatagram> buffer{};
    while (socket_.is_open()) {
        udp::endpoint sender;
        boost::system::error_code ec;
        const std::size_t n = co_await socket_.async_receive_from(asio::buffer(buffer), sender,
                                                                  asio::redirect_error(asio::use_awaitable, ec));
        if (ec == asio::error::operation_aborted || !socket_.is_open()) co_return;
        // Anything but a well-formed request is ignored: answering junk would make us an amplifier.
        if (ec || !proto::is_discovery_request(std::string_view(buffer.data(), n))) continue;
        // Off the LAN (a forged or routed sender) nothing is said.
        if (!on_local_network(sender.address(), local_subnets())) continue;
        const std::string reply = proto::encode_discovery_reply(describe_());
        if (reply.size() > n) continue;  // never more bytes out than came in
        co_await socket_.async_send_to(asio::buffer(reply), sender, asio::redirect_error(asio::use_awaitable, ec));
        if (ec) log(LogLevel::Debug, "discovery reply to ", sender.address().to_string(), " failed: ", ec.message());
    }
}

}  // namespace xq::server
