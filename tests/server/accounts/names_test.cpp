// The name rule as a table: accepted names with their canonical key, refused names, and names
// that collide (one key).

#include <gtest/gtest.h>

#include <string>

#include "server/accounts/names.h"

namespace xq::server {
namespace {

struct Accepted {
    const char* name;
    const char* key;
};

TEST(AccountNames, AcceptedNamesAndTheirKeys) {
    const Accepted table[] = {
        {"Ann", "ann"},
        {"ann_1", "ann_1"},
        {"BOB-the-3rd", "bob-the-3rd"},
        {"123", "123"},
        {"象棋王", "象棋王"},                  // U+8C61 U+68CB U+738B: unified ideographs
        {"小明Xu", "小明xu"},
        {"\xe3\x90\x80\xe3\x90\x81\xe3\x90\x82", "\xe3\x90\x80\xe3\x90\x81\xe3\x90\x82"},  // U+3400..: extension A
        {"abcdefghijklmnopqrst", "abcdefghijklmnopqrst"},  // 20 characters
        {"一二三四五六七八九十一二三四五六七八九十", "一二三四五六七八九十一二三四五六七八九十"},  // 20 ideographs
    };
    for (const auto& row : table) {
        const auto key = account_key(row.name);
        ASSERT_TRUE(key.has_value()) << row.name << ": " << key.error();
        EXPECT_EQ(*key, row.key) << row.name;
    }
}

TEST(AccountNames, RefusedNames) {
    const char* table[] = {
        "",
        "ab",                          // too short
        "abcdefghijklmnopqrstu",       // 21 characters
        "ann smith",                   // space
        "ann!",                        // symbol
        "_ann",                        // starts with '_'
        "-ann",                        // starts with '-'
        "\xd0\xb0nn",                  // Cyrillic а (U+0430) posing as Latin a
        "\xef\xbc\xa1nn",              // fullwidth Ａ (U+FF21)
        "\xef\xa4\x80\xe4\xb8\x80\xe4\xb8\x80",  // compatibility ideograph U+F900
        "ann\xcc\x81",                 // combining acute accent (U+0301)
        "ann\x01",                     // control character
        "ann\t",
        "ann\x7f",
        "\xc3\xa9ric",                 // é: Latin-1 letter outside the repertoire
        "ann\xff",                     // invalid UTF-8
        "\xc1\x81nn",                  // overlong 'A'
        "\xe0\x81\x81nn",              // overlong
        "\xed\xa0\x80nn",              // a surrogate
        "ann\xe4\xb8",                 // truncated sequence
        "guest-12",                    // the guests' prefix
        "GUEST7",
        "\xe3\x80\x80" "ann",          // ideographic space U+3000
        "\xf0\xa0\x80\x80nn",          // extension B (U+20000): outside the two blocks
    };
    for (const char* name : table) EXPECT_FALSE(account_key(name).has_value()) << "accepted: " << name;
}

TEST(AccountNames, CaseVariantsCollideAndLookAlikesCannotExist) {
    EXPECT_EQ(*account_key("Ann_Lee"), *account_key("ANN_lee"));
    EXPECT_EQ(*account_key("ann-lee"), *account_key("Ann-Lee"));
    EXPECT_NE(*account_key("ann-lee"), *account_key("ann_lee"));  // different characters, different names
    EXPECT_NE(*account_key("象棋王"), *account_key("象棋玉"));
    // The look-alikes of "ann" are refused rather than given keys of their own.
    EXPECT_EQ(key_if_valid("\xd0\xb0nn"), "");
    EXPECT_EQ(key_if_valid("\xef\xbd\x81nn"), "");  // fullwidth ａ
    EXPECT_EQ(key_if_valid("ANN"), "ann");
}

}  // namespace
}  // namespace xq::server
