// Game records on disk as the client sees them, without a window: the file dialog's listing and
// what a typed path means (FileBrowser), and PGN files read in any encoding (read_pgn_file).

#include <gtest/gtest.h>
#include <iconv.h>
#include <unistd.h>

#include <fstream>

#include "client/records/file_browser.h"
#include "client/records/pgn_file.h"
#include "support/temp_dir.h"

namespace xq::client {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

std::string to_big5(const std::string& utf8) {
    iconv_t cd = iconv_open("BIG5", "UTF-8");
    std::string out(utf8.size() * 2, '\0');
    char* in_ptr = const_cast<char*>(utf8.data());
    std::size_t in_left = utf8.size(), out_left = out.size();
    char* out_ptr = out.data();
    EXPECT_NE(iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left), static_cast<std::size_t>(-1));
    iconv_close(cd);
    out.resize(out.size() - out_left);
    return out;
}

const std::string kTwoGames =
    "[Game \"Chinese Chess\"]\n[Event \"全國賽\"]\n[Date \"1990.05.01\"]\n[Red \"胡榮華\"]\n[Black "
    "\"呂欽\"]\n"
    "[Result \"1-0\"]\n\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n1-0\n\n"
    "[Game \"Chinese Chess\"]\n[Event \"第二局\"]\n[Result \"*\"]\n\n1. 炮二平五 馬８進７\n2. 帥五進五\n*\n";

class Records : public ::testing::Test {
protected:
    xq::test::TempDir tmp_{"xq-records"};
    fs::path dir() const { return tmp_.path(); }
};

TEST_F(Records, ListsFoldersThenPgnFilesAndNothingHidden) {
    fs::create_directories(dir() / "b-folder");
    fs::create_directories(dir() / "a-folder");
    fs::create_directories(dir() / ".hidden");
    write(dir() / "z.pgn", "");
    write(dir() / "Y.PGN", "");
    write(dir() / "notes.txt", "");
    write(dir() / ".secret.pgn", "");
    FileBrowser b(FileDialogKind::Open, dir());
    EXPECT_EQ(b.folder(), fs::canonical(dir()));
    EXPECT_EQ(b.entries(),
              (std::vector<FileEntry>{
                  {"..", true}, {"a-folder", true}, {"b-folder", true}, {"Y.PGN", false}, {"z.pgn", false}}));
    EXPECT_EQ(b.error(), "");
}

TEST_F(Records, OpenTakesExistingFilesAndEntersFolders) {
    fs::create_directories(dir() / "games");
    write(dir() / "games" / "one.pgn", "x");
    FileBrowser b(FileDialogKind::Open, dir());
    EXPECT_EQ(b.choose("games"), std::nullopt);  // a folder opens
    EXPECT_EQ(b.folder(), fs::canonical(dir() / "games"));
    EXPECT_EQ(b.choose("one.pgn"), b.folder() / "one.pgn");
    EXPECT_EQ(b.choose(".."), std::nullopt);
    EXPECT_EQ(b.folder(), fs::canonical(dir()));
    EXPECT_EQ(b.choose("missing.pgn"), std::nullopt);
    EXPECT_EQ(b.error(), "there is no file " + (b.folder() / "missing.pgn").string());
    EXPECT_EQ(b.choose("  "), std::nullopt);
    EXPECT_NE(b.error(), "");
    EXPECT_EQ(b.choose((dir() / "games" / "one.pgn").string()), dir() / "games" / "one.pgn");  // absolute
}

TEST_F(Records, SaveAddsTheExtensionAndNeedsAnExistingFolder) {
    FileBrowser b(FileDialogKind::Save, dir());
    EXPECT_EQ(b.choose("my game"), b.folder() / "my game.pgn");
    EXPECT_EQ(b.choose("keep.txt"), b.folder() / "keep.txt");
    EXPECT_EQ(b.choose("nowhere/game.pgn"), std::nullopt);
    EXPECT_NE(b.error().find("there is no folder"), std::string::npos) << b.error();
}

