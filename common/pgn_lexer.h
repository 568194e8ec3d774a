#pragma once
// Internal to the PGN reader: the lexer and the helpers that clean up move words. Kept apart so
// the reader reads as the grouping of tokens into games.

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace xq::pgn_detail {

enum class TokenKind {
    Tag,       // [Name "value"] on a line of its own
    BadTag,    // a line starting with '[' that is not a tag
    Comment,   // {...} or ; to the end of the line (text holds the body, trimmed)
    Open,      // ( starts a variation
    Close,     // ) ends one
    Word,      // anything else up to a blank: move numbers, moves, results, NAGs
    Unclosed,  // a '{' whose '}' never comes
    End,
};

struct Token {
    TokenKind kind = TokenKind::End;
    int line = 0;       // 1-based line where the token starts
    std::string text;   // the word, the comment's body or the whole tag line
    std::string name;   // tag name
    std::string value;  // tag value
};

class Lexer {
public:
    // Expects UTF-8 without a BOM.
    explicit Lexer(std::string_view text) : text_(text) {}
    Token next();

private:
    Token read_tag_line();
    Token token(TokenKind kind, std::string text = {}) const;

    std::string_view text_;
    std::size_t pos_ = 0;
    int line_ = 1;
    bool line_start_ = true;  // only blanks since the last newline: where a tag line may begin
};

std::string_view trim(std::string_view s);

// "12." and "12..." give ""; "1.g3g4" gives "g3g4"; "15=6" and the WXF pawn move "15.6" stay whole.
std::string_view strip_move_number(std::string_view word);

// "...", "…": the placeholder some files write for Red's missing move.
bool only_dots(std::string_view word);

// Some archives run Red's and Black's Chinese moves together ("炮二平五马８进７"): eight
// non-ASCII characters split into two moves of four.
std::optional<std::pair<std::string_view, std::string_view>> split_move_pair(std::string_view word);

}  // namespace xq::pgn_detail
