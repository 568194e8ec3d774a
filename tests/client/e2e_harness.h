#pragma once
// What the client's end-to-end tests share: a real client process and its window driven with
// xdotool (ClientWindow), where the lobby's controls are in a 1000 x 700 window, and a blocking
// wait for a server message.

#include <gtest/gtest.h>
#include <array>
#include <set>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sstream>
#include <thread>
#include "client/model/layout.h"
#include "client/net/local_server.h"
#include "client/profile/profile_store.h"
#include "common/iccs.h"
#include "common/pgn.h"
#include "support/test_client.h"
#include <X11/Xlib.h>  // last: its macros (None, Status, Bool) would clash with the headers above
#include <X11/Xutil.h>
extern char** environ;

namespace xq::client::e2e {

// The lobby's time-control picker as it starts: its height places the forms under it.
const TimeControlPicker kLobbyPicker{false, kLobbyDefaultControl};

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr float kWidth = 1000, kHeight = 700;
const fs::path kShots = XQ_SCREENSHOT_DIR;

// Runs a shell command and returns its standard output (trimmed), or nullopt when it fails.
inline std::optional<std::string> run(const std::string& command) {
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return std::nullopt;
    std::string out;
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
    if (::pclose(pipe) != 0) return std::nullopt;
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
}

// How a client window is started: its size, whether it plays sounds, its stderr kept in a file,
// and its name given or (as after a crash) taken from the profile it saved.
struct WindowOptions {
    int width = static_cast<int>(kWidth);
    int height = static_cast<int>(kHeight);
    bool sound = false;
    fs::path stderr_to;  // empty: the test's own stderr
    bool give_name = true;
};

// A client started as after a crash: no --name, the profile's.
inline WindowOptions restarted() {
    WindowOptions options;
    options.give_name = false;
    return options;
}

inline WindowOptions sized(float width, float height, bool sound = false, const fs::path& stderr_to = {}) {
    WindowOptions options;
    options.width = static_cast<int>(width);
    options.height = static_cast<int>(height);
    options.sound = sound;
    options.stderr_to = stderr_to;
    return options;
}

// One xiangqi-client process and its window. Its state goes to `config`, never to ~/.config.
class ClientWindow {
public:
    ClientWindow(const std::string& name, std::uint16_t port, const fs::path& config, const WindowOptions& options = {})
        : ClientWindow(name, {"--connect", "127.0.0.1:" + std::to_string(port), "--plain"}, config, options) {}
    // `mode`: how it starts instead of connecting, e.g. {"--hotseat"}.
    ClientWindow(const std::string& name, const std::vector<std::string>& mode, const fs::path& config,
                 const WindowOptions& options = {})
        : name_(name) {
        std::vector<std::string> args = {XQ_CLIENT_BIN};
        args.insert(args.end(), mode.begin(), mode.end());
        args.insert(args.end(), {"--size", std::to_string(options.width) + "x" + std::to_string(options.height),
                                 "--position", "0,0", "--screenshot-dir", kShots.string(), "--config-dir",
                                 config.string()});
        if (options.give_name) args.insert(args.end(), {"--name", name});
        if (!options.sound) args.emplace_back("--mute");
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t files;
        ::posix_spawn_file_actions_init(&files);
        if (!options.stderr_to.empty())
            ::posix_spawn_file_actions_addopen(&files, 2, options.stderr_to.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        // Without a window manager xdotool finds windows by class, not by title or pid: ours is
        // the client window that was not there before the spawn.
        const auto before = run("xdotool search --classname xiangqi-client 2>/dev/null").value_or("");
        EXPECT_EQ(::posix_spawn(&pid_, XQ_CLIENT_BIN, &files, nullptr, argv.data(), environ), 0);
        int spawns = 1;
        for (int i = 0; i < 100 && window_.empty(); ++i) {
            const auto now = run("xdotool search --classname xiangqi-client 2>/dev/null").value_or("");
            std::istringstream ids(now);
            for (std::string id; ids >> id;)
                if (before.find(id) == std::string::npos) window_ = id;
            if (!window_.empty()) break;
            // Once in a CI run the client could not connect to a just-started Xvfb ("Failed to
            // open X11 display") and exited at once: that is the display, not the client, so
            // one more start is allowed, and said.
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_ && spawns++ == 1) {
                std::fprintf(stderr, "%s's client exited before its window appeared (status %d); starting it again\n",
                             name.c_str(), status);
                EXPECT_EQ(::posix_spawn(&pid_, XQ_CLIENT_BIN, &files, nullptr, argv.data(), environ), 0);
            }
            std::this_thread::sleep_for(100ms);
        }
        ::posix_spawn_file_actions_destroy(&files);
        EXPECT_FALSE(window_.empty()) << "no window for " << name;
        std::this_thread::sleep_for(500ms);  // the first frames
    }
    ~ClientWindow() {
        if (pid_ == 0) return;
        ::kill(pid_, SIGTERM);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    // Ends the process as a crash would: no chance to say goodbye or save anything.
    void kill_hard() {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = 0;
    }

    // A real click at window coordinates, with the window raised above the others first.
    void click(Point p) {
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " mousemove --window " + window_ + " " +
                        std::to_string(static_cast<int>(p.x)) + " " + std::to_string(static_cast<int>(p.y)) +
                        " click 1"));
        std::this_thread::sleep_for(150ms);  // a frame or two to see the click
    }
    // Several clicks made while the client is stopped, so that they all arrive within one of its
    // frames, as on a slow machine: the client must lose none.
    void click_within_one_frame(const std::vector<Point>& points) {
        std::string command = "xdotool windowraise " + window_;
        for (const Point p : points)
            command += " mousemove --window " + window_ + " " + std::to_string(static_cast<int>(p.x)) + " " +
                       std::to_string(static_cast<int>(p.y)) + " click 1";
        ::kill(pid_, SIGSTOP);
        const bool sent = run(command).has_value();
        ::kill(pid_, SIGCONT);
        ASSERT_TRUE(sent);
        std::this_thread::sleep_for(300ms);
    }
    void click_square(const std::string& square, bool flipped, float width = kWidth, float height = kHeight) {
        const BoardGeometry g(game_layout(width, height).board, flipped);
        click(g.center(*parse_square(square)));
    }
    // Text typed into the focused field, then Enter if asked.
    void type(const std::string& text, bool enter = false) {
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " windowfocus --sync " + window_ + " type --delay 30 '" + text + "'"));
        if (enter) {
            ASSERT_TRUE(run("xdotool key Return"));
        }
        std::this_thread::sleep_for(200ms);
    }
    // Wheel notches over p: positive scrolls the content down (the wheel turned towards the player).
    void wheel(Point p, int notches) {
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " mousemove --window " + window_ + " " +
                        std::to_string(static_cast<int>(p.x)) + " " + std::to_string(static_cast<int>(p.y)) +
                        " click --repeat " + std::to_string(std::abs(notches)) + " --delay 40 " + (notches > 0 ? "5" : "4")));
        std::this_thread::sleep_for(200ms);
    }
    const std::string& window() const { return window_; }
    // F12 saves <shots>/<name>-N.png; copies it to <shots>/<as>.png.
    void screenshot(const std::string& as) {
        const fs::path saved = kShots / (name_ + "-" + std::to_string(++shots_) + ".png");
        fs::remove(saved);  // an earlier window of the same name may have left one
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " windowfocus --sync " + window_ + " key F12"));
        for (int i = 0; i < 50 && !fs::exists(saved); ++i) std::this_thread::sleep_for(100ms);
        ASSERT_TRUE(fs::exists(saved)) << saved;
        std::this_thread::sleep_for(200ms);  // let the file be written completely
        fs::copy_file(saved, kShots / (as + ".png"), fs::copy_options::overwrite_existing);
    }
    bool running() { return ::waitpid(pid_, nullptr, WNOHANG) == 0; }
    // Keys as xdotool names them ("Return", "ctrl+s", "Right Right"), to the focused window.
    void keys(const std::string& names) {
        ASSERT_TRUE(run("xdotool windowraise " + window_ + " windowfocus --sync " + window_ + " key --delay 60 " + names));
        std::this_thread::sleep_for(300ms);
    }

