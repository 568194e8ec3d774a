// xq-tool rules --fen FEN [--moves "..."] [--rules pikafish|strict]: plays the moves (ICCS, WXF or
// Chinese) as a Game and prints one line of JSON describing where the game stands, or a JSON error
// (exit 2) for a bad FEN or move.

#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli.h"
#include "commands.h"
#include "common/fen.h"
#include "common/game.h"
#include "common/iccs.h"
#include "common/notation.h"

namespace xq::tool {
namespace {

using nlohmann::json;

constexpr const char* kUsage =
    "usage: xq-tool rules --fen FEN|startpos [--moves \"h2e2 h9g7 ...\"] [--rules pikafish|strict]\n";

json nullable(std::string_view text) { return text.empty() ? json(nullptr) : json(text); }

json history(const Game& game) {
    json moves = json::array();
    for (std::size_t i = 0; i < game.moves().size(); ++i) {
        const Position& before = game.positions()[i];
        const Move m = game.moves()[i];
        moves.push_back({{"iccs", to_iccs(m)},
                         {"wxf", render_move(before, m, Notation::Wxf)},
                         {"chinese", render_move(before, m, Notation::Chinese)}});
    }
    return moves;
}

json describe(const Game& game) {
    const Position& pos = game.position();
    // A finished game accepts no move, so it lists none.
    std::vector<std::string> legal;
    if (!game.is_over())
        for (Move m : legal_moves(pos)) legal.push_back(to_iccs(m));
    std::sort(legal.begin(), legal.end());
    json banned = json::array();
    if (!game.is_over())
        for (const BannedMove& b : game.banned_moves())
            banned.push_back({{"move", to_iccs(b.move)}, {"reason", to_string(b.reason)}, {"explanation", b.explanation}});
    const GameOutcome& outcome = game.outcome();
    return {{"fen", to_fen(pos)},
            {"side_to_move", to_string(pos.side_to_move())},
            {"in_check", pos.in_check()},
            {"legal_moves", legal},
            {"result", to_string(outcome.result)},
            {"reason", nullable(to_string(outcome.reason))},
            {"explanation", nullable(outcome.explanation)},
            {"banned_moves", banned},
            {"history", history(game)}};
}

}  // namespace

int rules_command(const std::vector<std::string>& args) {
    std::string fen = "startpos", moves, rules = "pikafish";
    po::options_description options("rules options");
    options.add_options()("help", "show this help")("fen", po::value(&fen), "start position (FEN or 'startpos')")(
        "moves", po::value(&moves), "space-separated moves in ICCS, WXF or Chinese")(
        "rules", po::value(&rules),
        "repetition policy for the disputed cases: pikafish (default: check plus chase draws, a pinned "
        "piece chases its pinner) or strict (check plus chase loses, pinned pieces never chase)");
    po::variables_map vm;
    if (const auto done = parse_options(args, options, {}, kUsage, vm)) return *done;
    if (rules != "pikafish" && rules != "strict")
        return json_error("usage", "--rules must be pikafish or strict, got '" + rules + "'");
    auto start = parse_fen(fen == "startpos" ? kStartFen : fen);
    if (!start) return json_error(code_name(start.error().code), start.error().message);

    Game game(*start, rules == "strict" ? RulesPolicy::strict() : RulesPolicy::pikafish());
    std::istringstream tokens(moves);
    std::string token;
    for (std::size_t index = 0; tokens >> token; ++index) {
        if (game.is_over())
            return json_error("game_over", "move '" + token + "': the game is already over (" +
                                                game.outcome().explanation + ")", index);
        const auto move = parse_move(game.position(), token);
        if (!move) return json_error(code_name(move.error().code), move.error().message, index);
        if (auto played = game.play(*move); !played)
            return json_error(code_name(played.error().code), played.error().message, index);
    }
    std::cout << describe(game).dump() << std::endl;
    return 0;
}

}  // namespace xq::tool
