// fuzz_notation: move text typed by players or read from records. The first bytes pick a start
// position and walk a few legal moves from it; the rest is move text parsed against the position
// reached. A move that parses must be legal, and its rendering in every notation must parse back
// to the same move; so must one legal move of the reached position, picked by the last byte.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/fen.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "fuzz/fuzz_check.h"

namespace xq::fuzz {
namespace {

constexpr std::array kNotations{Notation::Iccs, Notation::Wxf, Notation::Chinese, Notation::ChineseTraditional};

// Starts where notation is hardest: tandem soldiers, doubled pieces on a file, Black to move.
constexpr std::array<std::string_view, 6> kStarts{
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1",
    "5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/3p5/2pp5/5p3/5p3/4K4 b - - 0 1",
    "4k4/9/9/6n2/9/6n2/9/9/9/3K5 b - - 0 1",
    "4k4/9/9/9/9/8R/9/9/9/3K4R w - - 0 1",
};

// Rendering m in each notation and parsing it back, with and without the notation named.
void check_renders(const Position& pos, Move m) {
    for (Notation n : kNotations) {
        const std::string text = render_move(pos, m, n);
        const auto named = parse_move(pos, text, n);
        XQ_FUZZ_CHECK(named.has_value(), "a rendered move parses in its notation");
        XQ_FUZZ_CHECK(*named == m, "a rendered move parses back to itself in its notation");
        const auto detected = parse_move(pos, text);
        XQ_FUZZ_CHECK(detected.has_value(), "a rendered move parses with the notation detected");
        XQ_FUZZ_CHECK(*detected == m, "a rendered move parses back to itself with the notation detected");
    }
}

void check_parsed(const Position& pos, std::expected<Move, MoveTextError> parsed) {
    if (!parsed) {
        XQ_FUZZ_CHECK(!code_name(parsed.error().code).empty(), "every move text error has a name");
        return;
    }
    XQ_FUZZ_CHECK(is_legal(pos, *parsed), "parsed move text is a legal move");
    check_renders(pos, *parsed);
}

}  // namespace
}  // namespace xq::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace xq;
    if (size < 2) return 0;
    const auto start = parse_fen(fuzz::kStarts[data[0] % fuzz::kStarts.size()]);
    XQ_FUZZ_CHECK(start.has_value(), "the start positions are valid");
    Position pos = *start;
    // Byte 1: how many moves to walk (0-15); each following byte picks one of the legal moves.
    const std::size_t walk = data[1] & 15;
    std::size_t i = 2;
    for (; i < size && i < 2 + walk; ++i) {
        const MoveList moves = legal_moves(pos);
        if (moves.empty()) break;
        pos.play(moves[data[i] % moves.size()]);
    }
    const std::string_view text(reinterpret_cast<const char*>(data) + i, size - i);
    fuzz::check_parsed(pos, parse_move(pos, text));
    for (Notation n : fuzz::kNotations) fuzz::check_parsed(pos, parse_move(pos, text, n));
    // One legal move, not all: rendering every move in four notations would cost 100x the speed.
    if (const MoveList moves = legal_moves(pos); !moves.empty())
        fuzz::check_renders(pos, moves[data[size - 1] % moves.size()]);
    return 0;
}
