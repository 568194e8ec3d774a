// PGN records: what the writer emits in each style and notation, and round trips through the
// reader (comments, FEN starts with Black to move, empty games). Archive quirks: pgn_archive_test.

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


std::vector<Move> moves_from(const std::vector<std::string>& iccs) {
    std::vector<Move> moves;
    for (const auto& text : iccs) moves.push_back(*parse_iccs(text));
    return moves;
}


PgnGame sample_game(std::size_t plies) {
    const auto all = test::load_games(test::data_path("games/games.tsv"));
    const auto it = std::find_if(all.begin(), all.end(), [](const auto& g) { return g.id == "ccpd-0003"; });
    PgnGame game;
    std::vector<std::string> iccs(it->iccs.begin(), it->iccs.begin() + static_cast<std::ptrdiff_t>(plies));
    game.moves = moves_from(iccs);
    game.tags = {{"Event", "全國賽"}, {"Red", "甲"}, {"Black", "乙"}, {"Result", "1-0"}};
    game.result = "1-0";
    return game;
}

// --- Writing ---------------------------------------------------------------------------------

TEST(PgnWrite, XqbaseStyleHasGameTagFirstAndChineseMoves) {
    PgnGame game = sample_game(4);
    const std::string text = write_pgn(game);
    EXPECT_TRUE(text.starts_with(
        "[Game \"Chinese Chess\"]\n[Event \"全國賽\"]\n[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n\n"))
        << text;
    EXPECT_NE(text.find("1. 炮二平五 马8进7\n2. 马二进三 车9平8\n1-0\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("[FEN"), std::string::npos);
    EXPECT_EQ(text.find("[Format"), std::string::npos);
}

TEST(PgnWrite, FormatTagForWxfAndIccs) {
    PgnGame game = sample_game(2);
    const std::string wxf = write_pgn(game, PgnStyle::Xqbase, Notation::Wxf);
    EXPECT_NE(wxf.find("[Format \"WXF\"]"), std::string::npos);
    EXPECT_NE(wxf.find("1. C2=5 H8+7"), std::string::npos) << wxf;
    const std::string iccs = write_pgn(game, PgnStyle::Xqbase, Notation::Iccs);
    EXPECT_NE(iccs.find("[Format \"ICCS\"]"), std::string::npos);
    EXPECT_NE(iccs.find("1. H2-E2 H9-G7"), std::string::npos) << iccs;
    const std::string traditional = write_pgn(game, PgnStyle::Xqbase, Notation::ChineseTraditional);
    EXPECT_NE(traditional.find("1. 炮二平五 馬8進7"), std::string::npos) << traditional;
}

TEST(PgnWrite, EngineStyleUsesVariantWhiteAndCoordinates) {
    PgnGame game = sample_game(4);
    const std::string text = write_pgn(game, PgnStyle::Engine);
    EXPECT_TRUE(
        text.starts_with("[Event \"全國賽\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                         "[White \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n[Variant \"xiangqi\"]\n\n"))
        << text;
    EXPECT_NE(text.find("1. h2e2 h9g7 2. h0g2 i9h9 1-0\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("[Red "), std::string::npos);
    EXPECT_EQ(text.find("[Game "), std::string::npos);
}

TEST(PgnWrite, BlackToMoveStartsWithEllipsisAndFenNumber) {
    PgnGame game;
    game.start = *parse_fen(kAfterCentralCannon);
    game.moves = moves_from(words("h9g7 h0g2"));
    const std::string text = write_pgn(game);
    EXPECT_NE(text.find("[FEN \"" + std::string(kAfterCentralCannon) + "\"]"), std::string::npos) << text;
    EXPECT_NE(text.find("1... 马8进7\n2. 马二进三 *\n"), std::string::npos) << text;
    const std::string engine = write_pgn(game, PgnStyle::Engine);
    EXPECT_NE(engine.find("[SetUp \"1\"]\n[FEN "), std::string::npos) << engine;
    EXPECT_NE(engine.find("1... h9g7 2. h0g2 *"), std::string::npos) << engine;
}

TEST(PgnWrite, TagValuesAreEscaped) {
    PgnGame game;
    game.tags = {{"Event", "第三屆\"七星杯\"邀請賽"}};
    const std::string text = write_pgn(game);
    EXPECT_NE(text.find("[Event \"第三屆\\\"七星杯\\\"邀請賽\"]"), std::string::npos) << text;
    EXPECT_EQ(read_one(text).tag("Event"), "第三屆\"七星杯\"邀請賽");
}

// --- Round trips -----------------------------------------------------------------------------

void expect_round_trip(const PgnGame& game, PgnStyle style, Notation notation) {
    const std::string text = write_pgn(game, style, notation);
    const PgnGame back = read_one(text);
    EXPECT_EQ(back.start, game.start) << text;
    EXPECT_EQ(back.moves, game.moves) << text;
    EXPECT_EQ(back.result, game.result) << text;
    EXPECT_EQ(back.opening_comment, game.opening_comment) << text;
    for (std::size_t i = 0; i < game.moves.size(); ++i)
        EXPECT_EQ(back.comment_after(i), game.comment_after(i)) << i;
    // The engine style always writes the Seven Tag Roster, with "?" for unknown values.
    auto expect_tag = [&](const char* written, const char* original) {
        auto want = game.tag(original);
        if (!want && style == PgnStyle::Engine) want = "?";
        EXPECT_EQ(back.tag(written), want) << written;
    };
    expect_tag("Event", "Event");
    expect_tag(style == PgnStyle::Xqbase ? "Red" : "White", "Red");
    expect_tag("Black", "Black");
    // A second write gives the same text: nothing is lost or renamed twice.
    EXPECT_EQ(write_pgn(back, style, notation), text);
}

constexpr Notation kNotations[] = {Notation::Chinese, Notation::ChineseTraditional, Notation::Wxf,
                                   Notation::Iccs};

TEST(PgnRoundTrip, EveryStyleAndNotationWithComments) {
    PgnGame game = sample_game(74);
    game.opening_comment = "中炮對屏風馬";
    game.comments.resize(game.moves.size());
    game.comments[0] = "first move";
    game.comments[35] = "車７退２: no 後 needed";
    game.comments[73] = "last";
    for (Notation n : kNotations) {
        SCOPED_TRACE(std::string(to_string(n)));
        expect_round_trip(game, PgnStyle::Xqbase, n);
    }
    expect_round_trip(game, PgnStyle::Engine, Notation::Chinese);
}

TEST(PgnRoundTrip, FenStartWithBlackToMove) {
    const PgnGame whole = sample_game(60);
    PgnGame game;
    game.start = whole.start;
    for (std::size_t i = 0; i < 35; ++i) game.start.play(whole.moves[i]);
    ASSERT_EQ(game.start.side_to_move(), Color::Black);
    game.moves.assign(whole.moves.begin() + 35, whole.moves.end());
    game.result = "0-1";
    for (Notation n : kNotations) {
        SCOPED_TRACE(std::string(to_string(n)));
        expect_round_trip(game, PgnStyle::Xqbase, n);
        EXPECT_NE(write_pgn(game, PgnStyle::Xqbase, n).find("\n18... "), std::string::npos);
    }
    expect_round_trip(game, PgnStyle::Engine, Notation::Iccs);
}

TEST(PgnRoundTrip, EmptyGame) {
    PgnGame game;
    game.result = "1/2-1/2";
    expect_round_trip(game, PgnStyle::Xqbase, Notation::Chinese);
    expect_round_trip(game, PgnStyle::Engine, Notation::Iccs);
}

}  // namespace
}  // namespace xq
