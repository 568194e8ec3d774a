#pragma once
// The client application: one window, the models, the network adapter and the screens. The loop
// gathers input, applies what the server sent, draws the current screen and plays sounds; the
// network runs on its own thread, so a frame never waits for it.

#include <atomic>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <SFML/Graphics.hpp>

#include "client/computer/analysis.h"
#include "client/computer/computer_game.h"
#include "client/model/frame_schedule.h"
#include "client/model/hotseat_game.h"
#include "client/net/discovery_browser.h"
#include "client/view/trust_prompt.h"
#include "client/net/local_server.h"
#include "client/online/online_client.h"
#include "client/profile/profile_store.h"
#include "client/view/expose_watch.h"
#include "client/view/game_screen.h"
#include "client/view/leaderboard_screen.h"
#include "client/view/lobby_screen.h"
#include "client/view/profile_screen.h"
#include "client/view/records.h"
#include "client/view/start_screen.h"

namespace xq::client {

struct AppOptions {
    std::optional<Endpoint> connect;
    std::string name = "player";
    bool name_given = false;  // on the command line: it wins over the name saved last time
    std::optional<std::filesystem::path> config_dir;  // where the client keeps its state; else the XDG default
    bool host = false;     // start a local server (announced on the LAN) and connect to it
    bool hotseat = false;  // two players on this screen, no server
    std::optional<int> computer;  // play the computer at this level (1-8), no server
    Color side = Color::Red;      // the player's side against the computer
    std::optional<TimeControlChoice> clock;  // clocks for games on this machine (none: no clocks)
    Notation notation = Notation::ChineseTraditional;
    std::optional<std::filesystem::path> screenshot;  // a PNG of the first fully loaded frame
    bool quit_after_screenshot = false;
    std::filesystem::path screenshot_dir = ".";  // where F12 saves
    bool mute = false;
    unsigned width = 1180;
    unsigned height = 780;
    std::optional<sf::Vector2i> position;
    std::uint16_t discovery_port = 7778;
    bool plain = false;  // --plain: plain TCP to servers started with --plain (hosting one too)
    bool print_frame_count = false;  // "frames N" on stdout at the end: how many frames were drawn
    const std::atomic<bool>* stop = nullptr;  // set (by a signal handler): close the window and return
};

class App {
public:
    // Throws std::runtime_error when a resource cannot be loaded (main reports it).
    explicit App(AppOptions options);
    int run();

private:
    // Record: a game opened from a PGN file (a replay) or a position set up from a FEN (played on
    // this screen), with analysis.
    enum class Mode { Online, Hotseat, Computer, Record };
    void begin_hotseat();
    void begin_record(const RecordGame& record);
    void begin_position(const Position& start);
    void begin_computer(Color side, int level);
    void end_local_game();
    std::optional<TimeControlChoice> local_time_control() const;
    void update_analysis();
    void host_game();
    void save_pgn();
    void save_screenshot(const std::filesystem::path& path);
    bool fully_loaded() const;
    void toast(const std::string& text);
    // One turn of run(): input, then what changed, then the picture if it changed.
    Screen shown_screen() const;
    bool handle_events(ui::Input& in);
    bool next_event(sf::Event& event);
    bool handle_window_event(const sf::Event& event, ui::Input& in);
    bool update(TimePoint now);
    std::string status_line() const;
    void draw(ui::Input& in, TimePoint now);
    void plan_frames(TimePoint now);
    void draw_connection_lost();
    void draw_toast();

    // Before options_: the saved name stands in for one not given on the command line.
    std::optional<ProfileStore> profile_;
    Profile saved_;  // as it was at start: the last server and name
    AppOptions options_;
    sf::RenderWindow window_;
    ExposeWatch expose_;
    Resources resources_;
    GameModel game_;
    LobbyModel lobby_;
    OnlineClient online_;
    DiscoveryBrowser discovery_;
    TrustPrompt trust_prompt_;
    std::optional<HotseatGame> hotseat_;
    std::optional<ComputerGame> computer_;
    std::optional<PgnGame> record_;  // Mode::Record: the game as its file had it
    std::optional<Analysis> analysis_;  // started the first time analysis is allowed
    std::optional<LocalServer> local_server_;
    std::string hosted_at_;  // the LAN addresses a friend can join
    ScreenContext context_;
    StartScreen start_;
    LobbyScreen lobby_screen_;
    GameScreen game_screen_;
    ProfileScreen profile_screen_;
    LeaderboardScreen leaderboard_screen_;
    Records records_;  // open and save PGN, set up a FEN: over any screen
    Mode mode_ = Mode::Online;
    std::string toast_;
    TimePoint toast_until_{};
    std::optional<std::uint64_t> seen_game_;  // to turn the board for Black once per new game
    FrameSchedule frames_due_;
    std::deque<sf::Event> deferred_;  // events handle_events left for the next frame
    std::pair<bool, std::vector<FoundServer>> discovery_seen_;  // the start screen's list as last drawn
    int frames_ = 0;
    int screenshots_ = 0;
};

}  // namespace xq::client
