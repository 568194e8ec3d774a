#pragma once
// A PGN file as the client opens and saves it: the bytes decoded whatever their encoding
// (text/encoding.h), every game read, each with a line that tells it apart in a list.

#include <cstdint>
#include <expected>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/pgn.h"
#include "text/encoding.h"

namespace xq::client {

struct RecordGame {
    PgnGame game;                      // complete, or the moves before `error`
    std::optional<std::string> error;  // "line 12, move 7 '炮八平九': ..." when a move did not read
    std::string title;                 // "王天一 – 郑惟桐", else the Event, else "Game 3"
    std::string details;               // "2019.03.14 · 1-0 · 84 moves"
};

struct PgnFile {
    std::vector<RecordGame> games;
    text::Encoding encoding = text::Encoding::Utf8;
};

// Files beyond this are refused: a game record is a few kilobytes, archives a few megabytes.
inline constexpr std::uintmax_t kMaxPgnFileBytes = 32u << 20;

// Reads and decodes a file; an error says why in a sentence (cannot open, too large, not text in a
// known encoding, no game in it).
std::expected<PgnFile, std::string> read_pgn_file(const std::filesystem::path& path);
// Reads PGN text already in memory (the file's bytes, in any supported encoding).
std::expected<PgnFile, std::string> read_pgn_bytes(std::string_view bytes);

// Writes `text` to `path` (replacing it): written whole or an error naming the path.
std::expected<void, std::string> write_text_file(const std::filesystem::path& path, std::string_view text);

}  // namespace xq::client
