#include "client/view/file_dialog.h"

#include <algorithm>

namespace xq::client {

FileDialog::FileDialog(FileDialogKind kind, const std::filesystem::path& folder, std::string title,
                       std::string name)
    : browser_(kind, folder), field_(name, 1024), title_(std::move(title)), suggested_(std::move(name)) {
    field_.focus(true);
}

void FileDialog::pick(int index) {
    const auto& entries = browser_.entries();
    if (entries.empty()) return;
    picked_ = std::clamp(index, 0, static_cast<int>(entries.size()) - 1);
    field_.set(entries[static_cast<std::size_t>(picked_)].name);
    if (picked_ < first_row_) first_row_ = picked_;
    if (picked_ >= first_row_ + rows_) first_row_ = picked_ - rows_ + 1;
}

FileDialog::Outcome FileDialog::take(const std::string& typed) {
    failure_.clear();
    const auto before = browser_.folder();
    if (auto path = browser_.choose(typed)) {
        chosen_ = *path;
        return Outcome::Chosen;
    }
    if (browser_.folder() != before) {  // a folder was opened: start at its top
        picked_ = -1;
        first_row_ = 0;
        field_.set(browser_.kind() == FileDialogKind::Save ? suggested_ : "");
    }
    return Outcome::Open;
}

FileDialog::Outcome FileDialog::handle(const sf::Event& event) {
    field_.focus(true);  // the field keeps the keyboard while the dialog is up
    if (event.type == sf::Event::KeyPressed) {
        switch (event.key.code) {
            case sf::Keyboard::Escape:
                return Outcome::Cancelled;
            case sf::Keyboard::Up:
                pick(picked_ - 1);
                return Outcome::Open;
            case sf::Keyboard::Down:
                pick(picked_ + 1);
                return Outcome::Open;
            case sf::Keyboard::PageUp:
                pick(picked_ - rows_);
                return Outcome::Open;
            case sf::Keyboard::PageDown:
                pick(picked_ + rows_);
                return Outcome::Open;
            default:
                break;
        }
    }
    if (field_.handle(event)) return take(field_.value());
    return Outcome::Open;
}

FileDialog::Outcome FileDialog::draw(sf::RenderTarget& target, const sf::Font& font, ui::Input& in) {
    const auto size = target.getView().getSize();
    ui::box(target, {0, 0, size.x, size.y}, sf::Color(0, 0, 0, 150));
    const float w = std::min(720.0f, size.x - 20), h = std::min(560.0f, size.y - 20);
    const Rect r{(size.x - w) / 2, (size.y - h) / 2, w, h};
    ui::box(target, r, ui::color::kPanel, ui::color::kAccent, 1);
    ui::text(target, font, title_, {r.x + 14, r.y + 10}, 19, ui::color::kText);
    ui::text(target, font, ui::elide(font, browser_.folder().string(), 14, w - 28), {r.x + 14, r.y + 40}, 14,
             ui::color::kMuted);

    Outcome outcome = Outcome::Open;
    // The list: folders, then .pgn files.
    const float row_h = 28, list_top = r.y + 64, list_h = h - 64 - 120;
    rows_ = std::max(1, static_cast<int>(list_h / row_h));
    const auto& entries = browser_.entries();
    const Rect list{r.x + 14, list_top, w - 28, static_cast<float>(rows_) * row_h};
    ui::box(target, list, sf::Color(36, 34, 31), ui::color::kPanelLine, 1);
    if (in.wheel != 0 && list.contains(in.mouse)) first_row_ -= in.wheel * 3;
    first_row_ = std::clamp(first_row_, 0, std::max(0, static_cast<int>(entries.size()) - rows_));
    if (entries.empty() || (entries.size() == 1 && entries[0].name == ".."))
        ui::text(target, font, "No folders or .pgn files here.",
                 {list.x + 10, list.y + static_cast<float>(entries.size()) * row_h + 6}, 15,
                 ui::color::kMuted);
    for (int i = first_row_; i < static_cast<int>(entries.size()) && i < first_row_ + rows_; ++i) {
        const FileEntry& e = entries[static_cast<std::size_t>(i)];
        const Rect row{list.x + 1, list.y + static_cast<float>(i - first_row_) * row_h, list.w - 2, row_h};
        const bool picked = i == picked_;
        if (picked || row.contains(in.mouse))
            ui::box(target, row, picked ? sf::Color(92, 74, 40) : sf::Color(56, 52, 47));
        const std::string label = e.name == ".." ? "..  (the folder above)"
                                  : e.folder     ? e.name + "/"
                                                 : e.name;
        ui::text(target, font, ui::elide(font, label, 15, row.w - 20), {row.x + 10, row.y + 5}, 15,
                 e.folder ? ui::color::kAccent : ui::color::kText);
        if (in.take_click(row)) {
            if (picked) {
                outcome = take(e.name);  // a second click opens it
            } else {
                pick(i);
            }
        }
    }

    float y = list.y + list.h + 12;
    const bool save = browser_.kind() == FileDialogKind::Save;
    ui::text(target, font, save ? "Save as" : "File", {r.x + 14, y + 8}, 15, ui::color::kMuted);
    field_.draw(target, font, in, {r.x + 90, y, w - 104, 34},
                save ? "name.pgn, or a path" : "a file name or a path");
    field_.focus(true);
    y += 44;
    const std::string& message = !failure_.empty() ? failure_ : browser_.error();
    if (!message.empty())
        ui::text(target, font, ui::elide(font, message, 15, w - 28), {r.x + 14, y}, 15, ui::color::kDanger);
    y = r.y + h - 46;
    if (ui::button(target, font, in, {r.x + 14, y, 110, 34}, "Up a folder",
                   entries.size() > 0 && entries[0].name == ".."))
        outcome = take("..");
    if (ui::button(target, font, in, {r.x + w - 250, y, 110, 34}, "Cancel")) outcome = Outcome::Cancelled;
    if (ui::button(target, font, in, {r.x + w - 128, y, 114, 34}, save ? "Save" : "Open", true, true))
        outcome = take(field_.value());
    return outcome;
}

}  // namespace xq::client
