// The bus's envelope and its per-sender sequence check (server/cluster/envelope.h), pure.

#include <gtest/gtest.h>

#include "server/cluster/envelope.h"

namespace xq::cluster {
namespace {

TEST(Envelope, RoundTripKeepsBinaryPayload) {
    const std::string payload("\0\x01\xff\r\n", 5);
    const auto bytes = encode_envelope("n1", 0xfedcba9876543210ull, 42, payload);
    const auto e = decode_envelope(bytes);
    ASSERT_TRUE(e) << e.error();
    EXPECT_EQ(e->sender, "n1");
    EXPECT_EQ(e->epoch, 0xfedcba9876543210ull);
    EXPECT_EQ(e->sequence, 42u);
    EXPECT_EQ(e->payload, payload);
    EXPECT_EQ(decode_envelope(encode_envelope("n1", 1, 1, ""))->payload, "");
}

TEST(Envelope, ForeignBytesAreRefusedWithAReason) {
    const auto good = encode_envelope("n1", 1, 2, "x");
    for (const std::string& bad : {std::string(), std::string("\x01"), std::string("hello"), std::string("\x01\x00", 2),
                                   std::string("\x01\x41") + std::string(100, 'a'), good.substr(0, good.size() - 2)}) {
        const auto e = decode_envelope(bad);
        ASSERT_FALSE(e) << bad.size();
        EXPECT_FALSE(e.error().empty());
    }
}

TEST(SequenceTracker, TellsFirstInOrderGapAndRestart) {
    using V = SequenceTracker::Verdict;
    SequenceTracker t;
    auto see = [&](const char* sender, std::uint64_t epoch, std::uint64_t seq) {
        return t.see(Envelope{.sender = sender, .epoch = epoch, .sequence = seq, .payload = {}});
    };
    EXPECT_EQ(see("a", 1, 5), V::First);
    EXPECT_EQ(see("a", 1, 6), V::InOrder);
    EXPECT_EQ(see("b", 9, 1), V::First);  // senders are apart
    EXPECT_EQ(see("a", 1, 8), V::Gap);
    EXPECT_EQ(see("a", 1, 9), V::InOrder);
    EXPECT_EQ(see("a", 2, 1), V::Restarted);
    EXPECT_EQ(see("a", 2, 2), V::InOrder);
    t.clear();
    EXPECT_EQ(see("a", 2, 7), V::First);
}

}  // namespace
}  // namespace xq::cluster
