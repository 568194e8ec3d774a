// The watch page's link the client copies (client/model/watch_link.h): scheme by TLS, the game
// port, IPv6 in brackets.
#include <gtest/gtest.h>

#include "client/model/watch_link.h"

namespace xq::client {
namespace {

TEST(WatchLink, HttpsOnTlsHttpOnAPlainConnection) {
    EXPECT_EQ(watch_link("xq.example.org", 7777, true, 42), "https://xq.example.org:7777/g/42");
    EXPECT_EQ(watch_link("192.168.1.20", 9000, false, 7), "http://192.168.1.20:9000/g/7");
}

TEST(WatchLink, AnIpv6AddressIsBracketed) {
    EXPECT_EQ(watch_link("::1", 7777, true, 3), "https://[::1]:7777/g/3");
    EXPECT_EQ(watch_link("2001:db8::5", 443, false, 18446744073709551615ull),
              "http://[2001:db8::5]:443/g/18446744073709551615");
}

}  // namespace
}  // namespace xq::client
