#include "iccs.h"

namespace xq {

std::string square_name(Square s) {
    return {static_cast<char>('a' + file_of(s)), static_cast<char>('0' + rank_of(s))};
}

std::optional<Square> parse_square(std::string_view s) {
    if (s.size() != 2) return std::nullopt;
    const char f = (s[0] >= 'A' && s[0] <= 'I') ? static_cast<char>(s[0] - 'A' + 'a') : s[0];
    if (f < 'a' || f > 'i' || s[1] < '0' || s[1] > '9') return std::nullopt;
    return make_square(f - 'a', s[1] - '0');
}

std::string to_iccs(Move m) { return square_name(m.from()) + square_name(m.to()); }

std::optional<Move> parse_iccs(std::string_view text) {
    if (text.size() == 5 && text[2] == '-') {
        std::string joined{text.substr(0, 2)};
        joined += text.substr(3);
        return parse_iccs(joined);
    }
    if (text.size() != 4) return std::nullopt;
    const auto from = parse_square(text.substr(0, 2));
    const auto to = parse_square(text.substr(2, 2));
    if (!from || !to || *from == *to) return std::nullopt;
    return Move(*from, *to);
}

}  // namespace xq
