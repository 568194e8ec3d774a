#include "server/net/discovery.h"

#include <array>

#include "server/log/log.h"

namespace xq::server {

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
        const std::string reply = proto::encode_discovery_reply(describe_());
        co_await socket_.async_send_to(asio::buffer(reply), sender, asio::redirect_error(asio::use_awaitable, ec));
        if (ec) log(LogLevel::Debug, "discovery reply to ", sender.address().to_string(), " failed: ", ec.message());
    }
}

}  // namespace xq::server
