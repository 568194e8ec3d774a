#pragma once
// Helpers shared by the PGN test files.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/pgn.h"
#include "support/test_data.h"

namespace xq::test {

// 1. 炮二平五 played; Black to move.
inline constexpr const char* kAfterCentralCannon =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";

inline std::vector<std::string> words(const char* text) { return split_words(text); }

// Reads a text that must hold exactly one game without errors.
inline PgnGame read_one(const std::string& text) {
    auto games = read_pgn(text);
    EXPECT_EQ(games.size(), 1u) << text;
    if (games.empty()) return {};
    EXPECT_TRUE(games[0].ok()) << games[0].error->message << "\n" << text;
    return games[0].game;
}

}  // namespace xq::test
