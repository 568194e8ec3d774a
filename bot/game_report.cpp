#include "bot/game_report.h"

#include <nlohmann/json.hpp>

namespace xq::bot {

std::string GameReport::to_json() const {
    const nlohmann::ordered_json line{{"result", result},
                              {"reason", reason},
                              {"moves", moves},
                              {"level", level},
                              {"side", std::string(xq::to_string(side))}};
    return line.dump();
}

}  // namespace xq::bot
