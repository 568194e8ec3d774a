// xq-tool pgn import [FILE|-] [--encoding E]: one JSON line per game read from a PGN file.
// xq-tool pgn export --fen FEN --moves "..." [...]: writes one game as PGN.
// The library reads UTF-8 only; this is where Big5 and GBK archives are converted (glibc iconv).

#include <iconv.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <cerrno>
#include <expected>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli.h"
#include "commands.h"
#include "common/fen.h"
#include "common/iccs.h"
#include "common/pgn.h"

namespace xq::tool {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kUsage =
    "usage: xq-tool pgn import [FILE|-] [--encoding big5|gbk|gb18030|utf-8]\n"
    "       xq-tool pgn export --fen FEN|startpos --moves \"h2e2 h9g7 ...\" [--style xqbase|engine]\n"
    "                          [--notation chinese|traditional|wxf|iccs] [--tag Name=Value ...] [--result "
    "R]\n";

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }


int line_at(std::string_view bytes, std::size_t offset) {
    return 1 + static_cast<int>(
                   std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// Offset of the first byte that breaks UTF-8 (bad lead, missing continuation, overlong, surrogate).
std::optional<std::size_t> first_invalid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c < 0x80           ? 1
                              : (c >> 5) == 0x6  ? 2
                              : (c >> 4) == 0xE  ? 3
                              : (c >> 3) == 0x1E ? 4
                                                 : 0;
        if (n == 0 || c == 0xC0 || c == 0xC1 || c > 0xF4 || i + n > s.size()) return i;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return i;
        const auto c1 = static_cast<unsigned char>(n > 1 ? s[i + 1] : 0);
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
            (c == 0xF4 && c1 >= 0x90))
            return i;
        i += n;
    }
    return std::nullopt;
}

// Converts to UTF-8 with iconv; any byte the source encoding does not define is an error, so a
// wrong --encoding fails here or at the first move instead of producing mojibake.
std::expected<std::string, std::string> to_utf8(const std::string& bytes, const std::string& encoding) {
    std::string from;
    for (char c : encoding) from += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (from == "UTF-8" || from == "UTF8") {
        if (auto bad = first_invalid_utf8(bytes))
            return std::unexpected("input is not valid UTF-8 (line " + std::to_string(line_at(bytes, *bad)) +
                                   ", byte " + std::to_string(*bad) + ")");
        return bytes;
    }
    if (from != "BIG5" && from != "GBK" && from != "GB18030")
        return std::unexpected("unknown encoding '" + encoding + "' (use big5, gbk, gb18030 or utf-8)");
    iconv_t cd = iconv_open("UTF-8", from.c_str());
    if (cd == reinterpret_cast<iconv_t>(-1)) return std::unexpected("iconv cannot convert from " + from);
    std::string out(bytes.size() * 2 + 16, '\0');
    char* in_ptr = const_cast<char*>(bytes.data());
    std::size_t in_left = bytes.size();
    char* out_ptr = out.data();
    std::size_t out_left = out.size();
    std::string failure;
    while (in_left > 0) {
        if (iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left) != static_cast<std::size_t>(-1)) break;
        if (errno == E2BIG) {  // grow the buffer and carry on where iconv stopped
            const std::size_t used = out.size() - out_left;
            out.resize(out.size() * 2);
            out_ptr = out.data() + used;
            out_left = out.size() - used;
            continue;
        }
        const std::size_t offset = bytes.size() - in_left;
        failure = "input is not valid " + encoding + " (line " + std::to_string(line_at(bytes, offset)) +
                  ", byte " + std::to_string(offset) + ")";
        break;
    }
    iconv_close(cd);
    if (!failure.empty()) return std::unexpected(failure);
    out.resize(out.size() - out_left);
    return out;
}

json describe(const PgnReadResult& r, bool explicit_encoding) {
    const PgnGame& g = r.game;
    json tags = json::object();
    for (const PgnTag& t : g.tags) tags[t.name] = t.value;
    json moves = json::array();
    for (Move m : g.moves) moves.push_back(to_iccs(m));
    json out = {{"tags", tags},
                {"fen", to_fen(g.start)},
                {"moves", moves},
                {"result", g.result},
                {"final_fen", to_fen(g.final_position())}};
    if (!g.opening_comment.empty()) out["opening_comment"] = g.opening_comment;
    json comments = json::array();
    for (std::size_t i = 0; i < g.moves.size(); ++i)
        if (!g.comment_after(i).empty()) comments.push_back({{"ply", i + 1}, {"text", g.comment_after(i)}});
    if (!comments.empty()) out["comments"] = comments;
    if (r.error) {
        const PgnError& e = *r.error;
        std::string message = e.message;
        if (explicit_encoding && e.code == PgnErrorCode::InvalidMove && e.ply == 1)
            message += " (is --encoding right for this file?)";
        out["error"] = {{"code", code_name(e.code)},
                        {"message", message},
                        {"line", e.line},
                        {"ply", e.ply},
                        {"text", e.text}};
    }
    return out;
}

