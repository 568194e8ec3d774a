#pragma once
// Boost.Asio for the cluster layer. Boost 1.74's awaitable.hpp uses std::exchange without
// including <utility>, so that include must come first (as in server/net/asio.h, which this layer
// may not include).

#include <utility>

#include <boost/asio.hpp>

namespace xq::cluster {

namespace asio = boost::asio;

}  // namespace xq::cluster
