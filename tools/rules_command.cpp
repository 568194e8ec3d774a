// xq-tool rules --fen FEN [--moves "..."]: applies the moves and prints one line of JSON describing
// the position reached, or a JSON error (exit 2) for a bad FEN or move.

#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.h"
#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "common/outcome.h"

namespace xq::tool {
namespace {

namespace po = boost::program_options;
using nlohmann::json;

int print_error(std::string_view code, const std::string& message, std::optional<std::size_t> index = {}) {
    json out = {{"error", code}, {"message", message}};
    if (index) out["index"] = *index;
    std::cout << out.dump() << std::endl;
    return 2;
}

json describe(const Position& pos) {
    std::vector<std::string> moves;
    for (Move m : legal_moves(pos)) moves.push_back(to_iccs(m));
    std::sort(moves.begin(), moves.end());
    const Outcome outcome = position_outcome(pos);
    return {{"fen", to_fen(pos)},
            {"side_to_move", to_string(pos.side_to_move())},
            {"in_check", pos.in_check()},
            {"legal_moves", moves},
            {"result", to_string(outcome.result)},
            {"reason", outcome.reason == Reason::None ? json(nullptr) : json(to_string(outcome.reason))}};
}

}  // namespace

int rules_command(const std::vector<std::string>& args) {
    std::string fen = "startpos", moves;
    po::options_description options("rules options");
    options.add_options()("help", "show this help")(
        "fen", po::value(&fen), "start position (FEN or 'startpos')")("moves", po::value(&moves),
                                                                      "space-separated ICCS moves to apply");
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(options).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        return print_error("usage", e.what());
    }
    if (vm.count("help")) {
        std::cout << "usage: xq-tool rules --fen FEN|startpos [--moves \"h2e2 h9g7 ...\"]\n" << options;
        return 0;
    }
    auto pos = parse_fen(fen == "startpos" ? kStartFen : fen);
    if (!pos) return print_error(code_name(pos.error().code), pos.error().message);

    std::istringstream tokens(moves);
    std::string token;
    for (std::size_t index = 0; tokens >> token; ++index) {
        const auto move = parse_iccs(token);
        if (!move) return print_error("invalid_move_syntax", "'" + token + "' is not an ICCS move", index);
        if (position_outcome(*pos).result != Result::Ongoing)
            return print_error("game_over", "move '" + token + "': the game is already over", index);
        if (!is_legal(*pos, *move))
            return print_error("illegal_move", "'" + token + "' is illegal in " + to_fen(*pos), index);
        pos->play(*move);
    }
    std::cout << describe(*pos).dump() << std::endl;
    return 0;
}

}  // namespace xq::tool
