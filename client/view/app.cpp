#include "app.h"

#include <fstream>
#include <iostream>
#include <thread>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include "client/model/layout.h"
#include "common/pgn.h"
#include "common/pgn_record.h"

namespace xq::client {

namespace {

sf::ContextSettings antialiased() {
    sf::ContextSettings settings;
    settings.antialiasingLevel = 4;
    return settings;
}

// This machine's IPv4 addresses other than loopback: what a friend on the LAN types to join.
std::string lan_addresses() {
    std::string out;
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0) return out;
    for (const ifaddrs* a = list; a; a = a->ifa_next) {
        if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
        char text[INET_ADDRSTRLEN] = {};
        const auto* in = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
        if (!::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text) || std::string(text).starts_with("127.")) continue;
        out += (out.empty() ? "" : ", ") + std::string(text);
    }
    ::freeifaddrs(list);
    return out;
}

// The client's saved state: in --config-dir, else the XDG config folder, else nowhere.
std::optional<ProfileStore> open_profile(const std::optional<std::filesystem::path>& dir) {
    if (dir) return ProfileStore(*dir);
    if (auto fallback = ProfileStore::default_dir()) return ProfileStore(*fallback);
    return std::nullopt;
}

// The command line wins; what was saved last time fills in the rest.
AppOptions with_saved(AppOptions options, const Profile& saved) {
    if (!options.name_given && !saved.last_name.empty() && saved.last_name.size() <= 40) options.name = saved.last_name;
    return options;
}

std::string start_address(const AppOptions& options, const Profile& saved) {
    if (options.connect) return to_string(*options.connect);
    return saved.last_server.empty() ? "127.0.0.1:7777" : saved.last_server;
}

// A window position in pixels as the screens take it.
Point at(int x, int y) { return {static_cast<float>(x), static_cast<float>(y)}; }

// The longest the loop sleeps between looks at the window and the network: input and messages
// wait at most this long for their frame.
constexpr std::chrono::milliseconds kPoll{20};

}  // namespace

App::App(AppOptions options)
    : profile_(open_profile(options.config_dir)),
      saved_(profile_ ? profile_->load() : Profile{}),
      options_(with_saved(std::move(options), saved_)),
      window_(sf::VideoMode(options_.width, options_.height), ui::utf8("xiangqi — " + options_.name),
              sf::Style::Default, antialiased()),
      expose_(window_.getSystemHandle()),
      resources_(options_.mute),
      online_(game_, lobby_, profile_ ? &*profile_ : nullptr),
      discovery_(options_.discovery_port),
      context_(resources_, game_, lobby_, online_, discovery_),
      start_(context_, start_address(options_, saved_), options_.name),
      lobby_screen_(context_),
      game_screen_(context_),
      profile_screen_(context_),
      leaderboard_screen_(context_),
      records_(resources_.font(),
               {.open_game = [this](const RecordGame& g) { begin_record(g); },
                .set_up = [this](const Position& p) { begin_position(p); },
                .toast = [this](const std::string& text) { toast(text); }},
               options_.screenshot_dir) {
    window_.setFramerateLimit(60);
    if (options_.position) window_.setPosition(*options_.position);
    game_.set_notation(options_.notation);
    context_.actions = &online_;
    // Servers trusted on first contact are remembered beside the profile (mode 0600).
    online_.set_security(Security{.plain = options_.plain,
                                  .expected = {},
                                  .known_hosts = profile_ ? known_hosts_in(profile_->dir()) : std::filesystem::path(),
                                  .accept_new = false});
    context_.local_clock = TimeControlPicker(true, options_.clock);
    context_.start_hotseat = [this] { begin_hotseat(); };
    context_.start_computer = [this](Color side, int level) { begin_computer(side, level); };
    context_.host_game = [this] { host_game(); };
    context_.save_pgn = [this] { save_pgn(); };
    context_.open_pgn = [this] { records_.open_pgn(); };
    context_.set_up_position = [this] { records_.set_up_position(); };
    context_.back = [this] {
        if (mode_ != Mode::Online) {  // leaving a local game returns to where we came from
            end_local_game();
            return;
        }
        if (online_.screen() == Screen::Profile || online_.screen() == Screen::Leaderboard)
            online_.close_page();
        else if (online_.screen() == Screen::Game)
            online_.leave();
        else
            online_.disconnect();
    };
    if (options_.hotseat) begin_hotseat();
    if (options_.computer) begin_computer(options_.side, *options_.computer);
    if (options_.host) host_game();
    else if (options_.connect) online_.connect(*options_.connect, options_.name);
}

