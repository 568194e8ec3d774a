#pragma once
// The one header that brings in Asio's SSL layer. Boost 1.74's awaitable.hpp uses std::exchange
// without including <utility>, so that include must come first.

#include <utility>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>

namespace xq::tls {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;

}  // namespace xq::tls