int import_command(const std::vector<std::string>& args) {
    std::string file = "-", encoding;
    po::options_description options("pgn import options");
    options.add_options()("help", "show this help")("file", po::value(&file),
                                                    "PGN file, or - for standard input")(
        "encoding", po::value(&encoding), "big5, gbk, gb18030 or utf-8 (default: UTF-8, checked)");
    po::positional_options_description positional;
    positional.add("file", 1);
    po::variables_map vm;
    if (const auto done = parse_options(args, options, positional, kUsage, vm)) return *done;
    static const std::vector<std::string> kEncodings = {"", "big5", "gbk", "gb18030", "utf-8", "utf8"};
    std::string lower;
    for (char c : encoding) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::find(kEncodings.begin(), kEncodings.end(), lower) == kEncodings.end())
        return json_error("usage", "unknown encoding '" + encoding + "' (use big5, gbk, gb18030 or utf-8)");
    std::string bytes;
    if (file == "-") {
        bytes.assign(std::istreambuf_iterator<char>(std::cin), {});
    } else {
        std::ifstream in(file, std::ios::binary);
        if (!in) return json_error("io", "cannot open " + file);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    std::string text;
    if (encoding.empty()) {
        if (auto bad = first_invalid_utf8(bytes))
            return json_error("encoding", "input is not valid UTF-8 (line " +
                                               std::to_string(line_at(bytes, *bad)) + ", byte " +
                                               std::to_string(*bad) +
                                               "); pass --encoding big5, gbk or gb18030 to say what it is");
        text = std::move(bytes);
    } else {
        auto converted = to_utf8(bytes, encoding);
        if (!converted) return json_error("encoding", converted.error());
        text = std::move(*converted);
    }
    const auto games = read_pgn(text);
    if (games.empty())
        return json_error("pgn_empty", "no game found in " + (file == "-" ? "standard input" : file));
    const bool explicit_encoding = !encoding.empty();
    bool all_ok = true;
    for (const PgnReadResult& r : games) {
        std::cout << dump(describe(r, explicit_encoding)) << "\n";
        all_ok = all_ok && r.ok();
    }
    std::cout.flush();
    return all_ok ? 0 : 2;
}

int export_command(const std::vector<std::string>& args) {
    std::string fen = "startpos", moves, style_name = "xqbase", notation_name = "chinese", result;
    std::vector<std::string> tags;
    po::options_description options("pgn export options");
    options.add_options()("help", "show this help")("fen", po::value(&fen),
                                                    "start position (FEN or 'startpos')")(
        "moves", po::value(&moves), "space-separated moves (ICCS, WXF or Chinese)")(
        "style", po::value(&style_name), "xqbase (default) or engine")(
        "notation", po::value(&notation_name), "xqbase move text: chinese, traditional, wxf or iccs")(
        "tag", po::value(&tags)->composing(), "a tag as Name=Value (repeatable)")(
        "result", po::value(&result), "1-0, 0-1, 1/2-1/2 or * (default: the Result tag, else *)");
    po::variables_map vm;
    if (const auto done = parse_options(args, options, {}, kUsage, vm)) return *done;
    PgnStyle style = PgnStyle::Xqbase;
    if (style_name == "engine")
        style = PgnStyle::Engine;
    else if (style_name != "xqbase")
        return json_error("usage", "--style must be xqbase or engine");
    Notation notation = Notation::Chinese;
    if (notation_name == "traditional")
        notation = Notation::ChineseTraditional;
    else if (notation_name == "wxf")
        notation = Notation::Wxf;
    else if (notation_name == "iccs")
        notation = Notation::Iccs;
    else if (notation_name != "chinese")
        return json_error("usage", "--notation must be chinese, traditional, wxf or iccs");

    PgnGame game;
    for (const std::string& tag : tags) {
        const std::size_t eq = tag.find('=');
        if (eq == 0 || eq == std::string::npos)
            return json_error("usage", "--tag wants Name=Value, got '" + tag + "'");
        game.set_tag(tag.substr(0, eq), tag.substr(eq + 1));
    }
    if (result.empty()) result = game.tag("Result").value_or("*");
    if (!is_pgn_result(result)) return json_error("usage", "--result must be 1-0, 0-1, 1/2-1/2 or *");
    game.result = result;
    auto start = parse_fen(fen == "startpos" ? kStartFen : fen);
    if (!start) return json_error(code_name(start.error().code), start.error().message);
    game.start = *start;

    Position pos = game.start;
    std::istringstream words(moves);
    std::string word;
    for (std::size_t index = 0; words >> word; ++index) {
        const auto move = parse_move(pos, word);
        if (!move)
            return json_error(code_name(move.error().code), "'" + word + "': " + move.error().message,
                               index);
        game.moves.push_back(*move);
        pos.play(*move);
    }
    std::cout << write_pgn(game, style, notation) << std::flush;
    return 0;
}

}  // namespace

int pgn_command(const std::vector<std::string>& args) {
    if (args.empty()) return json_error("usage", std::string("pgn needs a subcommand\n") + kUsage);
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "import") return import_command(rest);
    if (args[0] == "export") return export_command(rest);
    if (args[0] == "help" || args[0] == "--help") {
        std::cout << kUsage;
        return 0;
    }
    return json_error("usage", "unknown pgn subcommand '" + args[0] + "' (import, export)");
}

}  // namespace xq::tool