void App::begin_hotseat() {
    end_local_game();
    mode_ = Mode::Hotseat;
    hotseat_.emplace(game_, local_time_control());
    context_.actions = &*hotseat_;
    context_.hotseat = true;
    context_.flipped = false;
}

void App::begin_computer(Color side, int level) {
    end_local_game();
    mode_ = Mode::Computer;
    computer_.emplace(game_, options_.name, side, level, local_time_control());
    context_.actions = &*computer_;
    context_.computer = true;
    context_.computer_level = level;
    context_.flipped = side == Color::Black;
}

// The picker's choice for games on this machine; its view lets it close only on a valid one.
std::optional<TimeControlChoice> App::local_time_control() const {
    return context_.local_clock.choice().value_or(std::nullopt);
}

// A game from a file: its moves replayed (stepped through, analysed), its players and result shown.
void App::begin_record(const RecordGame& record) {
    end_local_game();
    mode_ = Mode::Record;
    record_ = record.game;
    const PgnGame& g = *record_;
    hotseat_.emplace(game_, g.start);
    (void)game_.reset(g.start, g.moves, Role::Replay);  // the moves were checked when the file was read
    game_.set_seat(Color::Red, {g.tag("Red").value_or(g.tag("White").value_or("Red")), true, std::nullopt});
    game_.set_seat(Color::Black, {g.tag("Black").value_or("Black"), true, std::nullopt});
    const Result result = g.result == "1-0" ? Result::RedWins : g.result == "0-1" ? Result::BlackWins
                          : g.result == "1/2-1/2"                                  ? Result::Draw
                                                                                    : Result::Ongoing;
    if (result != Result::Ongoing) {
        // Where and when, in place of a ruling's sentence (a file seldom has one).
        std::string caption = g.tag("Event").value_or("");
        if (const auto date = g.tag("Date"); date && date->find('?') == std::string::npos)
            caption += (caption.empty() ? "" : ", ") + *date;
        game_.finish({result, g.tag("Termination").value_or(""), caption});
        game_.take_cues();
    }
    game_.go_to(0);
    context_.actions = &*hotseat_;
    context_.flipped = false;
}

// A position from a FEN, on this screen: both sides move, analysis on.
void App::begin_position(const Position& start) {
    end_local_game();
    mode_ = Mode::Record;
    hotseat_.emplace(game_, start);
    context_.actions = &*hotseat_;
    context_.flipped = false;
}

void App::end_local_game() {
    if (mode_ == Mode::Online) return;
    mode_ = Mode::Online;
    hotseat_.reset();
    computer_.reset();
    record_.reset();
    context_.hotseat = context_.computer = false;
    context_.actions = &online_;
    // Servers trusted on first contact are remembered beside the profile (mode 0600).
    online_.set_security(Security{.plain = options_.plain,
                                  .expected = {},
                                  .known_hosts = profile_ ? known_hosts_in(profile_->dir()) : std::filesystem::path(),
                                  .accept_new = false});
    game_.clear_room();
    (void)game_.reset(Position::start(), {}, Role::Spectator);
}

// Evaluation and hints only where they cannot help anyone against a person: a replay, a finished
// game, or a game against the computer.
void App::update_analysis() {
    const bool allowed = mode_ == Mode::Computer || mode_ == Mode::Record || game_.role() == Role::Replay ||
                         game_.phase() == Phase::Over;
    const bool showing_game = mode_ != Mode::Online || online_.screen() == Screen::Game;
    if (!allowed || !showing_game) {
        context_.analysis = nullptr;
        return;
    }
    if (!analysis_) analysis_.emplace();
    context_.analysis = &*analysis_;
    analysis_->follow(game_);
}

void App::host_game() {
    const auto binary = find_server_binary();
    if (!binary) {
        toast("xiangqi-server was not found next to the client (set XQ_SERVER_BIN)");
        return;
    }
    LocalServerOptions server;
    server.binary = *binary;
    server.listen_address = "0.0.0.0";
    server.port = options_.connect ? options_.connect->port : 7777;
    server.name = options_.name + "'s game";
    server.discovery_port = options_.discovery_port;
    server.plain = options_.plain;
    // Computer opponents in the hosted lobby, so one person alone has someone to play at once.
    server.extra_args = {"--bots", "3", "--bot-levels", "2,4,6"};
    auto started = LocalServer::start(server);
    if (!started) {  // no xiangqi-bot (or no engine) beside the server: host without them
        server.extra_args.clear();
        started = LocalServer::start(server);
    }
    if (!started) {
        // The usual port may be taken (another server on this machine): take any free one, and
        // skip announcing if the discovery port is taken too.
        server.port = 0;
        started = LocalServer::start(server);
        if (!started) {
            server.discovery_port.reset();
            started = LocalServer::start(server);
        }
    }
    if (!started) {
        toast("could not start a local server: " + started.error());
        return;
    }
    local_server_.emplace(std::move(*started));
    hosted_at_ = lan_addresses();
    online_.connect(Endpoint{"127.0.0.1", local_server_->port()}, options_.name, local_server_->fingerprint());
}