// Saving the same game twice (same players, same day) must not overwrite the first file unasked.
TEST_F(Records, SaveOffersANameNotTaken) {
    EXPECT_EQ(unused_file_name(dir(), "Ann-Bob-2026.11.26.pgn"), "Ann-Bob-2026.11.26.pgn");
    std::ofstream(dir() / "Ann-Bob-2026.11.26.pgn") << "x";
    EXPECT_EQ(unused_file_name(dir(), "Ann-Bob-2026.11.26.pgn"), "Ann-Bob-2026.11.26-2.pgn");
    std::ofstream(dir() / "Ann-Bob-2026.11.26-2.pgn") << "x";
    EXPECT_EQ(unused_file_name(dir(), "Ann-Bob-2026.11.26.pgn"), "Ann-Bob-2026.11.26-3.pgn");
    std::ofstream(dir() / fs::path("胡榮華-呂欽.pgn")) << "x";
    EXPECT_EQ(unused_file_name(dir(), "胡榮華-呂欽.pgn"), "胡榮華-呂欽-2.pgn");
}

TEST_F(Records, AFolderThatCannotBeOpenedSaysWhy) {
    FileBrowser b(FileDialogKind::Open, dir());
    EXPECT_FALSE(b.open_folder(dir() / "absent"));
    EXPECT_NE(b.error().find("cannot open"), std::string::npos) << b.error();
    EXPECT_EQ(b.folder(), fs::canonical(dir()));  // the listing stays
}

TEST_F(Records, ABig5FileOpensWithEveryGameTitled) {
    write(dir() / "big5.pgn", to_big5(kTwoGames));
    const auto file = read_pgn_file(dir() / "big5.pgn");
    ASSERT_TRUE(file) << file.error();
    EXPECT_EQ(file->encoding, text::Encoding::Big5);
    ASSERT_EQ(file->games.size(), 2u);
    EXPECT_EQ(file->games[0].title, "胡榮華 – 呂欽");
    EXPECT_EQ(file->games[0].details, "1990.05.01 · 1-0 · 2 moves");
    EXPECT_EQ(file->games[0].game.moves.size(), 4u);
    EXPECT_FALSE(file->games[0].error);
    EXPECT_EQ(file->games[1].title, "第二局");
    ASSERT_TRUE(file->games[1].error);  // the general cannot leave its palace
    EXPECT_NE(file->games[1].error->find("line 17, ply 3 '帥五進五'"), std::string::npos)
        << *file->games[1].error;
    EXPECT_EQ(file->games[1].game.moves.size(), 2u);
}

TEST_F(Records, FilesThatAreNoRecordsAreRefusedWithAReason) {
    write(dir() / "empty.pgn", "just words\n");
    const auto empty = read_pgn_file(dir() / "empty.pgn");
    ASSERT_FALSE(empty);
    EXPECT_TRUE(empty.error().starts_with("empty.pgn: no game found in it (line 1")) << empty.error();
    write(dir() / "binary.pgn", std::string("\x81\x20\xFF\x00", 4));
    const auto binary = read_pgn_file(dir() / "binary.pgn");
    ASSERT_FALSE(binary);
    EXPECT_NE(binary.error().find("not a text file"), std::string::npos) << binary.error();
    EXPECT_FALSE(read_pgn_file(dir() / "absent.pgn"));
    EXPECT_NE(read_pgn_file(dir()).error().find("is a folder"), std::string::npos);
}

TEST_F(Records, WrittenTextReadsBack) {
    ASSERT_TRUE(write_text_file(dir() / "out.pgn", kTwoGames));
    const auto file = read_pgn_file(dir() / "out.pgn");
    ASSERT_TRUE(file);
    EXPECT_EQ(file->encoding, text::Encoding::Utf8);
    const auto refused = write_text_file(dir() / "no" / "such" / "x.pgn", "x");
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("cannot write"), std::string::npos);
}

}  // namespace
}  // namespace xq::client
