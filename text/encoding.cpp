#include "text/encoding.h"

#include <iconv.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

namespace xq::text {
namespace {

int line_at(std::string_view bytes, std::size_t offset) {
    return 1 + static_cast<int>(
                   std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

std::string where(std::string_view bytes, std::size_t offset) {
    return "line " + std::to_string(line_at(bytes, offset)) + ", byte " + std::to_string(offset);
}

const char* iconv_name(Encoding e) {
    switch (e) {
        case Encoding::Big5:
            return "BIG5";
        case Encoding::Gb18030:
            return "GB18030";
        case Encoding::Utf16Le:
            return "UTF-16LE";
        case Encoding::Utf16Be:
            return "UTF-16BE";
        case Encoding::Utf8:
            break;
    }
    return "UTF-8";
}

// The characters of xiangqi move text and headers in both scripts, and common words of event and
// player names, each three bytes in UTF-8: a Big5 file read as GBK (or the reverse) turns them into
// rare characters, so the right decoding is the one with more of them.
constexpr std::string_view kRecordCharacters =
    "一二三四五六七八九十１２３４５６７８９進进退平前後后中"    // numerals, moves
    "車车俥馬马傌炮砲包相象仕士帥帅將将兵卒紅红黑勝胜負负和"    // pieces, sides, results
    "棋賽赛局杯屆届全國国隊队對对先手年月日第名城市大學学會会"  // events
    "公開开個个人團团體体錦锦標标冠軍军"                        // events
    "王李張张陳陈劉刘楊杨趙赵黃黄吳吴胡許许";                   // the commonest surnames

bool is_record_character(std::string_view utf8_char) {
    for (std::size_t i = 0; i + 3 <= kRecordCharacters.size(); i += 3)
        if (kRecordCharacters.substr(i, 3) == utf8_char) return true;
    return false;
}

std::size_t record_characters(std::string_view utf8) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        const auto c = static_cast<unsigned char>(utf8[i]);
        const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : 4;
        if (len == 3 && is_record_character(utf8.substr(i, 3))) ++n;
        i += len;
    }
    return n;
}

}  // namespace

std::string_view name(Encoding e) {
    switch (e) {
        case Encoding::Big5:
            return "big5";
        case Encoding::Gb18030:
            return "gbk";
        case Encoding::Utf16Le:
            return "utf-16le";
        case Encoding::Utf16Be:
            return "utf-16be";
        case Encoding::Utf8:
            break;
    }
    return "utf-8";
}

std::optional<Encoding> parse_encoding(std::string_view text) {
    std::string lower;
    for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "utf-8" || lower == "utf8") return Encoding::Utf8;
    if (lower == "big5") return Encoding::Big5;
    if (lower == "gbk" || lower == "gb18030" || lower == "gb2312") return Encoding::Gb18030;
    return std::nullopt;
}

std::optional<std::size_t> first_invalid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c < 0x80           ? 1
                              : (c >> 5) == 0x6  ? 2
                              : (c >> 4) == 0xE  ? 3
                              : (c >> 3) == 0x1E ? 4
                                                 : 0;
        if (n == 0 || c == 0xC0 || c == 0xC1 || c > 0xF4 || i + n > s.size()) return i;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return i;
        const auto c1 = static_cast<unsigned char>(n > 1 ? s[i + 1] : 0);
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
            (c == 0xF4 && c1 >= 0x90))
            return i;
        i += n;
    }
    return std::nullopt;
}

std::expected<std::string, std::string> to_utf8(std::string_view bytes, Encoding from) {
    if (from == Encoding::Utf8) {
        if (auto bad = first_invalid_utf8(bytes))
            return std::unexpected("not valid UTF-8 (" + where(bytes, *bad) + ")");
        return std::string(bytes);
    }
    iconv_t cd = iconv_open("UTF-8", iconv_name(from));
    if (cd == reinterpret_cast<iconv_t>(-1))
        return std::unexpected(std::string("iconv cannot convert from ") + iconv_name(from));
    std::string out(bytes.size() * 2 + 16, '\0');
    // iconv's signature takes char**, but it only reads the input.
    char* in_ptr = const_cast<char*>(bytes.data());
    std::size_t in_left = bytes.size();
    char* out_ptr = out.data();
    std::size_t out_left = out.size();
    std::string failure;
    while (in_left > 0) {
        if (iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left) != static_cast<std::size_t>(-1)) break;
        if (errno == E2BIG) {  // grow the buffer and carry on where iconv stopped
            const std::size_t used = out.size() - out_left;
            out.resize(out.size() * 2);
            out_ptr = out.data() + used;
            out_left = out.size() - used;
            continue;
        }
        failure = "not valid " + std::string(name(from)) + " (" + where(bytes, bytes.size() - in_left) + ")";
        break;
    }
    iconv_close(cd);
    if (!failure.empty()) return std::unexpected(failure);
    out.resize(out.size() - out_left);
    return out;
}

std::expected<Decoded, std::string> decode(std::string_view bytes) {
    if (bytes.starts_with("\xEF\xBB\xBF")) {
        auto text = to_utf8(bytes.substr(3), Encoding::Utf8);
        if (!text) return std::unexpected("a UTF-8 byte order mark, but " + text.error());
        return Decoded{std::move(*text), Encoding::Utf8};
    }
    for (const auto& [bom, encoding] : {std::pair{std::string_view("\xFF\xFE"), Encoding::Utf16Le},
                                        std::pair{std::string_view("\xFE\xFF"), Encoding::Utf16Be}}) {
        if (!bytes.starts_with(bom)) continue;
        auto text = to_utf8(bytes.substr(2), encoding);
        if (!text) return std::unexpected("a UTF-16 byte order mark, but " + text.error());
        return Decoded{std::move(*text), encoding};
    }
    const auto bad_utf8 = first_invalid_utf8(bytes);
    if (!bad_utf8) return Decoded{std::string(bytes), Encoding::Utf8};
    auto big5 = to_utf8(bytes, Encoding::Big5);
    auto gbk = to_utf8(bytes, Encoding::Gb18030);
    if (big5 && (!gbk || record_characters(*big5) > record_characters(*gbk)))
        return Decoded{std::move(*big5), Encoding::Big5};
    if (gbk) return Decoded{std::move(*gbk), Encoding::Gb18030};
    return std::unexpected("neither UTF-8 (" + where(bytes, *bad_utf8) + "), Big5 nor GBK");
}

}  // namespace xq::text
