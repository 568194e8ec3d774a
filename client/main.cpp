// xiangqi-client: the desktop client. See --help.

#include <boost/program_options.hpp>
#include <iostream>

#include "client/view/app.h"

namespace po = boost::program_options;
using namespace xq::client;

namespace {

std::optional<xq::Notation> parse_notation(const std::string& text) {
    if (text == "chinese") return xq::Notation::Chinese;
    if (text == "traditional") return xq::Notation::ChineseTraditional;
    if (text == "wxf") return xq::Notation::Wxf;
    if (text == "iccs") return xq::Notation::Iccs;
    return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
    AppOptions app;
    std::string connect, notation = "chinese", size = "1180x780", position, screenshot, shots = ".";
    int discovery_port = 7778;
    const char* user = std::getenv("USER");
    app.name = user && *user ? user : "player";
    po::options_description options("xiangqi-client options");
    options.add_options()("help", "show this help")(
        "connect", po::value(&connect), "connect to a server, HOST or HOST:PORT (default port 7777)")(
        "name", po::value(&app.name)->default_value(app.name), "your name in games and chat")(
        "host", "start a local server for a LAN game (announced for discovery) and connect to it")(
        "hotseat", "two players on this screen, no server")(
        "computer", po::value<int>(), "play the computer at LEVEL 1-8 (fairy-stockfish), no server")(
        "side", po::value<std::string>()->default_value("red"), "your side against the computer: red or black")(
        "notation", po::value(&notation)->default_value(notation), "move list: chinese, traditional, wxf or iccs")(
        "screenshot", po::value(&screenshot), "save a PNG of the window after the first fully loaded frame")(
        "quit-after-screenshot", "exit once the --screenshot is saved")(
        "screenshot-dir", po::value(&shots)->default_value(shots), "where F12 screenshots and saved PGN go")(
        "mute", "no sound (the Sound button turns it on)")(
        "size", po::value(&size)->default_value(size), "window size, WIDTHxHEIGHT")(
        "position", po::value(&position), "window position on screen, X,Y")(
        "discovery-port", po::value(&discovery_port)->default_value(discovery_port), "UDP port of LAN discovery");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "xiangqi-client: " << e.what() << "\n" << options;
        return 2;
    }
    if (vm.count("help")) {
        std::cout << "usage: xiangqi-client [options]\n\nKeys: click or drag to move, Esc deselects, "
                     "arrows step through the moves, F flips the board, F12 saves a screenshot.\n\n"
                  << options;
        return 0;
    }
    if (!connect.empty()) {
        app.connect = parse_endpoint(connect);
        if (!app.connect) {
            std::cerr << "xiangqi-client: --connect wants HOST or HOST:PORT, got '" << connect << "'\n";
            return 2;
        }
    }
    const auto chosen = parse_notation(notation);
    if (!chosen) {
        std::cerr << "xiangqi-client: --notation must be chinese, traditional, wxf or iccs\n";
        return 2;
    }
    app.notation = *chosen;
    unsigned w = 0, h = 0;
    if (std::sscanf(size.c_str(), "%ux%u", &w, &h) != 2 || w < 640 || h < 480 || w > 8000 || h > 8000) {
        std::cerr << "xiangqi-client: --size wants WIDTHxHEIGHT of at least 640x480\n";
        return 2;
    }
    app.width = w;
    app.height = h;
    if (!position.empty()) {
        int x = 0, y = 0;
        if (std::sscanf(position.c_str(), "%d,%d", &x, &y) != 2) {
            std::cerr << "xiangqi-client: --position wants X,Y\n";
            return 2;
        }
        app.position = sf::Vector2i(x, y);
    }
    if (discovery_port < 1 || discovery_port > 65535) {
        std::cerr << "xiangqi-client: --discovery-port must be 1 to 65535\n";
        return 2;
    }
    app.discovery_port = static_cast<std::uint16_t>(discovery_port);
    if (app.name.empty() || app.name.size() > 40) {
        std::cerr << "xiangqi-client: --name must be 1 to 40 bytes\n";
        return 2;
    }
    if (!screenshot.empty()) app.screenshot = screenshot;
    app.quit_after_screenshot = vm.count("quit-after-screenshot") > 0;
    app.screenshot_dir = shots;
    app.mute = vm.count("mute") > 0;
    app.host = vm.count("host") > 0;
    app.hotseat = vm.count("hotseat") > 0;
    if (vm.count("computer")) {
        const int level = vm["computer"].as<int>();
        if (level < 1 || level > 8) {
            std::cerr << "xiangqi-client: --computer wants a level from 1 to 8\n";
            return 2;
        }
        app.computer = level;
    }
    const std::string side = vm["side"].as<std::string>();
    if (side != "red" && side != "black") {
        std::cerr << "xiangqi-client: --side must be red or black\n";
        return 2;
    }
    app.side = side == "red" ? xq::Color::Red : xq::Color::Black;
    try {
        App client(std::move(app));
        return client.run();
    } catch (const std::exception& e) {
        std::cerr << "xiangqi-client: " << e.what() << "\n";
        return 1;
    }
}
