// xiangqi-client: the desktop client. See --help.

#include <boost/program_options.hpp>
#include <atomic>
#include <csignal>
#include <expected>
#include <iostream>

#include "client/model/layout.h"
#include "client/model/time_control_picker.h"
#include "client/view/app.h"

namespace po = boost::program_options;
using namespace xq::client;

namespace {

// The login name, the player's name unless --name says otherwise.
std::string user_name() {
    const char* user = std::getenv("USER");
    return user && *user ? user : "player";
}

// The command line as typed; to_app_options checks it.
struct CommandLine {
    bool help = false;
    std::string connect, name = user_name(), notation = "traditional", side, size = "1180x780", position, clock;
    std::string screenshot, shots = ".", config_dir;
    std::optional<int> computer;
    int discovery_port = 7778;
    bool host = false, hotseat = false, quit_after_screenshot = false, mute = false, name_given = false;
    bool frame_count = false, plain = false;
};

// SIGTERM or SIGINT: the window closes and the client ends as if closed there (its local server
// and engines stopped, the frame count printed).
std::atomic<bool> stop_requested{false};
void request_stop(int) { stop_requested = true; }

po::options_description describe(CommandLine& line) {
    po::options_description options("xiangqi-client options");
    options.add_options()("help", "show this help")(
        "connect", po::value(&line.connect),
        "connect to a server, HOST or HOST:PORT (default port 7777)")(
        "name", po::value(&line.name)->default_value(line.name),
        "your name in games and chat (else the name used last time)")(
        "host", "start a local server for a LAN game (announced for discovery) and connect to it")(
        "hotseat", "two players on this screen, no server")(
        "computer", po::value<int>(),
        "play the computer at LEVEL 1-8 (fairy-stockfish), no server")(
        "side", po::value(&line.side)->default_value("red"),
        "your side against the computer: red or black")(
        "clock", po::value(&line.clock),
        "clocks for --hotseat and --computer games, MINUTES+INCREMENT (e.g. 5+3; default: none)")(
        "notation", po::value(&line.notation)->default_value(line.notation),
        "move list and piece glyphs: traditional, chinese (simplified), wxf or iccs")(
        "screenshot", po::value(&line.screenshot),
        "save a PNG of the window after the first fully loaded frame")(
        "quit-after-screenshot", "exit once the --screenshot is saved")(
        "screenshot-dir", po::value(&line.shots)->default_value(line.shots),
        "where F12 screenshots and saved PGN go")(
        "mute", "no sound (the Sound button turns it on)")(
        "size", po::value(&line.size)->default_value(line.size), "window size, WIDTHxHEIGHT")(
        "position", po::value(&line.position), "window position on screen, X,Y")(
        "discovery-port", po::value(&line.discovery_port)->default_value(line.discovery_port),
        "UDP port of LAN discovery")(
        "plain", "plain TCP without TLS, to a server started with --plain (and --host serves plain TCP)")(
        "config-dir", po::value(&line.config_dir),
        "where the client keeps its state (last server and name, seats in games); default "
        "$XDG_CONFIG_HOME/xiangqi or ~/.config/xiangqi")(
        "frame-count", "at the end, print how many frames were drawn (\"frames N\"): the window draws only "
                       "when something on it changes");
    return options;
}

// Throws po::error for an unknown option or a value of the wrong type.
void read(int argc, char** argv, const po::options_description& options, CommandLine& line) {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
    line.help = vm.count("help") > 0;
    if (vm.count("computer")) line.computer = vm["computer"].as<int>();
    line.host = vm.count("host") > 0;
    line.hotseat = vm.count("hotseat") > 0;
    line.quit_after_screenshot = vm.count("quit-after-screenshot") > 0;
    line.mute = vm.count("mute") > 0;
    line.plain = vm.count("plain") > 0;
    line.name_given = !vm["name"].defaulted();
    line.frame_count = vm.count("frame-count") > 0;
}

std::optional<xq::Notation> parse_notation(const std::string& text) {
    if (text == "chinese") return xq::Notation::Chinese;
    if (text == "traditional") return xq::Notation::ChineseTraditional;
    if (text == "wxf") return xq::Notation::Wxf;
    if (text == "iccs") return xq::Notation::Iccs;
    return std::nullopt;
}

// The checked options, or what is wrong with the first bad one.
std::expected<AppOptions, std::string> to_app_options(const CommandLine& line) {
    AppOptions app;
    if (!line.connect.empty()) {
        app.connect = parse_endpoint(line.connect);
        if (!app.connect)
            return std::unexpected("--connect wants HOST or HOST:PORT, got '" + line.connect + "'");
    }
    const auto notation = parse_notation(line.notation);
    if (!notation) return std::unexpected("--notation must be traditional, chinese (simplified), wxf or iccs");
    app.notation = *notation;
    unsigned w = 0, h = 0;
    using xq::client::kMinHeight, xq::client::kMinWidth;
    if (std::sscanf(line.size.c_str(), "%ux%u", &w, &h) != 2 || w < kMinWidth || h < kMinHeight || w > 8000 || h > 8000)
        return std::unexpected("--size wants WIDTHxHEIGHT of at least 640x480");
    app.width = w;
    app.height = h;
    if (!line.position.empty()) {
        int x = 0, y = 0;
        if (std::sscanf(line.position.c_str(), "%d,%d", &x, &y) != 2)
            return std::unexpected("--position wants X,Y");
        app.position = sf::Vector2i(x, y);
    }
    if (line.discovery_port < 1 || line.discovery_port > 65535)
        return std::unexpected("--discovery-port must be 1 to 65535");
    app.discovery_port = static_cast<std::uint16_t>(line.discovery_port);
    if (line.name.empty() || line.name.size() > 40)
        return std::unexpected("--name must be 1 to 40 bytes");
    app.name = line.name;
    app.name_given = line.name_given;
    if (!line.config_dir.empty()) app.config_dir = line.config_dir;
    app.plain = line.plain;
    if (!line.screenshot.empty()) app.screenshot = line.screenshot;
    app.quit_after_screenshot = line.quit_after_screenshot;
    app.screenshot_dir = line.shots;
    app.mute = line.mute;
    app.print_frame_count = line.frame_count;
    app.stop = &stop_requested;
    app.host = line.host;
    app.hotseat = line.hotseat;
    if (line.computer && (*line.computer < 1 || *line.computer > 8))
        return std::unexpected("--computer wants a level from 1 to 8");
    app.computer = line.computer;
    if (line.side != "red" && line.side != "black")
        return std::unexpected("--side must be red or black");
    app.side = line.side == "red" ? xq::Color::Red : xq::Color::Black;
    if (!line.clock.empty()) {
        const auto plus = line.clock.find('+');
        if (plus == std::string::npos) return std::unexpected("--clock wants MINUTES+INCREMENT, e.g. 5+3");
        auto clock = xq::client::parse_time_control(std::string_view(line.clock).substr(0, plus),
                                                    std::string_view(line.clock).substr(plus + 1));
        if (!clock) return std::unexpected("--clock: " + clock.error());
        app.clock = *clock;
    }
    return app;
}

int run(AppOptions options) {
    std::signal(SIGTERM, request_stop);
    std::signal(SIGINT, request_stop);
    try {
        App client(std::move(options));
        return client.run();
    } catch (const std::exception& e) {
        std::cerr << "xiangqi-client: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace

int main(int argc, char** argv) {
    CommandLine line;
    const po::options_description options = describe(line);
    try {
        read(argc, argv, options, line);
    } catch (const po::error& e) {
        std::cerr << "xiangqi-client: " << e.what() << "\n" << options;
        return 2;
    }
    if (line.help) {
        std::cout
            << "usage: xiangqi-client [options]\n\nKeys: click or drag to move, Esc deselects, "
               "arrows step through the moves, F flips the board, F12 saves a screenshot.\n\n"
            << options;
        return 0;
    }
    const auto app = to_app_options(line);
    if (!app) {
        std::cerr << "xiangqi-client: " << app.error() << "\n";
        return 2;
    }
    return run(*app);
}