void App::toast(const std::string& text) {
    toast_ = text;
    toast_until_ = SteadyClock::now() + std::chrono::seconds(5);
}

// The shown game as PGN with full tags (common/pgn_record.h, as the server's archive writes them),
// saved where the file dialog says.
void App::save_pgn() {
    std::string text;
    if (mode_ == Mode::Online) {
        text = online_.record_pgn();
    } else if (mode_ == Mode::Record && record_ && record_->moves == game_.moves()) {
        text = write_pgn(*record_);  // the file's own record, all its tags and comments
    } else {
        GameRecordTags tags;
        tags.event = mode_ == Mode::Hotseat    ? "Hotseat game"
                     : mode_ == Mode::Computer ? "Game against the computer"
                                               : "Study from a set-up position";
        tags.date = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
        tags.red = game_.seat(Color::Red).name;
        tags.black = game_.seat(Color::Black).name;
        if (const auto& r = game_.result()) {
            tags.result = r->result;
            tags.termination = r->reason;
            tags.explanation = r->explanation;
        }
        text = write_pgn(game_record(game_.position_at(0), game_.moves(), tags));
    }
    // "Ann-Bob-2026.11.26.pgn", with nothing a file name cannot hold.
    const auto today = pgn_date(std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()));
    std::string name = game_.seat(Color::Red).name + "-" + game_.seat(Color::Black).name + "-" + today + ".pgn";
    for (char& c : name)
        if (c == '/' || c == '\\' || c == ' ' || c == ':') c = '_';
    records_.save(std::move(text), name);
}

void App::save_screenshot(const std::filesystem::path& path) {
    sf::Texture texture;
    texture.create(window_.getSize().x, window_.getSize().y);
    texture.update(window_);
    if (texture.copyToImage().saveToFile(path.string()))
        std::cout << "screenshot " << path.string() << std::endl;
    else
        std::cerr << "xiangqi-client: could not save " << path.string() << "\n";
}

// The first frame worth a picture: connected and showing the lobby or a game, or the hotseat board.
bool App::fully_loaded() const {
    if (frames_ < 3) return false;
    if (mode_ == Mode::Hotseat || mode_ == Mode::Record) return true;
    if (mode_ == Mode::Computer) return frames_ > 10;
    if (!options_.connect && !options_.host) return true;
    return online_.status() == LinkStatus::Failed ||
           (online_.status() == LinkStatus::Online && online_.screen() != Screen::Start && !online_.login_pending() &&
            frames_ > 10);
}

// The screen the player sees: a local game is always on the game screen.
Screen App::shown_screen() const { return mode_ != Mode::Online ? Screen::Game : online_.screen(); }

// One frame's input for the screens' widgets, in `in`; each event also goes to the screen shown
// when the frame began. True when there was any event: a frame's worth (a hover, a resize too).
bool App::handle_events(ui::Input& in) {
    const auto mouse = sf::Mouse::getPosition(window_);
    in.mouse = at(mouse.x, mouse.y);
    const Screen screen = shown_screen();
    bool any = false;
    sf::Event event;
    while (next_event(event)) {
        any = true;
        // Widgets act on a click when the frame is drawn: a second click, or keys typed after
        // the click, wait for the next frame, so that a slow frame loses no click and a key
        // reaches what the click focused.
        if (in.pressed && (event.type == sf::Event::MouseButtonPressed || event.type == sf::Event::KeyPressed ||
                           event.type == sf::Event::TextEntered)) {
            deferred_.push_front(event);
            break;
        }
        if (!handle_window_event(event, in)) continue;
        if (records_.active()) {  // a dialog over the screen takes the keyboard
            records_.handle(event);
            continue;
        }
        if (screen == Screen::Start) start_.handle(event);
        if (screen == Screen::Lobby) lobby_screen_.handle(event);
        if (screen == Screen::Game) game_screen_.handle(event);
        if (screen == Screen::Profile) profile_screen_.handle(event);
    }
    return any;
}

