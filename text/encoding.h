#pragma once
// The text encodings of PGN files found in the wild: UTF-8, and the Big5 (Taiwan, Hong Kong) and
// GBK/GB18030 (mainland) archives of older tools. Bytes in, UTF-8 out: no files, no streams; the
// conversion is glibc's iconv, which is why this is not in common/ (pure C++) but a library of its
// own that both xq-tool and the client link.

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace xq::text {

enum class Encoding { Utf8, Big5, Gb18030, Utf16Le, Utf16Be };

std::string_view name(Encoding e);  // "utf-8", "big5", "gbk", "utf-16le", "utf-16be"
// "big5", "gbk", "gb18030", "utf-8", "utf8", any case; nullopt for anything else.
std::optional<Encoding> parse_encoding(std::string_view name);

// The offset of the first byte that breaks UTF-8 (bad lead, missing continuation, overlong,
// surrogate, beyond U+10FFFF), or nullopt when all of `bytes` is UTF-8.
std::optional<std::size_t> first_invalid_utf8(std::string_view bytes);

// `bytes` as UTF-8, every byte checked: a byte the encoding does not define is an error naming its
// line and offset, never a replacement character.
std::expected<std::string, std::string> to_utf8(std::string_view bytes, Encoding from);

struct Decoded {
    std::string text;  // UTF-8, without a byte order mark
    Encoding encoding;
};

// Finds the encoding and converts: a byte order mark wins; else UTF-8 if all of it is UTF-8; else
// whichever of Big5 and GBK decodes it and yields more of the characters xiangqi records are made
// of (pieces, numerals, 進退平); GBK on a tie. An error when none of them decodes it.
std::expected<Decoded, std::string> decode(std::string_view bytes);

}  // namespace xq::text
