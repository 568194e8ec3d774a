// RESP2 encoding and the bounded incremental parser (server/cluster/resp.h), byte by byte.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "server/cluster/resp.h"

namespace xq::cluster {
namespace {

Reply simple(std::string s) { return Reply::simple(std::move(s)); }
Reply error(std::string s) { return Reply::error(std::move(s)); }
Reply bulk(std::string s) { return Reply::bulk(std::move(s)); }
Reply integer(std::int64_t n) { return Reply::of_integer(n); }
Reply array(std::vector<Reply> e) { return Reply::array(std::move(e)); }

TEST(RespEncode, CommandIsAnArrayOfBulkStrings) {
    EXPECT_EQ(encode_command({"SET", "k", "v"}), "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n");
    EXPECT_EQ(encode_command({"PING"}), "*1\r\n$4\r\nPING\r\n");
}

TEST(RespEncode, BinarySafe) {
    const std::string payload("a\r\n\0b", 5);
    EXPECT_EQ(encode_command({"PUBLISH", "c", payload}), std::string("*3\r\n$7\r\nPUBLISH\r\n$1\r\nc\r\n$5\r\na\r\n\0b\r\n", 35));
    EXPECT_EQ(encode_command({"GET", ""}), "*2\r\n$3\r\nGET\r\n$0\r\n\r\n");
}

struct Case {
    std::string_view name;
    std::string bytes;
    Reply want;
};

TEST(RespParse, EveryTypeWholeAndByteByByte) {
    const std::vector<Case> cases = {
        {"simple", "+OK\r\n", simple("OK")},
        {"empty simple", "+\r\n", simple("")},
        {"error", "-ERR unknown command 'FOO'\r\n", error("ERR unknown command 'FOO'")},
        {"integer", ":42\r\n", integer(42)},
        {"negative", ":-9223372036854775808\r\n", integer(INT64_MIN)},
        {"max", ":9223372036854775807\r\n", integer(INT64_MAX)},
        {"bulk", "$5\r\nhello\r\n", bulk("hello")},
        {"empty bulk", "$0\r\n\r\n", bulk("")},
        {"binary bulk", std::string("$4\r\n\r\n\0\xff\r\n", 10), bulk(std::string("\r\n\0\xff", 4))},
        {"nil bulk", "$-1\r\n", Reply::nil()},
        {"nil array", "*-1\r\n", Reply::nil_array()},
        {"empty array", "*0\r\n", array({})},
        {"message", "*3\r\n$7\r\nmessage\r\n$6\r\nxq:g:1\r\n$2\r\nhi\r\n", array({bulk("message"), bulk("xq:g:1"), bulk("hi")})},
        {"nested", "*2\r\n*2\r\n:1\r\n$-1\r\n*1\r\n*0\r\n",
         array({array({integer(1), Reply::nil()}), array({array({})})})},
        {"mixed", "*3\r\n:1\r\n-NOSCRIPT x\r\n+a\rb\r\n", array({integer(1), error("NOSCRIPT x"), simple("a\rb")})},
    };
    for (const auto& c : cases) {
        Parser whole;
        const auto got = whole.feed(c.bytes);
        ASSERT_TRUE(got) << c.name << ": " << got.error().detail;
        ASSERT_EQ(got->size(), 1u) << c.name;
        EXPECT_EQ((*got)[0], c.want) << c.name;
        EXPECT_FALSE(whole.mid_reply()) << c.name;
        EXPECT_EQ(encode_reply(c.want), c.bytes) << c.name;

        Parser bytewise;
        std::vector<Reply> all;
        for (char b : c.bytes) {
            auto part = bytewise.feed(std::string_view(&b, 1));
            ASSERT_TRUE(part) << c.name;
            for (auto& r : *part) all.push_back(std::move(r));
        }
        ASSERT_EQ(all.size(), 1u) << c.name;
        EXPECT_EQ(all[0], c.want) << c.name;
    }
}

TEST(RespParse, PipelinedRepliesComeOutInOrder) {
    Parser parser;
    auto first = parser.feed("+OK\r\n:1\r\n$3\r\nab");
    ASSERT_TRUE(first);
    EXPECT_EQ(*first, (std::vector<Reply>{simple("OK"), integer(1)}));
    EXPECT_TRUE(parser.mid_reply());
    auto second = parser.feed("c\r\n*1\r\n");
    ASSERT_TRUE(second);
    EXPECT_EQ(*second, std::vector<Reply>{bulk("abc")});
    EXPECT_TRUE(parser.mid_reply());
    auto third = parser.feed("+x\r\n$2\r\n");
    ASSERT_TRUE(third);
    EXPECT_EQ(*third, std::vector<Reply>{array({simple("x")})});
    EXPECT_EQ(parser.buffered(), 0u);
    EXPECT_TRUE(parser.mid_reply());  // a bulk string's body is awaited
    third = parser.feed("ok\r\n");
    ASSERT_TRUE(third);
    EXPECT_EQ(*third, std::vector<Reply>{bulk("ok")});
    EXPECT_FALSE(parser.mid_reply());
}

struct Hostile {
    std::string_view name;
    std::string bytes;
    ParseErrorCode code;
};

TEST(RespParse, HostileInputIsRefusedWithAReason) {
    ParseLimits limits{.max_bulk_bytes = 100, .max_line_bytes = 40, .max_depth = 3, .max_elements = 10};
    const std::vector<Hostile> cases = {
        {"type byte", "%3\r\n", ParseErrorCode::BadType},
        {"resp3 map", "%1\r\n+a\r\n+b\r\n", ParseErrorCode::BadType},
        {"html", "HTTP/1.1 400 Bad Request\r\n", ParseErrorCode::BadType},
        {"garbage without a line end", "\x16\x03\x01", ParseErrorCode::BadType},
        {"length letters", "$abc\r\n", ParseErrorCode::BadLength},
        {"length empty", "$\r\n", ParseErrorCode::BadLength},
        {"length -2", "*-2\r\n", ParseErrorCode::BadLength},
        {"length huge", "$99999999999999999999999\r\n", ParseErrorCode::BadLength},
        {"length plus", "$+5\r\n", ParseErrorCode::BadLength},
        {"integer letters", ":12a\r\n", ParseErrorCode::BadInteger},
        {"integer overflow", ":9223372036854775808\r\n", ParseErrorCode::BadInteger},
        {"integer empty", ":\r\n", ParseErrorCode::BadInteger},
        {"bulk no crlf", "$2\r\nabcd", ParseErrorCode::MissingCrlf},
        {"bulk over limit", "$101\r\n", ParseErrorCode::BulkTooLong},
        {"bulk 2 GB", "$2147483648\r\n", ParseErrorCode::BulkTooLong},
        {"endless line", "+" + std::string(50, 'a'), ParseErrorCode::LineTooLong},
        {"long line", "+" + std::string(50, 'a') + "\r\n", ParseErrorCode::LineTooLong},
        {"too deep", "*1\r\n*1\r\n*1\r\n*1\r\n", ParseErrorCode::TooDeep},
        {"array count", "*11\r\n", ParseErrorCode::TooManyElements},
        {"nested count", "*2\r\n*5\r\n:1\r\n:1\r\n:1\r\n:1\r\n:1\r\n*5\r\n", ParseErrorCode::TooManyElements},
        {"billion elements", "*1000000000\r\n", ParseErrorCode::TooManyElements},
    };
    for (const auto& c : cases) {
        Parser parser(limits);
        const auto got = parser.feed(c.bytes);
        ASSERT_FALSE(got) << c.name;
        EXPECT_EQ(got.error().code, c.code) << c.name << ": " << got.error().detail;
        EXPECT_FALSE(got.error().detail.empty()) << c.name;
        // The stream is dead: later bytes, even valid ones, get the same error.
        const auto again = parser.feed("+OK\r\n");
        ASSERT_FALSE(again) << c.name;
        EXPECT_EQ(again.error(), got.error()) << c.name;
    }
}

TEST(RespParse, LimitsCountPerReplyNotPerStream) {
    Parser parser(ParseLimits{.max_elements = 3});
    for (int i = 0; i < 5; ++i) {
        auto got = parser.feed("*2\r\n:1\r\n:2\r\n");
        ASSERT_TRUE(got) << got.error().detail;
        ASSERT_EQ(got->size(), 1u);
    }
}

TEST(RespParse, ErrorNamesAreDistinct) {
    EXPECT_EQ(to_string(ParseErrorCode::TooDeep), "too_deep");
    EXPECT_EQ(to_string(ParseErrorCode::BulkTooLong), "bulk_too_long");
}

}  // namespace
}  // namespace xq::cluster
