#include "engine/uci_move.h"

namespace xq::engine {
namespace {

void append_square(std::string& out, Square s) {
    out += static_cast<char>('a' + file_of(s));
    out += std::to_string(rank_of(s) + 1);
}

// Reads a file letter then a rank of 1-10 at `text[i]`, advancing i; nullopt when malformed.
std::optional<Square> read_square(std::string_view text, std::size_t& i) {
    if (i >= text.size() || text[i] < 'a' || text[i] > 'i') return std::nullopt;
    const int file = text[i++] - 'a';
    int rank = 0, digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 2) {
        rank = rank * 10 + (text[i++] - '0');
        ++digits;
    }
    if (digits == 0 || rank < 1 || rank > kRanks) return std::nullopt;
    return make_square(file, rank - 1);
}

}  // namespace

std::string to_uci(Move m) {
    std::string out;
    append_square(out, m.from());
    append_square(out, m.to());
    return out;
}

std::optional<Move> from_uci(std::string_view text) {
    std::size_t i = 0;
    const auto from = read_square(text, i);
    const auto to = read_square(text, i);
    if (!from || !to || i != text.size() || *from == *to) return std::nullopt;
    return Move(*from, *to);
}

}  // namespace xq::engine
