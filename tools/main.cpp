// xq-tool SUBCOMMAND ...: dispatches to the rules-library tools.

#include <iostream>
#include <string>
#include <vector>

#include "commands.h"

namespace {

constexpr const char* kUsage =
    "usage: xq-tool perft FEN|startpos DEPTH [--divide]\n"
    "       xq-tool rules --fen FEN|startpos [--moves \"h2e2 h9g7 ...\"]\n"
    "       xq-tool pgn import [FILE|-] [--encoding big5|gbk|gb18030|utf-8]\n"
    "       xq-tool pgn export --fen FEN|startpos --moves \"...\" [--style xqbase|engine] [--notation N]\n";

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << kUsage;
        return 2;
    }
    const std::string command = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    if (command == "perft") return xq::tool::perft_command(args);
    if (command == "rules") return xq::tool::rules_command(args);
    if (command == "pgn") return xq::tool::pgn_command(args);
    if (command == "help" || command == "--help") {
        std::cout << kUsage;
        return 0;
    }
    std::cerr << "xq-tool: unknown command '" << command << "'\n" << kUsage;
    return 2;
}
