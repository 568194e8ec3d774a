// PGN as found in real archives (notation.md §2.5): each quirk as a hand-written snippet, then
// malformed files with their error codes and lines, then the real games of games.tsv.

#include <gtest/gtest.h>

#include "common/fen.h"
#include "common/iccs.h"
#include "common/pgn.h"
#include "support/pgn_helpers.h"
#include "support/test_data.h"

namespace xq {
namespace {

using test::kAfterCentralCannon;
using test::read_one;
using test::words;

std::vector<std::string> iccs_of(const PgnGame& game) {
    std::vector<std::string> out;
    for (Move m : game.moves) out.push_back(to_iccs(m));
    return out;
}



PgnReadResult read_failing(const std::string& text, PgnErrorCode code, int line) {
    auto games = read_pgn(text);
    EXPECT_EQ(games.size(), 1u) << text;
    if (games.empty()) return {};
    EXPECT_TRUE(games[0].error.has_value()) << text;
    if (!games[0].error) return games[0];
    EXPECT_EQ(code_name(games[0].error->code), code_name(code)) << games[0].error->message;
    EXPECT_EQ(games[0].error->line, line) << games[0].error->message;
    return games[0];
}

// --- Archive quirks --------------------------------------------------------------------------

TEST(PgnArchive, BlackToMoveWithoutEllipsis) {
    const std::string fen = std::string("[FEN \"") + kAfterCentralCannon + "\"]\n\n";
    const auto expected = words("h9g7 h0g2 i9h9");
    EXPECT_EQ(iccs_of(read_one(fen + "1.          馬８進７\n2. 馬二進三  車９平８\n*\n")), expected);
    EXPECT_EQ(iccs_of(read_one(fen + "1... 馬８進７\n2. 馬二進三 車９平８\n")), expected);
    EXPECT_EQ(iccs_of(read_one(fen + "1. ... 馬８進７ 2. 馬二進三 車９平８")), expected);
    EXPECT_EQ(read_one(fen + "1. 馬８進７").start.side_to_move(), Color::Black);
}

TEST(PgnArchive, NumberingStartsFromTheFen) {
    const PgnGame game = read_one(
        "[Game \"Chinese Chess\"]\n"
        "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 21\"]\n\n"
        "21. 炮二平五 馬８進７\n22. 馬二進三 車９平８\n");
    EXPECT_EQ(iccs_of(game), words("h2e2 h9g7 h0g2 i9h9"));
    EXPECT_NE(write_pgn(game).find("21. 炮二平五"), std::string::npos);
}

TEST(PgnArchive, IrregularSpacingAndResultOnTheLastMoveLine) {
    const PgnGame game = read_one(
        "\xEF\xBB\xBF[Game \"Chinese Chess\"]\r\n[Result \"0-1\"]\r\n\r\n"
        "1.炮二平五  馬８進７\t2.  馬二進三\xE3\x80\x80車９平８\r\n"
        "  3. 車一平二 馬２進３ 0-1\r\n");
    EXPECT_EQ(iccs_of(game), words("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7"));
    EXPECT_EQ(game.result, "0-1");
    EXPECT_EQ(game.tags.front().name, "Game");  // the BOM is gone
}

TEST(PgnArchive, ResultWithoutABlankLineAndTagsWithoutMoves) {
    const PgnGame game = read_one("[Game \"Chinese Chess\"]\n[Result \"1/2-1/2\"]\n1/2-1/2\n");
    EXPECT_TRUE(game.moves.empty());
    EXPECT_EQ(game.result, "1/2-1/2");
    EXPECT_EQ(read_one("[Event \"x\"]\n[Result \"1-0\"]\n\n").result, "1-0");  // and no result token at all
}

TEST(PgnArchive, UnescapedQuoteInsideATagValue) {
    const PgnGame game =
        read_one("[Event \"第三屆\"七星杯\"邀請賽\"]\n[Red \"胡榮華\"]  \n\n1. 炮二平五 *\n");
    EXPECT_EQ(game.tag("Event"), "第三屆\"七星杯\"邀請賽");
    EXPECT_EQ(game.tag("Red"), "胡榮華");
}

TEST(PgnArchive, PlainFileNumberResolvedAmongLegalMoves) {
    // Chariots on a2 and a0; the pawn on a3 blocks the front one, so 車九進一 can only be a0a1.
    const std::string fen = "[FEN \"3k5/9/9/9/9/9/P8/R8/9/R3K4 w - - 0 1\"]\n\n";
    EXPECT_EQ(iccs_of(read_one(fen + "1. 車九進一")), words("a0a1"));
    const PgnReadResult both = read_failing(fen + "1. 車九平八", PgnErrorCode::AmbiguousMove, 3);
    EXPECT_EQ(both.error->text, "車九平八");
}

TEST(PgnArchive, IllegalMoveStopsTheGameAndKeepsWhatCameBefore) {
    const PgnReadResult r = read_failing(
        "[Game \"Chinese Chess\"]\n[Event \"illegal\"]\n[Result \"1-0\"]\n\n"
        "1. 炮二平五 馬８進７\n"
        "2. 炮五進四 馬２進３\n"
        "3. 馬二進三 {a comment\nover two lines} 車９平８\n"
        "4. 車一平二 車１平２\n"
        "5. 車二進九 車８進１\n"
        "1-0\n",
        PgnErrorCode::IllegalMove, 10);
    EXPECT_EQ(r.error->ply, 9);
    EXPECT_EQ(r.error->text, "車二進九");
    EXPECT_NE(r.error->message.find("line 10"), std::string::npos) << r.error->message;
    EXPECT_EQ(iccs_of(r.game), words("h2e2 h9g7 e2e6 b9c7 h0g2 i9h9 i0h0 a9b9"));
    EXPECT_EQ(r.game.comment_after(4), "a comment\nover two lines");
    EXPECT_EQ(r.game.tag("Event"), "illegal");
}

TEST(PgnArchive, CommentsAreKeptAndVariationsSkipped) {
    const PgnGame game = read_one(
        "{全局評註}\n1. 炮二平五 {中炮} (1. 相三進五 {飛相} 卒７進１ (1... 馬８進７)) 馬８進７ ; 屏風馬\n"
        "2. 馬二進三 $1 車９平８!? *");
    EXPECT_EQ(iccs_of(game), words("h2e2 h9g7 h0g2 i9h9"));
    EXPECT_EQ(game.opening_comment, "全局評註");
    EXPECT_EQ(game.comment_after(0), "中炮");
    EXPECT_EQ(game.comment_after(1), "屏風馬");
    EXPECT_EQ(game.comment_after(2), "");
}

TEST(PgnArchive, SeveralGamesInOneFileAndAnErrorEndsOnlyItsOwnGame) {
    const std::string text =
        "[Game \"Chinese Chess\"]\n[Event \"A\"]\n\n1. 炮二平五 馬８進７ 1-0\n\n"           // lines 1-4
        "[Game \"Chinese Chess\"]\n[Event \"B\" oops]\n[Red \"x\"]\n\n1. 炮二平五 0-1\n\n"  // lines 6-10
        "[Game \"Chinese Chess\"]\n[Event \"C\"]\n\n1. 兵七進一 卒７進１\n"  // lines 12-15, no result
        "[Event \"D\"]\n1. h2e2 *\n";  // lines 16-17: starts right after the moves
    const auto games = read_pgn(text);
    ASSERT_EQ(games.size(), 4u);
    EXPECT_TRUE(games[0].ok());
    EXPECT_EQ(games[0].game.result, "1-0");
    ASSERT_FALSE(games[1].ok());
    EXPECT_EQ(games[1].error->code, PgnErrorCode::BadTag);
    EXPECT_EQ(games[1].error->line, 7);
    EXPECT_TRUE(games[2].ok());
    EXPECT_EQ(games[2].game.tag("Event"), "C");
    EXPECT_EQ(iccs_of(games[2].game), words("c3c4 g6g5"));
    EXPECT_EQ(games[2].game.result, "*");
    EXPECT_EQ(iccs_of(games[3].game), words("h2e2"));
}

TEST(PgnArchive, FormatAndVariantTagsAndCoordinateForms) {
    EXPECT_EQ(iccs_of(read_one("[Format \"WXF\"]\n\n1. C2=5 H8+7 2. H2+3 R9=8")),
              words("h2e2 h9g7 h0g2 i9h9"));
    EXPECT_EQ(iccs_of(read_one("[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 I9-H9")),
              words("h2e2 h9g7 h0g2 i9h9"));
    EXPECT_EQ(iccs_of(read_one("[Variant \"xiangqi\"]\n\n1.h2e2 h9g7 2.h0g2 i9h9 *")),
              words("h2e2 h9g7 h0g2 i9h9"));
    // Fairy-Stockfish's plain-UCI form counts ranks from 1.
    EXPECT_EQ(iccs_of(read_one("[Variant \"xiangqi\"]\n\n1. h3e3 h10g8 2. h1g3 i10h10 *")),
              words("h2e2 h9g7 h0g2 i9h9"));
    // wukong's Chinese files write Red's and Black's moves with no space between them.
    EXPECT_EQ(iccs_of(read_one("1. 炮二平五马８进７ 2. 马二进三车９平８")), words("h2e2 h9g7 h0g2 i9h9"));
}

// --- Malformed input -------------------------------------------------------------------------

TEST(PgnMalformed, ErrorsCarryCodeAndLine) {
    read_failing("[Event \"x\"\n\n1. h2e2", PgnErrorCode::BadTag, 1);
    read_failing("[Event \"x\"]\n[Site x]\n", PgnErrorCode::BadTag, 2);
    read_failing("[Event \"x\"]\n[FEN \"rnbakabnr/9 w\"]\n\n1. h2e2", PgnErrorCode::BadFen, 2);
    read_failing("[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n", PgnErrorCode::BadFen, 1);
    const PgnReadResult unclosed =
        read_failing("[Event \"x\"]\n\n1. 炮二平五 {oops\n2. 馬二進三", PgnErrorCode::Syntax, 3);
    EXPECT_EQ(iccs_of(unclosed.game), words("h2e2"));
    read_failing("1. 炮二平五 ) 馬８進７", PgnErrorCode::Syntax, 1);
    read_failing("1. 炮二平五\n(1. 相三進五 馬８進７\n2. 馬二進三 *", PgnErrorCode::Syntax, 2);
    const PgnReadResult junk = read_failing("\n1. 炮二平五 xyz 2. h0g2", PgnErrorCode::InvalidMove, 2);
    EXPECT_EQ(junk.error->ply, 2);
    EXPECT_EQ(junk.error->text, "xyz");
    read_failing("[Format \"WXF\"]\n\n1. 炮二平五", PgnErrorCode::InvalidMove, 3);  // not WXF
    read_failing("1. h2e2 h9g7 2. h2e2", PgnErrorCode::IllegalMove, 1);
    read_failing("[Event \"x\"]\n[Variant \"janggi\"]\n", PgnErrorCode::BadTag, 2);
    read_failing("1. h3e3", PgnErrorCode::IllegalMove, 1);  // 1-based ranks only with [Variant]
}

TEST(PgnMalformed, EmptyAndCommentOnlyInputHoldNoGames) {
    EXPECT_TRUE(read_pgn("").empty());
    EXPECT_TRUE(read_pgn("\xEF\xBB\xBF  \n\n").empty());
    EXPECT_TRUE(read_pgn("{just a note}\n").empty());
}

// --- games.tsv -------------------------------------------------------------------------------

const std::vector<test::GameRecord>& all_games() {
    static const auto games = test::load_games(test::data_path("games/games.tsv"));
    return games;
}

PgnGame record_of(const test::GameRecord& record) {
    PgnGame game;
    for (const auto& m : record.iccs) game.moves.push_back(*parse_iccs(m));
    game.tags = {{"Event", record.id}};
    game.result = record.result;
    return game;
}

TEST(PgnGames, EveryGameRoundTripsInEveryStyleAndNotation) {
    ASSERT_GE(all_games().size(), 1000u);
    std::size_t checked = 0;
    for (const auto& record : all_games()) {
        const PgnGame game = record_of(record);
        for (Notation n : {Notation::Chinese, Notation::ChineseTraditional, Notation::Wxf, Notation::Iccs}) {
            const auto back = read_pgn(write_pgn(game, PgnStyle::Xqbase, n));
            ASSERT_EQ(back.size(), 1u) << record.id;
            ASSERT_TRUE(back[0].ok()) << record.id << " " << to_string(n) << ": " << back[0].error->message;
            ASSERT_EQ(iccs_of(back[0].game), record.iccs) << record.id << " " << to_string(n);
            ASSERT_EQ(back[0].game.result, record.result);
        }
        const auto engine = read_pgn(write_pgn(game, PgnStyle::Engine));
        ASSERT_TRUE(engine.size() == 1 && engine[0].ok()) << record.id;
        ASSERT_EQ(iccs_of(engine[0].game), record.iccs) << record.id;
        ++checked;
    }
    EXPECT_EQ(checked, all_games().size());
}

// The archives' own move text (CCPD's plain file numbers, full-width WXF, upper-case Black
// letters), numbered as xqbase files are, all in one multi-game file.
TEST(PgnGames, OriginalArchiveTextImports) {
    std::string file;
    std::vector<const test::GameRecord*> expected;
    for (const auto& record : all_games()) {
        if (record.notation == "dhtmlxq") continue;
        file += "[Game \"Chinese Chess\"]\n[Event \"" + record.id + "\"]\n";
        if (record.notation == "wxf") file += "[Format \"WXF\"]\n";
        file += "\n";
        const auto text = test::split_words(record.moves_text);
        for (std::size_t i = 0; i < text.size(); ++i)
            file +=
                (i % 2 == 0 ? std::to_string(i / 2 + 1) + ". " : " ") + text[i] + (i % 2 == 1 ? "\n" : "");
        file += "\n" + record.result + "\n\n";
        expected.push_back(&record);
    }
    const auto games = read_pgn(file);
    ASSERT_EQ(games.size(), expected.size());
    for (std::size_t i = 0; i < games.size(); ++i) {
        ASSERT_TRUE(games[i].ok()) << expected[i]->id << ": " << games[i].error->message;
        EXPECT_EQ(games[i].game.tag("Event"), expected[i]->id);
        ASSERT_EQ(iccs_of(games[i].game), expected[i]->iccs) << expected[i]->id;
        EXPECT_EQ(games[i].game.result, expected[i]->result);
    }
}

}  // namespace
}  // namespace xq
