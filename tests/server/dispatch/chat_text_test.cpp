// What chat text may not hold (server/dispatch/chat_text.h), as a table.

#include <gtest/gtest.h>

#include "server/dispatch/chat_text.h"

namespace xq::server {
namespace {

TEST(ChatText, ControlCharactersAreNamedOthersPass) {
    const std::pair<std::string, std::string> cases[] = {
        {"good move", ""},
        {"\xe5\xa5\xbd\xe6\xa3\x8b \xf0\x9f\x91\x8d", ""},  // 好棋 and an emoji
        {"caf\xc3\xa9 \xe2\x80\x94 ok", ""},                // é and an em dash (U+2014)
        {"a\nb", "a line break"},
        {"a\rb", "a line break"},
        {"a\tb", "a tab"},
        {"bell\x07", "U+0007, a control character"},
        {"del\x7f", "U+007F, a control character"},
        {"nel\xc2\x85", "U+0085, a control character"},
        {"ls\xe2\x80\xa8", "U+2028, a line break"},
        {"ps\xe2\x80\xa9", "U+2029, a line break"},
        {"\xe2\x80\xae" "reversed", "U+202E, a text direction control"},
        {"isolate\xe2\x81\xa6", "U+2066, a text direction control"},
        {"rlm\xe2\x80\x8f", "U+200F, a text direction control"},
        {"alm\xd8\x9c", "U+061C, a text direction control"},
    };
    for (const auto& [text, named] : cases) EXPECT_EQ(control_character(text), named) << text;
}

}  // namespace
}  // namespace xq::server
