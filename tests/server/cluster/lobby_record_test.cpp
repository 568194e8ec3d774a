// The lobby's record formats (lobby_record.h): round trips, and garbage refused rather than trusted.

#include <gtest/gtest.h>

#include "server/cluster/lobby_record.h"

namespace xq::cluster {
namespace {

TEST(LobbyRecord, ValuesAndChangesRoundTripWithAnyBytesInTheSummary) {
    const std::string summary("a|b\0\xff|", 6);
    const auto value = decode_lobby_value(encode_lobby_value("n1", summary), 64);
    ASSERT_TRUE(value);
    EXPECT_EQ(*value, (LobbyEntry{"n1", summary}));

    const auto put = decode_lobby_change(encode_lobby_put(42, "n1", summary), 64);
    ASSERT_TRUE(put);
    EXPECT_EQ(put->game, 42u);
    EXPECT_FALSE(put->removed);
    EXPECT_EQ(put->entry, (LobbyEntry{"n1", summary}));

    const auto removed = decode_lobby_change(encode_lobby_remove(18446744073709551615u, "node-2"), 64);
    ASSERT_TRUE(removed);
    EXPECT_EQ(removed->game, 18446744073709551615u);
    EXPECT_TRUE(removed->removed);
    EXPECT_EQ(removed->entry.owner, "node-2");
    EXPECT_EQ(lobby_index_key("n1"), "xq:lobby:node:n1");
}

TEST(LobbyRecord, GarbageIsRefused) {
    for (const char* game : {"", "0x1", "01", "-1", " 1", "1 ", "18446744073709551616", "abc"}) {
        EXPECT_FALSE(parse_lobby_game(game)) << game;
    }
    EXPECT_EQ(parse_lobby_game("0"), 0u);
    for (const char* value : {"", "n1", "|s", "bad owner|s", "n:1|s"}) EXPECT_FALSE(decode_lobby_value(value, 64)) << value;
    EXPECT_FALSE(decode_lobby_value("n1|" + std::string(65, 'x'), 64));  // over the bound
    for (const char* message : {"", "P", "P|", "P|1", "P|1|n1", "X|1|n1|s", "R|1|", "R|1|a|b", "R|x|n1", "P1|n1|s"}) {
        EXPECT_FALSE(decode_lobby_change(message, 64)) << message;
    }
}

}  // namespace
}  // namespace xq::cluster
