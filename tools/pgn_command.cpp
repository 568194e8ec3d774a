// xq-tool pgn import [FILE|-] [--encoding E]: one JSON line per game read from a PGN file.
// xq-tool pgn export --fen FEN --moves "..." [...]: writes one game as PGN.
// The library reads UTF-8 only; Big5 and GBK archives are found and converted by text/encoding.h.

#include <algorithm>
#include <boost/program_options.hpp>
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
#include "text/encoding.h"

namespace xq::tool {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kUsage =
    "usage: xq-tool pgn import [FILE|-] [--encoding big5|gbk|gb18030|utf-8]\n"
    "       xq-tool pgn export --fen FEN|startpos --moves \"h2e2 h9g7 ...\" [--style xqbase|engine]\n"
    "                          [--notation chinese|traditional|wxf|iccs] [--tag Name=Value ...] [--result "
    "R]\n";

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }


// `encoding_hint` ends the message of an illegal first move, the sign of a wrong encoding.
json describe(const PgnReadResult& r, const std::string& encoding_hint) {
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
        if (e.code == PgnErrorCode::InvalidMove && e.ply == 1) message += encoding_hint;
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
        "encoding", po::value(&encoding), "big5, gbk, gb18030 or utf-8 (default: detected)");
    po::positional_options_description positional;
    positional.add("file", 1);
    po::variables_map vm;
    if (const auto done = parse_options(args, options, positional, kUsage, vm)) return *done;
    std::optional<text::Encoding> forced;
    if (!encoding.empty() && !(forced = text::parse_encoding(encoding)))
        return json_error("usage", "unknown encoding '" + encoding + "' (use big5, gbk, gb18030 or utf-8)");
    std::string bytes;
    if (file == "-") {
        bytes.assign(std::istreambuf_iterator<char>(std::cin), {});
    } else {
        std::ifstream in(file, std::ios::binary);
        if (!in) return json_error("io", "cannot open " + file);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    // --encoding overrides the detection: the one way to read a file the guess gets wrong.
    std::string utf8, encoding_hint;
    if (forced) {
        encoding_hint = " (is --encoding right for this file?)";
        auto converted = text::to_utf8(bytes, *forced);
        if (!converted) return json_error("encoding", "input is " + converted.error());
        utf8 = std::move(*converted);
    } else {
        auto decoded = text::decode(bytes);
        if (!decoded)
            return json_error("encoding", "input is " + decoded.error() + "; pass --encoding to say what it is");
        utf8 = std::move(decoded->text);
        if (decoded->encoding != text::Encoding::Utf8)
            encoding_hint = " (read as " + std::string(text::name(decoded->encoding)) + "; --encoding overrides)";
    }
    const auto games = read_pgn(utf8);
    if (games.empty())
        return json_error("pgn_empty", "no game found in " + (file == "-" ? "standard input" : file));
    bool all_ok = true;
    for (const PgnReadResult& r : games) {
        std::cout << dump(describe(r, encoding_hint)) << "\n";
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