private:
    std::string name_;
    pid_t pid_ = 0;
    std::string window_;
    int shots_ = 0;
};

// The screen's colour at (x, y): what X shows there, not the window's own buffer (what F12 saves).
inline std::optional<unsigned long> screen_pixel(int x, int y) {
    Display* display = ::XOpenDisplay(nullptr);
    if (!display) return std::nullopt;
    XImage* image = ::XGetImage(display, DefaultRootWindow(display), x, y, 1, 1, AllPlanes, ZPixmap);
    std::optional<unsigned long> pixel;
    if (image) {
        pixel = XGetPixel(image, 0, 0);
        XDestroyImage(image);
    }
    ::XCloseDisplay(display);
    return pixel;
}

inline Point center(const Rect& r) { return {r.x + r.w / 2, r.y + r.h / 2}; }

// The lobby's buttons, where LobbyScreen puts them in a 1000 x 700 window (its forms unscrolled,
// the time-control picker on a preset).
const LobbyForms kForms = lobby_forms(lobby_layout(kWidth, kHeight).forms, lobby_layout(kWidth, kHeight).forms.y,
                                      kLobbyPicker, false);
const Point kThreePlusTwo = center(TimeControlPicker::cell(kForms.picker, 2));  // 1+0, 3+0, 3+2, ...
const Point kCustom = center(TimeControlPicker::cell(kForms.picker, standard_time_controls().size()));
const Point kColourRed = center(row_cells<3>(kForms.colour_row, 6)[1]);
const Point kCreateGame = center(kForms.create);
constexpr Point kFirstOpenJoin{528, 166};
constexpr Point kFirstLiveWatch{528, 246};
// The Archive tab, and its player filter beside the heading (the list unscrolled, wide enough).
const Point kArchiveTab = center(lobby_layout(kWidth, kHeight).tabs()[1]);
const Point kArchivePlayerField{lobby_layout(kWidth, kHeight).lists.x + lobby_layout(kWidth, kHeight).lists.w - 300 + 95,
                                lobby_layout(kWidth, kHeight).lists.y + 44 - 4 + 15};

