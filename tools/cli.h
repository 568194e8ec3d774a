#pragma once
// What every xq-tool subcommand shares: option parsing with --help, and errors printed as one
// JSON line with exit status 2.

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xq::tool {

namespace po = boost::program_options;

// Prints {"error": code, "message": message[, "index": index]} and returns the exit status 2.
int json_error(std::string_view code, const std::string& message, std::optional<std::size_t> index = {});

// Parses args into vm. Returns an exit status when the command is done (0 after printing usage and
// the options for --help, 2 after a JSON "usage" error), or nullopt to go on.
std::optional<int> parse_options(const std::vector<std::string>& args, const po::options_description& options,
                                 const po::positional_options_description& positional, std::string_view usage,
                                 po::variables_map& vm);

}  // namespace xq::tool
