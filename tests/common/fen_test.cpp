// FEN parsing and printing: round trips, both letter sets, and one specific error per defect.

#include <gtest/gtest.h>

#include "common/fen.h"

namespace xq {
namespace {

FenErrorCode error_of(std::string_view fen) {
    const auto pos = parse_fen(fen);
    EXPECT_FALSE(pos) << fen << " parsed but should not";
    return pos ? FenErrorCode::Syntax : pos.error().code;
}

TEST(Fen, StartPositionRoundTrips) {
    const auto pos = parse_fen(kStartFen);
    ASSERT_TRUE(pos);
    EXPECT_EQ(to_fen(*pos), kStartFen);
    EXPECT_EQ(*pos, Position::start());
    EXPECT_EQ(pos->side_to_move(), Color::Red);
    EXPECT_EQ(pos->at(make_square(4, 0)), make_piece(Color::Red, PieceType::General));
    EXPECT_EQ(pos->at(make_square(1, 7)), make_piece(Color::Black, PieceType::Cannon));
}

TEST(Fen, AcceptsAlternativeLettersAndRedAsR) {
    const auto pos = parse_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1");
    ASSERT_TRUE(pos) << pos.error().message;
    EXPECT_EQ(to_fen(*pos), kStartFen);  // emitted with B/N and w
}

TEST(Fen, ShortFormsAndCounters) {
    const auto two_fields = parse_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
    ASSERT_TRUE(two_fields);
    EXPECT_EQ(two_fields->side_to_move(), Color::Black);
    const auto counters = parse_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 37 52");
    ASSERT_TRUE(counters);
    EXPECT_EQ(counters->halfmove_clock(), 37);
    EXPECT_EQ(counters->fullmove_number(), 52);
    EXPECT_EQ(to_fen(*counters), "4k4/9/9/9/9/9/9/9/9/3K5 b - - 37 52");
}

TEST(Fen, HashDependsOnPlacementAndSide) {
    const auto red = parse_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    const auto black = parse_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
    const auto counters = parse_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 9 30");
    ASSERT_TRUE(red && black && counters);
    EXPECT_NE(red->hash(), black->hash());
    EXPECT_EQ(red->hash(), counters->hash());
}

TEST(Fen, SyntaxErrors) {
    EXPECT_EQ(error_of(""), FenErrorCode::Syntax);
    EXPECT_EQ(error_of("   "), FenErrorCode::Syntax);
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"), FenErrorCode::Syntax);
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w K - 0 1"),
              FenErrorCode::Syntax);
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1"),
              FenErrorCode::Syntax);
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -1 1"),
              FenErrorCode::Syntax);
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra"),
              FenErrorCode::Syntax);
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAK#BNR w - - 0 1"),
              FenErrorCode::Syntax);
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1"),
              FenErrorCode::BadSideToMove);
}

// Field 5, the no-capture counter, is 0..119 (rules spec section 0; Pikafish refuses the rest):
// 120 plies without a capture end the game, so a FEN with 120 or more never starts one.
TEST(Fen, NoCaptureCounterRange) {
    const auto last = parse_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 119 1");
    ASSERT_TRUE(last) << last.error().message;
    EXPECT_EQ(last->halfmove_clock(), 119);
    EXPECT_EQ(to_fen(*last), "4k4/9/9/9/9/9/9/9/9/3K5 w - - 119 1");
    for (const char* counter : {"120", "200", "65535", "65536", "99999999999999999999"})
        EXPECT_EQ(error_of(std::string("4k4/9/9/9/9/9/9/9/9/3K5 w - - ") + counter + " 1"),
                  FenErrorCode::CounterOutOfRange)
            << counter;
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/9/3K5 b - - 120"), FenErrorCode::CounterOutOfRange);  // no move number

    const auto refused = parse_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 200 1");
    ASSERT_FALSE(refused);
    EXPECT_EQ(code_name(refused.error().code), "fen_counter_range");
    EXPECT_NE(refused.error().message.find("200"), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find("0..119"), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find("120 plies"), std::string::npos) << refused.error().message;

    // The move number (field 6) keeps its own range, up to 65535.
    const auto late = parse_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 65535");
    ASSERT_TRUE(late) << late.error().message;
    EXPECT_EQ(late->fullmove_number(), 65535);
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 65536"), FenErrorCode::Syntax);
}

