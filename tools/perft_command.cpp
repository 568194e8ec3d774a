// xq-tool perft FEN DEPTH [--divide]: prints "h2e2 N" per root move with --divide, then "nodes N".

#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>

#include "commands.h"
#include "common/fen.h"
#include "common/iccs.h"
#include "common/perft.h"

namespace xq::tool {

namespace po = boost::program_options;

int perft_command(const std::vector<std::string>& args) {
    std::string fen;
    int depth = 0;
    po::options_description options("perft options");
    options.add_options()("help", "show this help")("divide", "print the count below each root move")(
        "fen", po::value(&fen)->required(), "position (FEN or 'startpos')")(
        "depth", po::value(&depth)->required(), "depth in plies (0-12)");
    po::positional_options_description positional;
    positional.add("fen", 1).add("depth", 1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
        if (vm.count("help")) {
            std::cout << "usage: xq-tool perft FEN|startpos DEPTH [--divide]\n" << options;
            return 0;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "perft: " << e.what() << "\n";
        return 2;
    }
    if (depth < 0 || depth > 12) {
        std::cerr << "perft: depth must be between 0 and 12\n";
        return 2;
    }
    const auto pos = parse_fen(fen == "startpos" ? kStartFen : fen);
    if (!pos) {
        std::cerr << "perft: invalid FEN (" << code_name(pos.error().code) << "): " << pos.error().message
                  << "\n";
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t nodes = 0;
    if (vm.count("divide") && depth > 0) {
        for (const auto& [move, count] : perft_divide(*pos, depth)) {
            std::cout << to_iccs(move) << ' ' << count << '\n';
            nodes += count;
        }
    } else {
        nodes = perft(*pos, depth);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << "time " << seconds << " s, " << (seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0)
              << " nodes/s\n";
    std::cout << "nodes " << nodes << std::endl;
    return 0;
}

}  // namespace xq::tool
