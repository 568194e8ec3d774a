// The encoding of a PGN file found from its bytes: real games of tests/data/games/games.tsv
// written as xqbase PGN (Chinese move text), encoded in Big5 or GBK with iconv, must come back as
// the same UTF-8 text with the right encoding named.

#include <gtest/gtest.h>
#include <iconv.h>

#include "common/iccs.h"
#include "common/pgn.h"
#include "support/test_data.h"
#include "text/encoding.h"

namespace xq::text {
namespace {

// UTF-8 to `to` with iconv, the way an old Windows tool would have saved the file.
std::string encode(const std::string& utf8, const char* to) {
    iconv_t cd = iconv_open(to, "UTF-8");
    EXPECT_NE(cd, reinterpret_cast<iconv_t>(-1));
    std::string out(utf8.size() * 2 + 16, '\0');
    char* in_ptr = const_cast<char*>(utf8.data());
    std::size_t in_left = utf8.size(), out_left = out.size();
    char* out_ptr = out.data();
    const std::size_t done = iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left);
    iconv_close(cd);
    EXPECT_NE(done, static_cast<std::size_t>(-1)) << "iconv could not write " << to;
    out.resize(out.size() - out_left);
    return out;
}

// `count` real games as one PGN file in the given Chinese script, with Chinese tags as well.
std::string pgn_file(std::size_t count, Notation script) {
    const auto games = xq::test::load_games(xq::test::data_path("games/games.tsv"));
    std::string file;
    for (std::size_t i = 0; i < count && i < games.size(); ++i) {
        PgnGame g;
        g.start = Position::start();
        Position pos = g.start;
        for (const auto& word : games[i].iccs) {
            const auto m = parse_iccs(word);
            if (!m) break;
            g.moves.push_back(*m);
            pos.play(*m);
        }
        g.set_tag("Event", script == Notation::ChineseTraditional ? "全國象棋個人賽" : "全国象棋个人赛");
        g.set_tag("Red", script == Notation::ChineseTraditional ? "紅方棋手" : "红方棋手");
        g.result = games[i].result;
        file += write_pgn(g, PgnStyle::Xqbase, script) + "\n";
    }
    return file;
}

TEST(Encoding, Utf8IsKeptAsIs) {
    const std::string utf8 = pgn_file(3, Notation::Chinese);
    const auto d = decode(utf8);
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->encoding, Encoding::Utf8);
    EXPECT_EQ(d->text, utf8);
}

TEST(Encoding, Big5GamesAreFoundAndConverted) {
    const std::string utf8 = pgn_file(20, Notation::ChineseTraditional);
    const std::string big5 = encode(utf8, "BIG5");
    ASSERT_NE(big5, utf8);
    const auto d = decode(big5);
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->encoding, Encoding::Big5);
    EXPECT_EQ(d->text, utf8);
    EXPECT_EQ(read_pgn(d->text).size(), 20u);
}

TEST(Encoding, GbkGamesAreFoundAndConverted) {
    for (Notation script : {Notation::Chinese, Notation::ChineseTraditional}) {  // GBK has both scripts
        const std::string utf8 = pgn_file(20, script);
        const auto d = decode(encode(utf8, "GBK"));
        ASSERT_TRUE(d) << d.error();
        EXPECT_EQ(d->encoding, Encoding::Gb18030);
        EXPECT_EQ(d->text, utf8);
    }
}

// One short game is enough evidence: two moves, a result.
TEST(Encoding, EvenOneShortGameIsDecidedRight) {
    const std::string utf8 = "[Game \"Chinese Chess\"]\n\n1. 炮二平五 馬８進７\n1-0\n";
    EXPECT_EQ(decode(encode(utf8, "BIG5"))->encoding, Encoding::Big5);
    EXPECT_EQ(decode(encode(utf8, "GBK"))->encoding, Encoding::Gb18030);
}

// Coordinates for moves leave only the names to go by.
TEST(Encoding, NamesAloneDecideWhenTheMovesAreCoordinates) {
    const std::string utf8 =
        "[Variant \"xiangqi\"]\n[Event \"全國個人賽\"]\n[White \"胡榮華\"]\n[Black \"呂欽\"]\n\n1. h2e2 h9g7 "
        "1-0\n";
    EXPECT_EQ(decode(encode(utf8, "BIG5"))->encoding, Encoding::Big5);
    const std::string simplified =
        "[Variant \"xiangqi\"]\n[Event \"全国个人赛\"]\n[White \"胡荣华\"]\n[Black \"吕钦\"]\n\n1. h2e2 h9g7 "
        "1-0\n";
    EXPECT_EQ(decode(encode(simplified, "GBK"))->encoding, Encoding::Gb18030);
}

TEST(Encoding, ByteOrderMarkWinsAndIsDropped) {
    const auto d = decode("\xEF\xBB\xBF[Event \"x\"]");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->encoding, Encoding::Utf8);
    EXPECT_EQ(d->text, "[Event \"x\"]");
    const auto utf16 = decode(std::string("\xFF\xFE[\0E\0]\0", 8));
    ASSERT_TRUE(utf16) << utf16.error();
    EXPECT_EQ(utf16->encoding, Encoding::Utf16Le);
    EXPECT_EQ(utf16->text, "[E]");
    const auto broken = decode("\xEF\xBB\xBF\xFFx");
    ASSERT_FALSE(broken);
    EXPECT_NE(broken.error().find("byte order mark"), std::string::npos) << broken.error();
}

TEST(Encoding, BytesNoEncodingDefinesAreAnErrorWithTheirPlace) {
    const auto d = decode("[Event \"x\"]\n\x81\x20\xFF");  // 0x81 0x20: not Big5, not GBK
    ASSERT_FALSE(d);
    EXPECT_NE(d.error().find("line 2, byte 12"), std::string::npos) << d.error();
    const auto forced = to_utf8("ok\n\xFF\xFF", Encoding::Big5);
    ASSERT_FALSE(forced);
    EXPECT_EQ(forced.error(), "not valid big5 (line 2, byte 3)");
}

TEST(Encoding, NamesParseAndPrint) {
    EXPECT_EQ(parse_encoding("BIG5"), Encoding::Big5);
    EXPECT_EQ(parse_encoding("gb18030"), Encoding::Gb18030);
    EXPECT_EQ(parse_encoding("GBK"), Encoding::Gb18030);
    EXPECT_EQ(parse_encoding("utf8"), Encoding::Utf8);
    EXPECT_EQ(parse_encoding("latin1"), std::nullopt);
    EXPECT_EQ(name(Encoding::Big5), "big5");
    EXPECT_EQ(first_invalid_utf8("ab\xC0\x80"), 2u);  // overlong
    EXPECT_EQ(first_invalid_utf8("炮"), std::nullopt);
}

}  // namespace
}  // namespace xq::text
