// The seek record format (seek_record.h): what the matcher accepts from Redis.

#include <gtest/gtest.h>

#include "server/cluster/seek_record.h"

namespace xq::cluster {
namespace {

TEST(SeekRecord, ReadsWhatANodeWritesWithAnyBytesInTheSeek) {
    const std::string bytes("r|1500\0\xff", 8);
    const auto seek = decode_seek("n1:ab:7", encode_seek_head("n1", 42) + "|1795779119502|9|" + bytes, 64);
    ASSERT_TRUE(seek);
    EXPECT_EQ(*seek, (SeekRecord{"n1:ab:7", "n1", 42, 1795779119502, 9, bytes}));
    EXPECT_EQ(seek_tombstone_key("n1:ab:7"), "xq:seek:claimed:n1:ab:7");
}

TEST(SeekRecord, GarbageIsRefused) {
    for (const char* id : {"", "a|b", "a b", "é"}) EXPECT_FALSE(decode_seek(id, "n1|1|2|3|x", 64)) << id;
    EXPECT_FALSE(decode_seek(std::string(129, 'a'), "n1|1|2|3|x", 64));
    for (const char* value : {"", "n1", "n1|1", "n1|1|2", "n1|1|2|3", "bad node|1|2|3|x", "n1|-1|2|3|x", "n1|01|2|3|x", "n1|1|x|3|x",
                              "n1|1||3|x", "n1|1|2|-3|x"}) {
        EXPECT_FALSE(decode_seek("s", value, 64)) << value;
    }
    EXPECT_FALSE(decode_seek("s", "n1|1|2|3|" + std::string(65, 'x'), 64));  // over the bound
    EXPECT_TRUE(decode_seek("s", "n1|1|2|3|", 64));                           // an empty seek is a seek
}

}  // namespace
}  // namespace xq::cluster