// The next event: first those a frame left for the next one, then the window's.
bool App::next_event(sf::Event& event) {
    if (deferred_.empty()) return window_.pollEvent(event);
    event = deferred_.front();
    deferred_.pop_front();
    return true;
}

// What the window itself answers (close, resize, F12) and the mouse noted in `in`; false for an
// event the screens must not see.
bool App::handle_window_event(const sf::Event& event, ui::Input& in) {
    switch (event.type) {
        case sf::Event::Closed: window_.close(); break;
        case sf::Event::Resized: {
            // SFML 2.5 cannot tell the window manager a minimum size: a window dragged smaller is
            // put back to the least size every screen is laid out for.
            const unsigned width = std::max(event.size.width, kMinWidth);
            const unsigned height = std::max(event.size.height, kMinHeight);
            if (width != event.size.width || height != event.size.height) window_.setSize({width, height});
            window_.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(width), static_cast<float>(height))));
            break;
        }
        case sf::Event::MouseButtonPressed:
            if (event.mouseButton.button == sf::Mouse::Left) {
                in.pressed = true;
                in.press_at = at(event.mouseButton.x, event.mouseButton.y);
            }
            break;
        case sf::Event::MouseButtonReleased:
            if (event.mouseButton.button == sf::Mouse::Left) {
                in.released = true;
                in.release_at = at(event.mouseButton.x, event.mouseButton.y);
            }
            break;
        case sf::Event::MouseMoved:
            in.mouse = at(event.mouseMove.x, event.mouseMove.y);
            break;
        case sf::Event::MouseWheelScrolled:
            in.wheel += static_cast<int>(event.mouseWheelScroll.delta);
            break;
        case sf::Event::KeyPressed:
            if (event.key.control && (event.key.code == sf::Keyboard::O || event.key.code == sf::Keyboard::S)) {
                if (event.key.code == sf::Keyboard::O) records_.open_pgn();
                else if (shown_screen() == Screen::Game && game_.ply_count() > 0) save_pgn();
                return false;
            }
            if (event.key.code == sf::Keyboard::F12) {
                save_screenshot(options_.screenshot_dir /
                                (options_.name + "-" + std::to_string(++screenshots_) + ".png"));
                return false;
            }
            break;
        default: break;
    }
    return true;
}

// Everything that moved since the last frame: the engine, the server's messages, notices,
// analysis, sounds and the status line. True when any of it may change the picture.
bool App::update(TimePoint now) {
    bool changed = computer_ && computer_->pump();
    if (hotseat_) changed |= hotseat_->pump();
    if (mode_ == Mode::Online) {
        changed |= online_.pump(now);
        // A player of Black sees its own side at the bottom, as on a real board.
        if (online_.game_id() != seen_game_) {
            seen_game_ = online_.game_id();
            context_.flipped = game_.role() == Role::Black;
        }
    }
    for (const auto& notice : online_.take_notices()) toast(notice);
    if (profile_)
        for (const auto& problem : profile_->take_problems()) toast(problem);
    update_analysis();
    if (analysis_) changed |= analysis_->pick_up();
    for (SoundCue cue : game_.take_cues()) resources_.play(cue);
    context_.status = status_line();
    if (shown_screen() == Screen::Lobby) lobby_screen_.tick(now);
    // Servers found on the LAN arrive on the discovery thread.
    if (shown_screen() == Screen::Start) {
        start_.tick(now);
        auto seen = std::pair(discovery_.searching(), discovery_.servers());
        if (seen != discovery_seen_) {
            discovery_seen_ = std::move(seen);
            changed = true;
        }
    }
    return changed;
}

std::string App::status_line() const {
    std::string status = mode_ == Mode::Hotseat ? "Hotseat: both sides play on this screen"
                         : mode_ == Mode::Record
                             ? (record_ ? "Replaying a game from a file: arrows step through it, Hint asks the engine"
                                        : "A set-up position: both sides move on this screen, Hint asks the engine")
                         : mode_ == Mode::Computer
                             ? "Playing the computer, level " + std::to_string(computer_->level()) +
                                   (computer_->thinking() ? " — thinking…" : "")
                             : online_.status_text();
    if (local_server_ && mode_ == Mode::Online)
        status += "   (hosting on port " + std::to_string(local_server_->port()) +
                  (hosted_at_.empty() ? "" : "; others join " + hosted_at_) + ")";
    return status;
}

