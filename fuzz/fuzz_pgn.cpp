// fuzz_pgn: game records from archives. read_pgn() must take any text without crashing; every game
// it returns (complete, or cut at its error) holds legal moves, and write_pgn() of it, in the style
// and notation the first byte picks, reads back as one complete game with the same moves.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/movegen.h"
#include "common/pgn.h"
#include "fuzz/fuzz_check.h"

namespace xq::fuzz {
namespace {

constexpr std::array kNotations{Notation::Chinese, Notation::ChineseTraditional, Notation::Wxf, Notation::Iccs};

void check_game(const PgnGame& game, PgnStyle style, Notation notation) {
    Position pos = game.start;
    for (Move m : game.moves) {
        XQ_FUZZ_CHECK(is_legal(pos, m), "every move read is legal");
        pos.play(m);
    }
    XQ_FUZZ_CHECK(pos == game.final_position(), "final_position() plays the moves");
    const std::string text = write_pgn(game, style, notation);
    const auto back = read_pgn(text);
    XQ_FUZZ_CHECK(back.size() == 1, "a written game reads back as one game");
    XQ_FUZZ_CHECK(back[0].ok(), "a written game reads back without error");
    XQ_FUZZ_CHECK(back[0].game.start == game.start, "a written game keeps its start");
    XQ_FUZZ_CHECK(back[0].game.moves == game.moves, "a written game keeps its moves");
    XQ_FUZZ_CHECK(back[0].game.result == game.result, "a written game keeps its result");
}

}  // namespace
}  // namespace xq::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace xq;
    if (size < 1) return 0;
    const PgnStyle style = (data[0] & 1) ? PgnStyle::Engine : PgnStyle::Xqbase;
    const Notation notation = fuzz::kNotations[(data[0] >> 1) % fuzz::kNotations.size()];
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    for (const PgnReadResult& r : read_pgn(text)) {
        if (r.error) XQ_FUZZ_CHECK(!code_name(r.error->code).empty(), "every PGN error has a name");
        fuzz::check_game(r.game, style, notation);
    }
    return 0;
}
