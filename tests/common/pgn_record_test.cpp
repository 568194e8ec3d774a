// The record of a played game with its full tags (common/pgn_record.h), as the server archives it
// and the client saves it: which tags, in which order, when they are left out, and the text.

#include <gtest/gtest.h>

#include "common/fen.h"
#include "common/iccs.h"
#include "common/pgn_record.h"

namespace xq {
namespace {

using namespace std::chrono;

std::vector<Move> moves_of(std::initializer_list<const char*> iccs) {
    std::vector<Move> out;
    for (const char* m : iccs) out.push_back(*parse_iccs(m));
    return out;
}

TEST(PgnRecord, AFinishedGameHasEveryTag) {
    const GameRecordTags tags{.event = "Online game 7",
                              .site = "Club",
                              .date = sys_days{2026y / March / 14},
                              .red = "Ann",
                              .black = "Bob",
                              .time_control = "300+5/30",
                              .result = Result::BlackWins,
                              .termination = "resignation",
                              .explanation = "Red resigns."};
    const auto moves = moves_of({"h2e2", "h9g7"});
    const PgnGame g = game_record(Position::start(), moves, tags);
    std::vector<std::string> names;
    for (const auto& t : g.tags) names.push_back(t.name);
    EXPECT_EQ(names, (std::vector<std::string>{"Event", "Site", "Date", "Red", "Black", "TimeControl",
                                               "Termination"}));
    EXPECT_EQ(g.tag("Date"), "2026.03.14");
    EXPECT_EQ(g.result, "0-1");
    EXPECT_EQ(g.comment_after(1), "Red resigns.");
    EXPECT_EQ(write_pgn(g),
              "[Game \"Chinese Chess\"]\n[Event \"Online game 7\"]\n[Site \"Club\"]\n[Date \"2026.03.14\"]\n"
              "[Red \"Ann\"]\n[Black \"Bob\"]\n[TimeControl \"300+5/30\"]\n[Termination \"resignation\"]\n"
              "[Result \"0-1\"]\n\n1. 炮二平五 马8进7 {Red resigns.}\n0-1\n");
}

TEST(PgnRecord, AGameInProgressLeavesOutWhatItHasNot) {
    GameRecordTags tags;
    tags.event = "Hotseat game";
    tags.date = sys_days{2026y / November / 26};
    tags.red = "R";
    tags.black = "B";
    const auto start = parse_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    ASSERT_TRUE(start);
    const PgnGame g = game_record(*start, {}, tags);
    EXPECT_FALSE(g.tag("Site"));
    EXPECT_FALSE(g.tag("TimeControl"));
    EXPECT_FALSE(g.tag("Termination"));
    EXPECT_EQ(g.result, "*");
    EXPECT_NE(write_pgn(g).find("[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]"), std::string::npos);
}

TEST(PgnRecord, TimeControlAndResultText) {
    EXPECT_EQ(pgn_time_control(minutes(10), seconds(5), std::nullopt), "600+5");
    EXPECT_EQ(pgn_time_control(milliseconds(1500), milliseconds(0), seconds(30)), "1.5+0/30");
    EXPECT_EQ(pgn_result(Result::Draw), "1/2-1/2");
    EXPECT_EQ(pgn_result(Result::Ongoing), "*");
    EXPECT_EQ(pgn_date(sys_days{2026y / January / 2}), "2026.01.02");
}

}  // namespace
}  // namespace xq