void App::draw(ui::Input& in, TimePoint now) {
    window_.clear(ui::color::kBackground);
    const Screen shown = shown_screen();
    // Under an open dialog the screen is drawn but gets no clicks.
    ui::Input none;
    none.mouse = {-1, -1};
    ui::Input& screen_in = records_.active() || TrustPrompt::active(online_) ? none : in;
    if (shown == Screen::Start) start_.draw(window_, screen_in, now);
    if (shown == Screen::Lobby) lobby_screen_.draw(window_, screen_in, now);
    if (shown == Screen::Game) game_screen_.draw(window_, screen_in, now);
    if (shown == Screen::Profile) profile_screen_.draw(window_, screen_in);
    if (shown == Screen::Leaderboard) leaderboard_screen_.draw(window_, screen_in);
    records_.draw(window_, in);
    if (mode_ == Mode::Online && shown != Screen::Start &&
        (online_.status() == LinkStatus::Reconnecting || online_.status() == LinkStatus::Failed))
        draw_connection_lost();
    trust_prompt_.draw(window_, resources_.font(), in, online_);
    if (!toast_.empty() && now < toast_until_) draw_toast();
    window_.display();
    ++frames_;
}

// The connection is gone: say so over everything, the board stays as it was.
void App::draw_connection_lost() {
    const auto size = window_.getView().getSize();
    const Rect r{0, size.y / 2 - 40, size.x, 80};
    ui::box(window_, r, sf::Color(120, 30, 24, 225));
    const bool retrying = online_.status() == LinkStatus::Reconnecting;
    const std::string headline = retrying ? "Connection lost — reconnecting…" : "Disconnected";
    ui::text(window_, resources_.font(), headline, {size.x / 2, r.y + 10}, 26, sf::Color::White,
             ui::Align::Center);
    const std::string detail = ui::elide(resources_.font(), online_.status_text(), 15, size.x - 40);
    ui::text(window_, resources_.font(), detail, {size.x / 2, r.y + 48}, 15, sf::Color(255, 220, 210),
             ui::Align::Center);
}

void App::draw_toast() {
    const auto size = window_.getView().getSize();
    const auto lines = ui::wrap(resources_.font(), toast_, 16, std::min(600.0f, size.x - 60));
    const float h = static_cast<float>(lines.size()) * 22 + 16, w = std::min(640.0f, size.x - 20);
    const Rect r{(size.x - w) / 2, 10, w, h};
    ui::box(window_, r, sf::Color(24, 22, 20, 240), ui::color::kAccent, 1);
    float y = r.y + 8;
    for (const auto& line : lines) {
        ui::text(window_, resources_.font(), line, {size.x / 2, y}, 16, ui::color::kText,
                 ui::Align::Center);
        y += 22;
    }
}

// The moments something drawn changes by itself, for the frame schedule.
void App::plan_frames(TimePoint now) {
    if (shown_screen() == Screen::Game) {
        frames_due_.request_at(game_.next_change(now));
        frames_due_.request_at(game_screen_.next_change(now));
    }
    if (!toast_.empty() && now < toast_until_) frames_due_.request_at(toast_until_);
}

// Draws a frame only when the picture changes (FrameSchedule) and sleeps in between.
int App::run() {
    bool shot_taken = false;
    while (window_.isOpen()) {
        if (options_.stop && *options_.stop) {
            window_.close();
            break;
        }
        ui::Input in;
        const bool events = handle_events(in);
        if (events || expose_.exposed() || !deferred_.empty()) frames_due_.request();
        const TimePoint now = SteadyClock::now();
        if (update(now)) frames_due_.request();
        // fully_loaded() counts frames: until the --screenshot is taken, every turn draws one.
        if (options_.screenshot && !shot_taken) frames_due_.request();
        if (!frames_due_.due(now)) {
            std::this_thread::sleep_for(frames_due_.sleep(now, kPoll));
            continue;
        }
        draw(in, now);
        frames_due_.drawn();
        // Widgets act on a click while they are drawn, after the parts above them were laid out:
        // what the click changed is shown whole by one more frame.
        if (in.pressed || in.released || in.wheel != 0) frames_due_.request();
        plan_frames(now);
        if (options_.screenshot && !shot_taken && fully_loaded()) {
            shot_taken = true;
            save_screenshot(*options_.screenshot);
            if (options_.quit_after_screenshot) window_.close();
        }
    }
    if (options_.print_frame_count) std::cout << "frames " << frames_ << std::endl;
    return 0;
}

}  // namespace xq::client
