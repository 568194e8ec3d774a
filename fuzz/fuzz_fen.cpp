// fuzz_fen: FEN text from users, files and the network. Whatever parse_fen() accepts must print
// back to a FEN that parses to the same position, and every legal move of it must be playable into
// a position the strict parser accepts again (the rules never leave the set of valid positions),
// except that a quiet move from counter 119 reaches 120, which the parser refuses as a start.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/fen.h"
#include "common/game.h"
#include "common/movegen.h"
#include "fuzz/fuzz_check.h"

namespace xq::fuzz {
namespace {

// to_fen() is canonical: it parses back to the same position and prints the same text again.
void check_fen_round_trip(const Position& pos) {
    const std::string fen = to_fen(pos);
    const auto again = parse_fen(fen);
    XQ_FUZZ_CHECK(again.has_value(), "to_fen() output parses");
    XQ_FUZZ_CHECK(*again == pos, "to_fen() output parses to the same position");
    XQ_FUZZ_CHECK(to_fen(*again) == fen, "to_fen() is canonical");
}

void check_moves(const Position& pos) {
    const MoveList moves = legal_moves(pos);
    XQ_FUZZ_CHECK(count_legal_moves(pos) == moves.size(), "count_legal_moves agrees with legal_moves");
    XQ_FUZZ_CHECK(has_legal_move(pos) == !moves.empty(), "has_legal_move agrees with legal_moves");
    std::size_t by_square = 0;
    for (Square s = 0; s < kSquares; ++s) by_square += legal_moves_from(pos, s).size();
    XQ_FUZZ_CHECK(by_square == moves.size(), "legal_moves_from adds up to legal_moves");
    for (Move m : pseudo_legal_moves(pos))
        XQ_FUZZ_CHECK(is_legal(pos, m) == moves.contains(m), "is_legal agrees with legal_moves");
    for (Move m : moves) {
        const Position next = pos.with_move(m);
        const auto parsed = parse_fen(to_fen(next));
        if (next.halfmove_clock() > kMaxNoCapturePlies) {
            // A quiet move from counter 119: the game is over (move limit), and the parser refuses
            // 120 as a start. The placement itself must still be valid.
            XQ_FUZZ_CHECK(!parsed && parsed.error().code == FenErrorCode::CounterOutOfRange,
                          "a counter above 119 is refused as out of range");
            const Position reset = Position::from_board(next.board(), next.side_to_move(), 0, next.fullmove_number());
            const auto placement = parse_fen(to_fen(reset));
            XQ_FUZZ_CHECK(placement.has_value(), "a legal move leads to a valid placement");
            XQ_FUZZ_CHECK(*placement == reset, "the placement after a legal move round-trips");
        } else {
            XQ_FUZZ_CHECK(parsed.has_value(), "a legal move leads to a valid position");
            XQ_FUZZ_CHECK(*parsed == next, "the position after a legal move round-trips");
        }
        legal_moves(next);
    }
}

// A Game from the position plays its first legal moves and judges them.
void check_game(const Position& pos) {
    Game game(pos);
    for (int ply = 0; ply < 4 && !game.is_over(); ++ply) {
        const MoveList moves = legal_moves(game.position());
        XQ_FUZZ_CHECK(!moves.empty(), "an ongoing game has a legal move");
        game.banned_moves();
        XQ_FUZZ_CHECK(game.play(moves[static_cast<std::size_t>(ply) % moves.size()]).has_value(),
                      "a legal move plays");
    }
}

}  // namespace
}  // namespace xq::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace xq;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto pos = parse_fen(text);
    if (!pos) {
        XQ_FUZZ_CHECK(!pos.error().message.empty(), "a FEN error says what is wrong");
        XQ_FUZZ_CHECK(!code_name(pos.error().code).empty(), "every FEN error has a name");
        return 0;
    }
    fuzz::check_fen_round_trip(*pos);
    fuzz::check_moves(*pos);
    fuzz::check_game(*pos);
    return 0;
}
