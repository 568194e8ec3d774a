// The PGN lexer: tag lines, comments, parentheses and words, each with the line it starts on.

#include "pgn_lexer.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace xq::pgn_detail {
namespace {

// Bytes of whitespace at s[i]: ASCII blanks, NBSP and the ideographic space U+3000 that Chinese
// files put between moves.
std::size_t space_at(std::string_view s, std::size_t i) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) return 1;
    if (s.substr(i, 2) == "\xC2\xA0") return 2;
    if (s.substr(i, 3) == "\xE3\x80\x80") return 3;
    return 0;
}

std::string unescape(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) ++i;
        out += s[i];
    }
    return out;
}

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Length in bytes of a move-number dot at s[i]: ".", "…", full-width "．" or "。"; 0 otherwise.
std::size_t dot_at(std::string_view s, std::size_t i) {
    if (i < s.size() && s[i] == '.') return 1;
    for (std::string_view dot : {"\xE2\x80\xA6", "\xEF\xBC\x8E", "\xE3\x80\x82"})
        if (s.substr(i, dot.size()) == dot) return dot.size();
    return 0;
}

}  // namespace

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

Token Lexer::token(TokenKind kind, std::string text) const {
    Token t;
    t.kind = kind;
    t.line = line_;
    t.text = std::move(text);
    return t;
}

Token Lexer::next() {
    for (std::size_t n; pos_ < text_.size() && (n = space_at(text_, pos_)) != 0; pos_ += n) {
        if (text_[pos_] == '\n') {
            ++line_;
            line_start_ = true;
        }
    }
    if (pos_ >= text_.size()) return token(TokenKind::End);
    const char c = text_[pos_];
    const bool at_line_start = std::exchange(line_start_, false);
    if (c == '[' && at_line_start) return read_tag_line();
    if (c == '{') {
        const std::size_t close = text_.find('}', pos_);
        if (close == std::string_view::npos)
            return token(TokenKind::Unclosed, std::string(text_.substr(pos_++, 1)));
        Token t = token(TokenKind::Comment, std::string(trim(text_.substr(pos_ + 1, close - pos_ - 1))));
        line_ += static_cast<int>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                             text_.begin() + static_cast<std::ptrdiff_t>(close), '\n'));
        pos_ = close + 1;
        return t;
    }
    if (c == ';') {  // a comment to the end of the line
        const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
        Token t = token(TokenKind::Comment, std::string(trim(text_.substr(pos_ + 1, end - pos_ - 1))));
        pos_ = end;
        return t;
    }
    if (c == '(' || c == ')') {
        ++pos_;
        return token(c == '(' ? TokenKind::Open : TokenKind::Close);
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() && space_at(text_, pos_) == 0 &&
           std::string_view("{();").find(text_[pos_]) == std::string_view::npos)
        ++pos_;
    return token(TokenKind::Word, std::string(text_.substr(start, pos_ - start)));
}

// [Name "value"]. The value runs to the last quote on the line, which also takes in unescaped
// quotes such as [Event "第三屆"七星杯"邀請賽"].
Token Lexer::read_tag_line() {
    const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
    const std::string_view line = trim(text_.substr(pos_, end - pos_));
    pos_ = end;
    Token t = token(TokenKind::BadTag, std::string(line));
    std::size_t i = 1;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t name_start = i;
    while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
    const std::size_t open = line.find('"', i), close = line.rfind('"');
    if (i == name_start || open == std::string_view::npos || close == open) return t;
    if (!trim(line.substr(i, open - i)).empty() || trim(line.substr(close + 1)) != "]") return t;
    t.kind = TokenKind::Tag;
    t.name = std::string(line.substr(name_start, i - name_start));
    t.value = unescape(line.substr(open + 1, close - open - 1));
    return t;
}

std::string_view strip_move_number(std::string_view w) {
    std::size_t i = 0;
    while (i < w.size() && w[i] >= '0' && w[i] <= '9') ++i;
    if (i == 0) return w;
    int dots = 0;
    for (std::size_t n; (n = dot_at(w, i)) != 0; i += n) ++dots;
    const std::string_view rest = w.substr(i);
    if (dots == 0 || (dots == 1 && all_digits(rest))) return w;
    return rest;
}

bool only_dots(std::string_view w) {
    for (std::size_t i = 0, n; i < w.size(); i += n)
        if ((n = dot_at(w, i)) == 0) return false;
    return true;
}

std::optional<std::pair<std::string_view, std::string_view>> split_move_pair(std::string_view w) {
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < w.size(); ++i) {
        const auto c = static_cast<unsigned char>(w[i]);
        if (c < 0x80) return std::nullopt;
        if ((c & 0xC0) != 0x80) starts.push_back(i);
    }
    if (starts.size() != 8) return std::nullopt;
    return std::pair{w.substr(0, starts[4]), w.substr(starts[4])};
}

}  // namespace xq::pgn_detail
