#pragma once
// Game records in the client: Open PGN (the file dialog, then a list to pick one game of several),
// Set up a position from a FEN, and Save PGN (the file dialog). Drawn over whatever screen is up;
// while one of them is open it takes all input. What an opened game or position becomes (a replay,
// a game from that position) is the App's, through the hooks.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <SFML/Graphics.hpp>

#include "client/records/pgn_file.h"
#include "client/view/file_dialog.h"
#include "client/view/screen_context.h"

namespace xq::client {

struct RecordsHooks {
    std::function<void(const RecordGame&)> open_game;
    std::function<void(const Position&)> set_up;
    std::function<void(const std::string&)> toast;
};

class Records {
public:
    Records(const sf::Font& font, RecordsHooks hooks, std::filesystem::path folder);

    bool active() const { return step_ != Step::None; }
    void open_pgn();
    void set_up_position();
    // Asks where to save `pgn`, offering `name` in the last folder used.
    void save(std::string pgn, std::string name);

    void handle(const sf::Event& event);
    void draw(sf::RenderTarget& target, ui::Input& in);

private:
    enum class Step { None, OpenFile, PickGame, SaveFile, Fen };
    void draw_games(sf::RenderTarget& target, ui::Input& in);
    void draw_fen(sf::RenderTarget& target, ui::Input& in);
    void after_dialog(FileDialog::Outcome outcome);
    void opened(const std::filesystem::path& path);
    void open_game(std::size_t index);
    void try_fen();
    void close();

    const sf::Font& font_;
    RecordsHooks hooks_;
    std::filesystem::path folder_;  // where the next dialog starts: the last folder used
    Step step_ = Step::None;
    std::unique_ptr<FileDialog> dialog_;
    std::optional<PgnFile> file_;  // PickGame: the games of the file opened
    std::string file_name_;
    int picked_ = 0;
    int first_row_ = 0;
    std::string pgn_to_save_;
    ui::TextField fen_field_{"", 200};
    std::string fen_error_;
};

// The "Records" group of buttons (Open PGN…, Set up a position…) for the start screen and the
// lobby: one row of two buttons filling `r`. Returns the height used.
float draw_records_buttons(sf::RenderTarget& target, ScreenContext& ctx, ui::Input& in, const Rect& r);

}  // namespace xq::client