// The colour X shows at (x, y) as 0xRRGGBB, polled until it is `want` (the window draws late).
inline bool pixel_becomes(int x, int y, unsigned long want, std::chrono::seconds limit = 10s) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (screen_pixel(x, y) == want) return true;
        std::this_thread::sleep_for(100ms);
    }
    return false;
}

// Waits until `window` shows the lobby: a client started with --connect shows the start screen
// ("Connecting…") first, and a click meant for the lobby that lands there is lost (a sanitized
// client on a loaded machine took over half a second). The Create button's accent is the sign.
inline bool wait_for_lobby(ClientWindow& window, std::chrono::seconds limit = 20s) {
    constexpr unsigned long kAccent = 0xD6A03C;  // client/view/ui.h color::kAccent (214, 160, 60)
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        run("xdotool windowraise " + window.window());  // windows of a test overlap at 0,0
        if (pixel_becomes(static_cast<int>(kForms.create.x) + 3, static_cast<int>(kForms.create.y) + 3, kAccent, 1s))
            return true;
    }
    return false;
}

// The first T that `accept` takes within `limit`.
template <class T, class Accept>
std::optional<T> wait_for_body(test::TestClient& c, Accept accept, std::chrono::seconds limit = 10s) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end)
        if (auto m = c.next())
            if (auto* body = std::get_if<T>(&m->body); body && accept(*body)) return *body;
    return std::nullopt;
}
template <class T>
std::optional<T> wait_for_body(test::TestClient& c, std::chrono::seconds limit = 10s) {
    return wait_for_body<T>(c, [](const T&) { return true; }, limit);
}

}  // namespace xq::client::e2e
