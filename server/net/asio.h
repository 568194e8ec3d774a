#pragma once
// The one header that brings in Boost.Asio. Boost 1.74's awaitable.hpp uses std::exchange without
// including <utility>, so that include must come first.

#include <utility>

#include <boost/asio.hpp>

namespace xq::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using udp = asio::ip::udp;

}  // namespace xq::server
