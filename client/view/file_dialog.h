#pragma once
// The in-app file dialog (SFML has none): a folder's subfolders and .pgn files over the current
// screen, with a path field. Keyboard: type a path, Up/Down pick, Enter opens a folder or takes the
// file, Backspace edits, Esc cancels. Mouse: click picks, a second click on it opens, the wheel
// scrolls. What the paths mean is FileBrowser's (client/records/file_browser.h).

#include <filesystem>
#include <string>

#include <SFML/Graphics.hpp>

#include "client/records/file_browser.h"
#include "client/view/ui.h"

namespace xq::client {

class FileDialog {
public:
    enum class Outcome { Open, Chosen, Cancelled };

    FileDialog(FileDialogKind kind, const std::filesystem::path& folder, std::string title,
               std::string name = {});
    Outcome handle(const sf::Event& event);
    Outcome draw(sf::RenderTarget& target, const sf::Font& font, ui::Input& in);
    // The file taken (Outcome::Chosen).
    const std::filesystem::path& chosen() const { return chosen_; }
    const std::filesystem::path& folder() const { return browser_.folder(); }
    // Keeps the dialog open with a message, for a file that was taken but could not be used.
    void fail(std::string message) { failure_ = std::move(message); }

private:
    Outcome take(const std::string& typed);
    void pick(int index);

    FileBrowser browser_;
    ui::TextField field_;
    std::string title_;
    std::string suggested_;  // Save: the name offered again in each folder opened
    std::string failure_;
    int picked_ = -1;
    int first_row_ = 0;  // scrolled by the wheel and by picking beyond the visible rows
    int rows_ = 10;      // rows visible in the last frame
    std::filesystem::path chosen_;
};

}  // namespace xq::client
