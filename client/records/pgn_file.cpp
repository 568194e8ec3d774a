#include "client/records/pgn_file.h"

#include <fstream>
#include <iterator>
#include <system_error>

namespace xq::client {
namespace {

std::string describe_error(const PgnError& e) {
    std::string out = "line " + std::to_string(e.line);
    if (e.ply > 0) out += ", ply " + std::to_string(e.ply);
    if (!e.text.empty()) out += " '" + e.text + "'";
    return out + ": " + e.message;
}

RecordGame record_of(PgnReadResult r, std::size_t index) {
    RecordGame out;
    const PgnGame& g = r.game;
    // Engine-style files name the sides White and Black.
    const std::string red = g.tag("Red").value_or(g.tag("White").value_or(""));
    const std::string black = g.tag("Black").value_or("");
    const std::string event = g.tag("Event").value_or("");
    out.title = !red.empty() || !black.empty()
                    ? (red.empty() ? "?" : red) + " – " + (black.empty() ? "?" : black)
                : !event.empty() ? event
                                 : "Game " + std::to_string(index + 1);
    std::string details;
    const auto add = [&](const std::string& part) {
        if (!part.empty() && part.find('?') == std::string::npos)
            details += (details.empty() ? "" : " · ") + part;
    };
    add(g.tag("Date").value_or(""));
    add(g.result == "*" ? "" : g.result);
    add(std::to_string((g.moves.size() + 1) / 2) + ((g.moves.size() + 1) / 2 == 1 ? " move" : " moves"));
    out.details = details;
    if (r.error) out.error = describe_error(*r.error);
    out.game = std::move(r.game);
    return out;
}

}  // namespace

std::expected<PgnFile, std::string> read_pgn_bytes(std::string_view bytes) {
    auto decoded = text::decode(bytes);
    if (!decoded) return std::unexpected("this is not a text file in a known encoding: " + decoded.error());
    PgnFile file;
    file.encoding = decoded->encoding;
    // Text with neither tags nor moves (a note, a text file renamed) reads as a "game" that fails
    // at its first word: that is no game.
    std::optional<PgnError> first_error;
    for (auto& r : read_pgn(decoded->text)) {
        if (r.game.tags.empty() && r.game.moves.empty()) {
            if (!first_error && r.error) first_error = r.error;
            continue;
        }
        file.games.push_back(record_of(std::move(r), file.games.size()));
    }
    if (file.games.empty())
        return std::unexpected("no game found in it" +
                               (first_error ? " (" + describe_error(*first_error) + ")" : ""));
    return file;
}

std::expected<PgnFile, std::string> read_pgn_file(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return std::unexpected(path.string() + " is a folder");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return std::unexpected("cannot open " + path.string() + ": " + ec.message());
    if (size > kMaxPgnFileBytes)
        return std::unexpected(path.string() + " is too large for a game record (" +
                               std::to_string(size >> 20) + " MB)");
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::unexpected("cannot open " + path.string());
    const std::string bytes{std::istreambuf_iterator<char>(in), {}};
    auto file = read_pgn_bytes(bytes);
    if (!file) return std::unexpected(path.filename().string() + ": " + file.error());
    return file;
}

std::expected<void, std::string> write_text_file(const std::filesystem::path& path, std::string_view text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return std::unexpected("cannot write " + path.string());
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) return std::unexpected("could not finish writing " + path.string());
    return {};
}

}  // namespace xq::client
