// What the per-address limits count: an IPv4 address, or an IPv6 /64 (server/net/address_group.h).

#include <gtest/gtest.h>

#include "server/net/address_group.h"

namespace xq::server {
namespace {

std::string group(const char* address) { return address_group(asio::ip::make_address(address)); }

TEST(AddressGroup, IPv4ByAddressIPv6BySlash64) {
    EXPECT_EQ(group("192.0.2.7"), "192.0.2.7");
    EXPECT_NE(group("192.0.2.7"), group("192.0.2.8"));
    // A dual-stack socket's IPv4 peer is the IPv4 address.
    EXPECT_EQ(group("::ffff:192.0.2.7"), "192.0.2.7");
    // Every address of one /64 is one client; the next /64 is another.
    EXPECT_EQ(group("2001:db8:1:2::1"), "2001:db8:1:2::/64");
    EXPECT_EQ(group("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
    EXPECT_EQ(group("2001:db8:1:2:a8bb:ccff:fedd:eeff"), group("2001:db8:1:2::1"));
    EXPECT_NE(group("2001:db8:1:3::1"), group("2001:db8:1:2::1"));
    EXPECT_EQ(group("::1"), "::/64");
}

}  // namespace
}  // namespace xq::server
