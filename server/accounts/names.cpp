#include "server/accounts/names.h"

#include <cstdint>
#include <optional>

namespace xq::server {
namespace {

// The next code point of `s` from `i` (advanced past it); nullopt for invalid, overlong or
// surrogate encodings.
std::optional<char32_t> next_code_point(std::string_view s, std::size_t& i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(i);
    std::size_t len = 0;
    char32_t cp = 0;
    char32_t min = 0;
    if (b0 < 0x80) {
        ++i;
        return b0;
    } else if ((b0 & 0xE0) == 0xC0) {
        len = 2, cp = b0 & 0x1Fu, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        len = 3, cp = b0 & 0x0Fu, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        len = 4, cp = b0 & 0x07u, min = 0x10000;
    } else {
        return std::nullopt;
    }
    if (i + len > s.size()) return std::nullopt;
    for (std::size_t k = 1; k < len; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return std::nullopt;
        cp = (cp << 6) | (byte(i + k) & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
    i += len;
    return cp;
}

bool is_ascii_alnum(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_unified_ideograph(char32_t c) { return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF); }

}  // namespace

std::expected<std::string, std::string> account_key(std::string_view name) {
    std::string key;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < name.size();) {
        const auto cp = next_code_point(name, i);
        if (!cp) return std::unexpected(std::string("the name is not valid UTF-8"));
        const bool word = is_ascii_alnum(*cp) || is_unified_ideograph(*cp);
        if (!word && *cp != '_' && *cp != '-')
            return std::unexpected(std::string(
                "a name may hold only ASCII letters and digits, '_', '-' and CJK ideographs (no spaces, "
                "symbols, accents, fullwidth or other scripts)"));
        if (chars == 0 && !word) return std::unexpected(std::string("a name must start with a letter, digit or ideograph"));
        ++chars;
        if (*cp >= 'A' && *cp <= 'Z') key += static_cast<char>(*cp - 'A' + 'a');
        else if (*cp < 0x80) key += static_cast<char>(*cp);
        else key.append(name.substr(i - 3, 3));  // every allowed ideograph is 3 bytes of UTF-8
    }
    if (chars < kMinNameChars || chars > kMaxNameChars)
        return std::unexpected("a name is " + std::to_string(kMinNameChars) + " to " + std::to_string(kMaxNameChars) +
                               " characters long");
    if (key.starts_with("guest")) return std::unexpected(std::string("names beginning with \"guest\" are for guests"));
    return key;
}

std::string key_if_valid(std::string_view name) {
    auto key = account_key(name);
    return key ? *key : std::string();
}

std::string computer_account_key(unsigned level) { return "bot level " + std::to_string(level); }

bool is_computer_account(std::string_view key) { return key.starts_with("bot level "); }

}  // namespace xq::server
