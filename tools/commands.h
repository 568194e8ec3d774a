#pragma once
// The subcommands of xq-tool. Each takes the arguments after its name and returns the exit code.

#include <string>
#include <vector>

namespace xq::tool {

int perft_command(const std::vector<std::string>& args);
int pgn_command(const std::vector<std::string>& args);
int rules_command(const std::vector<std::string>& args);

}  // namespace xq::tool
