#include "cli.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace xq::tool {

int json_error(std::string_view code, const std::string& message, std::optional<std::size_t> index) {
    nlohmann::ordered_json out = {{"error", code}, {"message", message}};
    if (index) out["index"] = *index;
    // Replace rather than throw on bytes that are not UTF-8: messages may quote raw input.
    std::cout << out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << std::endl;
    return 2;
}

std::optional<int> parse_options(const std::vector<std::string>& args, const po::options_description& options,
                                 const po::positional_options_description& positional, std::string_view usage,
                                 po::variables_map& vm) {
    try {
        po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
        if (vm.count("help")) {
            std::cout << usage << options;
            return 0;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        return json_error("usage", e.what());
    }
    return std::nullopt;
}

}  // namespace xq::tool
