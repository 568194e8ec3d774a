#pragma once
// The one header of client/net that brings in Boost.Asio. Boost 1.74's awaitable.hpp uses
// std::exchange without including <utility>, so that include must come first.

#include <utility>

#include <boost/asio.hpp>

namespace xq::client {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using udp = asio::ip::udp;

}  // namespace xq::client
