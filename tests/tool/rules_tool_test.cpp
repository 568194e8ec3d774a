// `xq-tool rules` run as a user runs it: the JSON line it prints, field by field.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using nlohmann::json;

struct ToolRun {
    int status = -1;
    json out;
};

// Shell-quotes one argument.
std::string quote(const std::string& arg) {
    std::string q = "'";
    for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

ToolRun rules(const std::string& fen, const std::string& moves, const std::string& extra = "") {
    const std::string command =
        std::string(XQ_TOOL_PATH) + " rules --fen " + quote(fen) + " --moves " + quote(moves) + " " + extra;
    std::FILE* pipe = popen(command.c_str(), "r");
    std::string text;
    std::array<char, 4096> buffer{};
    for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) text.append(buffer.data(), n);
    const int status = pclose(pipe);
    EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line expected: " << text;
    return {WEXITSTATUS(status), json::parse(text)};
}

// Repeats a move sequence `times` times, space separated.
std::string repeat(const std::string& moves, int times) {
    std::string out;
    for (int i = 0; i < times; ++i) out += (out.empty() ? "" : " ") + moves;
    return out;
}

TEST(RulesTool, StartPosition) {
    const ToolRun r = rules("startpos", "");
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(r.out["fen"], "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    EXPECT_EQ(r.out["side_to_move"], "red");
    EXPECT_EQ(r.out["in_check"], false);
    EXPECT_EQ(r.out["legal_moves"].size(), 44u);
    EXPECT_TRUE(std::is_sorted(r.out["legal_moves"].begin(), r.out["legal_moves"].end()));
    EXPECT_EQ(r.out["result"], "ongoing");
    EXPECT_TRUE(r.out["reason"].is_null());
    EXPECT_TRUE(r.out["explanation"].is_null());
    EXPECT_EQ(r.out["banned_moves"], json::array());
    EXPECT_EQ(r.out["history"], json::array());
}

TEST(RulesTool, MovesInAnyNotationAndHistoryInAll) {
    const ToolRun r = rules("startpos", "炮二平五 H8+7 h0g2 車9平8");
    ASSERT_EQ(r.status, 0) << r.out.dump();
    ASSERT_EQ(r.out["history"].size(), 4u);
    EXPECT_EQ(r.out["history"][0], (json{{"iccs", "h2e2"}, {"wxf", "C2=5"}, {"chinese", "炮二平五"}}));
    EXPECT_EQ(r.out["history"][1], (json{{"iccs", "h9g7"}, {"wxf", "H8+7"}, {"chinese", "马8进7"}}));
    EXPECT_EQ(r.out["history"][2]["chinese"], "马二进三");
    EXPECT_EQ(r.out["history"][3]["iccs"], "i9h9");
    EXPECT_EQ(r.out["side_to_move"], "red");
}

TEST(RulesTool, Checkmate) {
    const ToolRun r = rules("3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1", "a7d7");
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(r.out["result"], "red_wins");
    EXPECT_EQ(r.out["reason"], "checkmate");
    EXPECT_EQ(r.out["in_check"], true);
    EXPECT_EQ(r.out["legal_moves"], json::array());
    EXPECT_NE(r.out["explanation"].get<std::string>().find("checkmate"), std::string::npos) << r.out["explanation"];
}

TEST(RulesTool, PerpetualCheckLosesAndIsBannedBeforehand) {
    const std::string fen = "9/9/3k5/R8/3P5/9/9/9/9/4K4 w - - 0 1";
    const std::string cycle = "d7d8 a7a8 d8d7 a8a7";
    const ToolRun over = rules(fen, "a6a7 " + repeat(cycle, 2));
    ASSERT_EQ(over.status, 0);
    EXPECT_EQ(over.out["result"], "black_wins");
    EXPECT_EQ(over.out["reason"], "perpetual_check");
    EXPECT_EQ(over.out["explanation"].get<std::string>().rfind("Red loses: perpetual check", 0), 0u)
        << over.out["explanation"];
    EXPECT_EQ(over.out["legal_moves"], json::array());  // the game is over

    const ToolRun before = rules(fen, "a6a7 " + cycle + " d7d8 a7a8 d8d7");
    ASSERT_EQ(before.status, 0);
    EXPECT_EQ(before.out["result"], "ongoing");
    ASSERT_EQ(before.out["banned_moves"].size(), 1u) << before.out["banned_moves"];
    EXPECT_EQ(before.out["banned_moves"][0]["move"], "a8a7");
    EXPECT_EQ(before.out["banned_moves"][0]["reason"], "perpetual_check");
    EXPECT_FALSE(before.out["banned_moves"][0]["explanation"].get<std::string>().empty());
}

TEST(RulesTool, PlainRepetitionDraws) {
    const ToolRun r = rules("startpos", repeat("b0c2 b9c7 c2b0 c7b9", 2));
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(r.out["result"], "draw");
    EXPECT_EQ(r.out["reason"], "repetition");
}

TEST(RulesTool, DisputedCheckAndChaseFollowsThePolicy) {
    const std::string fen = "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1";
    const std::string moves = repeat("f4d4 f5d5 d4f4 d5f5", 2);
    const ToolRun lenient = rules(fen, moves);
    ASSERT_EQ(lenient.status, 0);
    EXPECT_EQ(lenient.out["result"], "draw");
    const ToolRun strict = rules(fen, moves, "--rules strict");
    ASSERT_EQ(strict.status, 0);
    EXPECT_EQ(strict.out["result"], "black_wins");
    EXPECT_EQ(strict.out["reason"], "perpetual_chase");
}

TEST(RulesTool, NoCaptureLimit) {
    const ToolRun r = rules("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 119 80", "a0a1");
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(r.out["result"], "draw");
    EXPECT_EQ(r.out["reason"], "move_limit");
    const ToolRun earlier = rules("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 80", "a0a1");
    EXPECT_EQ(earlier.out["result"], "ongoing");
}

TEST(RulesTool, ErrorsNameTheMove) {
    const ToolRun illegal = rules("startpos", "h2e2 h9g8");
    EXPECT_EQ(illegal.status, 2);
    EXPECT_EQ(illegal.out["error"], "illegal_move");
    EXPECT_EQ(illegal.out["index"], 1);
    const ToolRun ambiguous = rules("4k4/9/9/9/9/9/8R/9/9/3K4R w - - 0 1", "R1+1");
    EXPECT_EQ(ambiguous.status, 2);
    EXPECT_EQ(ambiguous.out["error"], "ambiguous_move");
    const ToolRun fen = rules("4k4/9/9/9/9/9/9/9/9/4K5 w", "");
    EXPECT_EQ(fen.status, 2);
    EXPECT_EQ(fen.out["error"], "fen_file_count");
    EXPECT_FALSE(fen.out["message"].get<std::string>().empty());
}

}  // namespace
