// Move notation: the twelve worked examples of notation.md §2.4 in both directions, twin pieces
// and crowded soldiers, glyph and width variants, and each error code on specific bad text.

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "common/fen.h"
#include "common/iccs.h"
#include "common/notation.h"

namespace xq {
namespace {

constexpr const char* kExample6Fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/4P4/1NB6/P1P1P3P/1C1A3C1/9/RNBAK4 w";
constexpr const char* kExample10Fen = "rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w";
constexpr const char* kExample11Fen = "5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w";
constexpr const char* kExample12Fen = "4k4/9/9/6n2/9/6n2/9/9/9/3K5 b";
constexpr const char* kTwinChariotsFen = "4k4/9/9/9/9/8R/9/9/9/3K4R w";
constexpr const char* kFiveSoldiersFen = "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w";
constexpr const char* kBlackCrowdedFen = "3k5/9/9/9/9/3p5/2pp5/5p3/5p3/4K4 b";

Position fen(const char* text) {
    const auto pos = parse_fen(text);
    EXPECT_TRUE(pos) << text << ": " << (pos ? "" : pos.error().message);
    return pos ? *pos : Position::start();
}

Position after(std::initializer_list<const char*> moves) {
    Position pos = Position::start();
    for (const char* m : moves) pos.play(*parse_iccs(m));
    return pos;
}

std::string parsed(const Position& pos, std::string_view text) {
    const auto m = parse_move(pos, text);
    return m ? to_iccs(*m) : "error " + std::string(code_name(m.error().code)) + " " + m.error().message;
}

MoveTextErrorCode error_of(const Position& pos, std::string_view text) {
    const auto m = parse_move(pos, text);
    EXPECT_FALSE(m) << text << " parsed as " << to_iccs(*m);
    return m ? MoveTextErrorCode::InvalidSyntax : m.error().code;
}

// Checks one move both ways: rendered texts and every accepted spelling.
void expect_move(const Position& pos, const char* iccs, const char* wxf, const char* chinese,
                 const char* traditional, std::initializer_list<const char*> also_parse = {}) {
    const Move m = *parse_iccs(iccs);
    EXPECT_EQ(render_move(pos, m, Notation::Wxf), wxf) << iccs;
    EXPECT_EQ(render_move(pos, m, Notation::Chinese), chinese) << iccs;
    EXPECT_EQ(render_move(pos, m, Notation::ChineseTraditional), traditional) << iccs;
    EXPECT_EQ(render_move(pos, m, Notation::Iccs), iccs);
    for (const char* text : {iccs, wxf, chinese, traditional}) EXPECT_EQ(parsed(pos, text), iccs) << text;
    for (const char* text : also_parse) EXPECT_EQ(parsed(pos, text), iccs) << text;
    EXPECT_EQ(parse_move(pos, wxf, Notation::Wxf), m);
    EXPECT_EQ(parse_move(pos, chinese, Notation::Chinese), m);
    EXPECT_EQ(parse_move(pos, traditional, Notation::ChineseTraditional), m);
    EXPECT_EQ(parse_move(pos, iccs, Notation::Iccs), m);
}

TEST(NotationExamples, OpeningMoves) {  // examples 1-5
    expect_move(Position::start(), "h2e2", "C2=5", "炮二平五", "炮二平五", {"C2.5", "c2=5", "H2-E2", "7747"});
    expect_move(after({"h2e2"}), "h9g7", "H8+7", "马8进7", "馬8進7", {"7062", "h8+7", "N8+7", "马８进７"});
    expect_move(after({"h2e2", "h9g7"}), "h0g2", "H2+3", "马二进三", "馬二進三", {"7967", "傌二進三"});
    expect_move(after({"h2e2", "h9g7", "h0g2"}), "i9h9", "R9=8", "车9平8", "車9平8", {"r9.8"});
    const Position fifth = after({"h2e2", "h9g7", "h0g2", "i9h9"});
    expect_move(fifth, "i0i1", "R1+1", "车一进一", "車一進一", {"俥一進一"});
    expect_move(fifth.with_move(*parse_iccs("i0i1")).with_move(*parse_iccs("b9c7")), "i1d1", "R1=6",
                "车一平六", "車一平六");
}

TEST(NotationExamples, AdvisorsAndElephantsNeedNoMarks) {  // examples 6-7
    const Position pos = fen(kExample6Fen);
    expect_move(pos, "c4e2", "E7-5", "相七退五", "相七退五", {"B7-5"});
    expect_move(pos, "d0e1", "A6+5", "仕六进五", "仕六進五", {"士六进五"});
}

TEST(NotationExamples, TwinsOnOneFile) {  // examples 8-9 and 12
    const Position pos = fen(kExample6Fen);
    expect_move(pos, "b4c6", "H++7", "前马进七", "前馬進七", {"+H+7", "馬前進七"});
    expect_move(pos, "e5e6", "P++1", "前兵进一", "前兵進一", {"+P+1"});
    expect_move(pos, "e3e4", "P-+1", "后兵进一", "後兵進一", {"-P+1", "兵後進一"});
    expect_move(fen(kExample12Fen), "g4e3", "H++5", "前马进5", "前馬進5", {"前马进５", "+H+5", "＋Ｈ＋５"});
}

TEST(NotationExamples, ThreeSoldiersOnOneFile) {  // example 10: the three conventions
    const Position pos = fen(kExample10Fen);
    expect_move(pos, "e6d6", "15=6", "前兵平六", "前兵平六", {"P+.6", "P+=6", "+P=6"});
    expect_move(pos, "e5d5", "25=6", "中兵平六", "中兵平六", {"P5.6", "P5=6"});
    expect_move(pos, "e3e4", "35+1", "后兵进一", "後兵進一", {"P-+1", "-P+1"});
}

TEST(NotationExamples, SoldiersOnTwoFiles) {  // example 11
    const Position pos = fen(kExample11Fen);
    expect_move(pos, "d6e6", "26=5", "四兵平五", "四兵平五", {"6-.5", "P6-=5", "４兵平五"});
    expect_move(pos, "f5e5", "24=5", "二兵平五", "二兵平五", {"4-.5", "P24=5"});
    expect_move(pos, "d7d8", "16+1", "三兵进一", "三兵進一", {"6++1"});
}

TEST(Notation, PlainFileWhenOnlyOneTwinFits) {
    const Position pos = fen(kTwinChariotsFen);  // chariots i4 and i0
    expect_move(pos, "i4h4", "R+=2", "前车平二", "前車平二");
    expect_move(pos, "i0h0", "R-=2", "后车平二", "後車平二");
    // i0 cannot pass its twin, so "file 1, forward 4" is only i4i8.
    EXPECT_EQ(parsed(pos, "R1+4"), "i4i8");
    EXPECT_EQ(parsed(pos, "车一进四"), "i4i8");
    EXPECT_EQ(parsed(pos, "R1-1"), "i4i3");
}

TEST(Notation, FiveSoldiersOnOneFile) {
    const Position pos = fen(kFiveSoldiersFen);  // e8, e7, e6, e5, e4
    expect_move(pos, "e8d8", "15=6", "一兵平六", "一兵平六", {"P++=6", "++P=6"});
    expect_move(pos, "e7d7", "25=6", "二兵平六", "二兵平六", {"P+=6"});
    expect_move(pos, "e6d6", "35=6", "三兵平六", "三兵平六", {"P5=6", "中兵平六"});
    expect_move(pos, "e5d5", "45=6", "四兵平六", "四兵平六", {"P-=6"});
    expect_move(pos, "e8e9", "15+1", "一兵进一", "一兵進一", {"P+++1"});
    // e4 has not crossed the river and its file is blocked ahead.
    for (const char* text : {"P--=6", "P--+1", "55+1", "五兵进一"})
        EXPECT_EQ(error_of(pos, text), MoveTextErrorCode::IllegalMove) << text;
}

TEST(Notation, BlackCrowdedSoldiersUseDigits) {
    // Black soldiers d4 d3, c3, f2 f1; Black's right is file a, its front the lower rank.
    const Position pos = fen(kBlackCrowdedFen);
    expect_move(pos, "d4e4", "24=5", "2卒平5", "2卒平5", {"二卒平5", "２卒平５", "4-.5"});
    expect_move(pos, "d3e3", "14=5", "1卒平5", "1卒平5", {"4+.5", "P4+=5", "一卒平5"});
    expect_move(pos, "f2e2", "26=5", "4卒平5", "4卒平5", {"四卒平5"});
    expect_move(pos, "c3b3", "P3=2", "卒3平2", "卒3平2");
}

TEST(Notation, GlyphVariantsAndWidths) {
    const Position start = Position::start();
    for (const char* text : {"砲二平五", "包二平五", "炮2平5", "炮２平５", "　炮二平五　", " C2=5\t",
                             "Ｃ２＝５", "ｃ２．５", "ｈ２ｅ２", "H2-E2"})
        EXPECT_EQ(parsed(start, text), "h2e2") << text;
    EXPECT_EQ(parsed(start, "帥五進一"), "e0e1");
    EXPECT_EQ(parsed(start, "帅五进一"), "e0e1");
    EXPECT_EQ(parsed(start, "K5+1"), "e0e1");
    EXPECT_EQ(parsed(start, "G5+1"), "e0e1");
    EXPECT_EQ(parsed(start, "俥九進一"), "a0a1");
    EXPECT_EQ(parsed(start, "車九進一"), "a0a1");
    EXPECT_EQ(parsed(start, "相三進一"), "g0i2");
    EXPECT_EQ(parsed(start, "E3+1"), "g0i2");
    const Position black = after({"h2e2"});
    for (const char* text : {"將5進1", "将５进１", "k5+1"}) EXPECT_EQ(parsed(black, text), "e9e8") << text;
    for (const char* text : {"卒7進1", "P7+1", "p7+1"}) EXPECT_EQ(parsed(black, text), "g6g5") << text;
    EXPECT_EQ(parsed(black, "象3进5"), "c9e7");
    EXPECT_EQ(render_move(black, *parse_iccs("e9e8"), Notation::ChineseTraditional), "將5進1");
    EXPECT_EQ(render_move(black, *parse_iccs("e9e8"), Notation::Chinese), "将5进1");
    EXPECT_EQ(render_move(start, *parse_iccs("e0e1"), Notation::ChineseTraditional), "帥五進一");
}

TEST(NotationErrors, InvalidSyntax) {
    const Position start = Position::start();
    for (const char* text :
         {"",       "   ",      "x",        "C2",         "C2=",      "C2*5",     "C0=5",     "C2=0",
          "Z2=5",   "C2=55",    "P+-+1",    "e2e2",       "h2e2e",    "h10e2",    "9747",     "炮二走五",
          "炮二平", "炮十平五", "炮二平〇", "炮二平五五", "前前平五", "兵兵进一", "\xff\xfe", "炮二平\xe4"})
        EXPECT_EQ(error_of(start, text), MoveTextErrorCode::InvalidSyntax) << text;
    EXPECT_EQ(parse_move(start, "炮二平五", Notation::Wxf).error().code, MoveTextErrorCode::InvalidSyntax);
    EXPECT_EQ(parse_move(start, "C2=5", Notation::Chinese).error().code, MoveTextErrorCode::InvalidSyntax);
    EXPECT_EQ(parse_move(start, "C2=5", Notation::Iccs).error().code, MoveTextErrorCode::InvalidSyntax);
    EXPECT_EQ(parse_move(start, "h2e2", Notation::Wxf).error().code, MoveTextErrorCode::InvalidSyntax);
}

TEST(NotationErrors, IllegalMove) {
    const Position start = Position::start();
    for (const char* text : {"a0a5", "e9e8", "7740", "H2+4", "马二进四", "R1=2", "车一平二", "相三进四",
                             "E3+4", "P+-1", "C2+8", "H2=3", "前车进一", "R+=2", "二兵平五", "15=6", "6-.5"})
        EXPECT_EQ(error_of(start, text), MoveTextErrorCode::IllegalMove) << text;
    // Soldiers never retreat.
    EXPECT_EQ(error_of(start, "P7-1"), MoveTextErrorCode::IllegalMove);
}

TEST(NotationErrors, AmbiguousMove) {
    const Position twins = fen(kTwinChariotsFen);
    for (const char* text : {"R1=2", "R1+1", "车一平二", "車一進一"})
        EXPECT_EQ(error_of(twins, text), MoveTextErrorCode::AmbiguousMove) << text;
    for (const char* text : {"H8+7", "马八进七"})
        EXPECT_EQ(error_of(fen(kExample6Fen), text), MoveTextErrorCode::AmbiguousMove) << text;
    const auto e = parse_move(twins, "R1=2");
    EXPECT_NE(e.error().message.find("i0h0"), std::string::npos) << e.error().message;
    EXPECT_NE(e.error().message.find("i4h4"), std::string::npos) << e.error().message;
    // Two soldiers on a file are not a WXF "middle": the plain digit stays ambiguous.
    const Position soldiers = fen("3k5/9/9/4P4/4P4/9/9/9/9/5K3 w");
    EXPECT_EQ(error_of(soldiers, "P5=6"), MoveTextErrorCode::AmbiguousMove);
    EXPECT_EQ(error_of(soldiers, "兵五平六"), MoveTextErrorCode::AmbiguousMove);
    EXPECT_EQ(parsed(soldiers, "P+=6"), "e6d6");
}

TEST(NotationErrors, CodeNames) {
    EXPECT_EQ(code_name(MoveTextErrorCode::InvalidSyntax), "invalid_move_syntax");
    EXPECT_EQ(code_name(MoveTextErrorCode::IllegalMove), "illegal_move");
    EXPECT_EQ(code_name(MoveTextErrorCode::AmbiguousMove), "ambiguous_move");
    EXPECT_EQ(to_string(Notation::Iccs), "iccs");
    EXPECT_EQ(to_string(Notation::Wxf), "wxf");
    EXPECT_EQ(to_string(Notation::Chinese), "chinese");
    EXPECT_EQ(to_string(Notation::ChineseTraditional), "chinese_traditional");
}

// Every legal move of positions full of twins renders and parses back in every notation.
TEST(Notation, RoundTripInCrowdedPositions) {
    for (const char* f : {kExample6Fen, kExample10Fen, kExample11Fen, kExample12Fen, kTwinChariotsFen,
                          kFiveSoldiersFen, kBlackCrowdedFen, kStartFen}) {
        const Position pos = fen(f);
        for (Move m : legal_moves(pos))
            for (Notation n :
                 {Notation::Iccs, Notation::Wxf, Notation::Chinese, Notation::ChineseTraditional}) {
                const std::string text = render_move(pos, m, n);
                EXPECT_EQ(parse_move(pos, text), m) << f << " " << to_iccs(m) << " " << text;
                EXPECT_EQ(parse_move(pos, text, n), m) << f << " " << to_iccs(m) << " " << text;
            }
    }
}

}  // namespace
}  // namespace xq