TEST(Fen, RankAndFileCounts) {
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w"),
              FenErrorCode::RankCount);
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w"),
              FenErrorCode::RankCount);
    EXPECT_EQ(error_of("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
              FenErrorCode::FileCount);
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c2/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
              FenErrorCode::FileCount);
    EXPECT_EQ(error_of("rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
              FenErrorCode::FileCount);
    EXPECT_EQ(error_of("rnbakabnr//1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
              FenErrorCode::FileCount);
}

TEST(Fen, UnknownPieceLetter) {
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5Q1/9/RNBAKABNR w"),
              FenErrorCode::UnknownPiece);
    EXPECT_EQ(error_of("rnbqkabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
              FenErrorCode::UnknownPiece);
}

TEST(Fen, PieceCounts) {
    EXPECT_EQ(error_of("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C2C1/9/RNBAKABNR w"),
              FenErrorCode::TooManyPieces);
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/4K4/3K5 w"), FenErrorCode::TooManyPieces);
    EXPECT_EQ(error_of("4k4/9/9/PPPP5/P1P6/9/9/9/9/3K5 w"), FenErrorCode::TooManyPieces);
    EXPECT_EQ(error_of("4k4/9/9/RR1R5/9/9/9/9/9/3K5 w"), FenErrorCode::TooManyPieces);
    EXPECT_EQ(error_of("9/9/9/9/9/9/9/9/9/3K5 w"), FenErrorCode::MissingGeneral);
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/9/9 w"), FenErrorCode::MissingGeneral);
}

TEST(Fen, UnreachableSquares) {
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/9/2K6 w"), FenErrorCode::GeneralOutsidePalace);
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/3K5/9/9/9 w"), FenErrorCode::GeneralOutsidePalace);
    EXPECT_EQ(error_of("9/9/9/9/9/9/9/9/4k4/3K5 w"), FenErrorCode::GeneralOutsidePalace);
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/3A5/3K5 w"), FenErrorCode::AdvisorSquare);
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/9/2AK5 w"), FenErrorCode::AdvisorSquare);
    EXPECT_EQ(error_of("4k4/3a5/9/9/9/9/9/9/9/3K5 w"), FenErrorCode::AdvisorSquare);
    EXPECT_EQ(error_of("4k4/9/9/9/2B6/9/9/9/9/3K5 w"), FenErrorCode::ElephantSquare);  // across the river
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/2B6/3K5 w"),
              FenErrorCode::ElephantSquare);  // not an elephant point
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/9/1B1K5 w"), FenErrorCode::ElephantSquare);
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/P8/9/3K5 w"), FenErrorCode::SoldierSquare);  // behind its start rank
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/1P7/9/9/3K5 w"),
              FenErrorCode::SoldierSquare);  // off its files before the river
    EXPECT_EQ(error_of("4k4/9/9/9/1p7/9/9/9/9/3K5 w"),
              FenErrorCode::SoldierSquare);  // a legal square for red, not black
    EXPECT_EQ(error_of("4k4/9/p8/9/9/9/9/9/9/3K5 w"), FenErrorCode::SoldierSquare);
    // The same pieces on reachable squares are fine.
    EXPECT_TRUE(parse_fen("4k4/9/9/9/1P7/9/9/9/9/3K5 w"));
    EXPECT_TRUE(parse_fen("4k4/9/9/9/9/2p6/9/9/9/3K5 w"));
    EXPECT_TRUE(parse_fen("4k4/9/9/9/9/6B2/9/9/4A4/3K5 w"));
}

TEST(Fen, GeneralsFacingAndSideNotToMoveInCheck) {
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenErrorCode::GeneralsFacing);
    EXPECT_EQ(error_of("4k4/9/9/9/9/9/9/9/9/4K4 b"), FenErrorCode::GeneralsFacing);
    EXPECT_TRUE(parse_fen("4k4/9/9/9/9/4P4/9/9/9/4K4 w"));  // a piece between them
    // Red to move but Black's general is attacked by the red chariot: Black could not have moved last.
    EXPECT_EQ(error_of("4k4/9/9/9/9/4R4/9/9/9/3K5 w"), FenErrorCode::OpponentInCheck);
    EXPECT_TRUE(parse_fen("4k4/9/9/9/9/4R4/9/9/9/3K5 b"));
    // A horse check on the side not to move, and a cannon check over a screen.
    EXPECT_EQ(error_of("4k4/9/3N5/9/9/9/9/9/9/3K5 w"), FenErrorCode::OpponentInCheck);
    EXPECT_EQ(error_of("4k4/4a4/9/9/4C4/9/9/9/9/3K5 w"), FenErrorCode::OpponentInCheck);
}

TEST(Fen, ErrorMessagesNameTheDefect) {
    const auto pos = parse_fen("4k4/9/9/9/2B6/9/9/9/9/3K5 w");
    ASSERT_FALSE(pos);
    EXPECT_NE(pos.error().message.find("c5"), std::string::npos) << pos.error().message;
    EXPECT_EQ(code_name(pos.error().code), "fen_elephant_square");
}

}  // namespace
}  // namespace xq
