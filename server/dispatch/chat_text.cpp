#include "server/dispatch/chat_text.h"

#include <cstdint>
#include <cstdio>

namespace xq::server {
namespace {

std::string code_point_name(std::uint32_t cp, const char* what) {
    char text[16];
    std::snprintf(text, sizeof text, "U+%04X", static_cast<unsigned>(cp));
    return std::string(text) + ", " + what;
}

}  // namespace

std::string control_character(std::string_view utf8) {
    for (std::size_t i = 0; i < utf8.size();) {
        const auto b0 = static_cast<unsigned char>(utf8[i]);
        if (b0 == '\n' || b0 == '\r') return "a line break";
        if (b0 == '\t') return "a tab";
        if (b0 < 0x20 || b0 == 0x7f) return code_point_name(b0, "a control character");
        if (b0 < 0x80) {
            ++i;
            continue;
        }
        const std::size_t length = b0 >= 0xf0 ? 4 : b0 >= 0xe0 ? 3 : 2;
        if (i + length > utf8.size()) return "a cut character";
        std::uint32_t cp = b0 & (length == 2 ? 0x1f : length == 3 ? 0x0f : 0x07);
        for (std::size_t k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3f);
        i += length;
        if (cp >= 0x80 && cp <= 0x9f) return code_point_name(cp, "a control character");
        if (cp == 0x2028 || cp == 0x2029) return code_point_name(cp, "a line break");
        if (cp == 0x200e || cp == 0x200f || cp == 0x061c || (cp >= 0x202a && cp <= 0x202e) ||
            (cp >= 0x2066 && cp <= 0x2069))
            return code_point_name(cp, "a text direction control");
    }
    return "";
}

}  // namespace xq::server
