#include "client/view/records.h"

#include <algorithm>

#include "common/fen.h"

namespace xq::client {

namespace {

// The dialog box in the middle of the window, at most w x h.
Rect centered(sf::RenderTarget& target, float w, float h) {
    const auto size = target.getView().getSize();
    w = std::min(w, size.x - 20);
    h = std::min(h, size.y - 20);
    return {(size.x - w) / 2, (size.y - h) / 2, w, h};
}

void dim(sf::RenderTarget& target) {
    const auto size = target.getView().getSize();
    ui::box(target, {0, 0, size.x, size.y}, sf::Color(0, 0, 0, 150));
}

}  // namespace

Records::Records(const sf::Font& font, RecordsHooks hooks, std::filesystem::path folder)
    : font_(font), hooks_(std::move(hooks)), folder_(std::move(folder)) {}

void Records::close() {
    if (dialog_) folder_ = dialog_->folder();
    dialog_.reset();
    file_.reset();
    step_ = Step::None;
}

void Records::open_pgn() {
    close();
    dialog_ = std::make_unique<FileDialog>(FileDialogKind::Open, folder_, "Open a PGN file");
    step_ = Step::OpenFile;
}

void Records::save(std::string pgn, std::string name) {
    close();
    pgn_to_save_ = std::move(pgn);
    dialog_ = std::make_unique<FileDialog>(FileDialogKind::Save, folder_, "Save the game as PGN",
                                           unused_file_name(folder_, name));
    step_ = Step::SaveFile;
}

void Records::set_up_position() {
    close();
    fen_error_.clear();
    fen_field_.focus(true);
    step_ = Step::Fen;
}

// A file was taken in the Open dialog: one game opens at once, several are listed to pick from.
// A file that cannot be read keeps the dialog open with the reason.
void Records::opened(const std::filesystem::path& path) {
    auto file = read_pgn_file(path);
    if (!file) {
        dialog_->fail(file.error());
        return;
    }
    folder_ = path.parent_path();  // Save offers the folder of the record opened
    file_name_ = path.filename().string();
    file_ = std::move(*file);
    dialog_.reset();
    if (file_->games.size() == 1) return open_game(0);
    step_ = Step::PickGame;
    picked_ = first_row_ = 0;
}

void Records::after_dialog(FileDialog::Outcome outcome) {
    if (outcome == FileDialog::Outcome::Cancelled) return close();
    if (outcome != FileDialog::Outcome::Chosen) return;
    const auto path = dialog_->chosen();
    if (step_ == Step::OpenFile) return opened(path);
    if (auto written = write_text_file(path, pgn_to_save_); !written) return dialog_->fail(written.error());
    close();
    hooks_.toast("saved " + path.string());
}

void Records::open_game(std::size_t index) {
    const RecordGame game = file_->games[index];
    close();
    if (game.error) hooks_.toast("read up to the move that failed — " + *game.error);
    hooks_.open_game(game);
}

void Records::try_fen() {
    std::string text = fen_field_.value();
    while (!text.empty() && text.back() == ' ') text.pop_back();
    while (!text.empty() && text.front() == ' ') text.erase(0, 1);
    if (text.empty() || text == "startpos") text = std::string(kStartFen);
    auto position = parse_fen(text);
    if (!position) {
        fen_error_ = position.error().message;
        return;
    }
    close();
    hooks_.set_up(*position);
}

void Records::handle(const sf::Event& event) {
    const bool escape = event.type == sf::Event::KeyPressed && event.key.code == sf::Keyboard::Escape;
    switch (step_) {
        case Step::None:
            return;
        case Step::OpenFile:
        case Step::SaveFile:
            return after_dialog(dialog_->handle(event));
        case Step::PickGame: {
            if (escape) return close();
            if (event.type != sf::Event::KeyPressed) return;
            const int n = static_cast<int>(file_->games.size());
            if (event.key.code == sf::Keyboard::Up) picked_ = std::max(0, picked_ - 1);
            if (event.key.code == sf::Keyboard::Down) picked_ = std::min(n - 1, picked_ + 1);
            if (event.key.code == sf::Keyboard::Enter) open_game(static_cast<std::size_t>(picked_));
            return;
        }
        case Step::Fen:
            if (escape) return close();
            fen_field_.focus(true);
            if (fen_field_.handle(event)) try_fen();
            return;
    }
}

void Records::draw_games(sf::RenderTarget& target, ui::Input& in) {
    dim(target);
    const Rect r = centered(target, 720, 560);
    ui::box(target, r, ui::color::kPanel, ui::color::kAccent, 1);
    const auto& games = file_->games;
    ui::text(target, font_,
             ui::elide(font_, file_name_ + " — " + std::to_string(games.size()) + " games", 19, r.w - 28),
             {r.x + 14, r.y + 10}, 19, ui::color::kText);
    ui::text(target, font_, "Pick the game to replay (" + std::string(text::name(file_->encoding)) + ")",
             {r.x + 14, r.y + 40}, 14, ui::color::kMuted);
    const float row_h = 46, top = r.y + 66;
    const int rows = std::max(1, static_cast<int>((r.h - 66 - 60) / row_h));
    if (picked_ < first_row_) first_row_ = picked_;
    if (picked_ >= first_row_ + rows) first_row_ = picked_ - rows + 1;
    const Rect list{r.x + 14, top, r.w - 28, static_cast<float>(rows) * row_h};
    if (in.wheel != 0 && list.contains(in.mouse)) first_row_ -= in.wheel * 2;
    first_row_ = std::clamp(first_row_, 0, std::max(0, static_cast<int>(games.size()) - rows));
    for (int i = first_row_; i < static_cast<int>(games.size()) && i < first_row_ + rows; ++i) {
        const RecordGame& g = games[static_cast<std::size_t>(i)];
        const Rect row{list.x, list.y + static_cast<float>(i - first_row_) * row_h, list.w, row_h - 4};
        const bool picked = i == picked_;
        ui::box(target, row,
                picked                   ? sf::Color(92, 74, 40)
                : row.contains(in.mouse) ? sf::Color(62, 58, 52)
                                         : sf::Color(44, 41, 38),
                ui::color::kPanelLine, 1);
        ui::text(target, font_, ui::elide(font_, std::to_string(i + 1) + ". " + g.title, 16, row.w - 20),
                 {row.x + 10, row.y + 3}, 16, ui::color::kText);
        const std::string line = g.error ? "stops early: " + *g.error : g.details;
        ui::text(target, font_, ui::elide(font_, line, 13, row.w - 20), {row.x + 10, row.y + 23}, 13,
                 g.error ? ui::color::kDanger : ui::color::kMuted);
        if (in.take_click(row)) {
            if (picked) return open_game(static_cast<std::size_t>(i));
            picked_ = i;
        }
    }
    const float y = r.y + r.h - 46;
    if (ui::button(target, font_, in, {r.x + 14, y, 150, 34}, "Another file…")) return open_pgn();
    if (ui::button(target, font_, in, {r.x + r.w - 250, y, 110, 34}, "Cancel")) return close();
    if (ui::button(target, font_, in, {r.x + r.w - 128, y, 114, 34}, "Replay", true, true))
        open_game(static_cast<std::size_t>(picked_));
}

void Records::draw_fen(sf::RenderTarget& target, ui::Input& in) {
    dim(target);
    const Rect r = centered(target, 720, 230);
    ui::box(target, r, ui::color::kPanel, ui::color::kAccent, 1);
    ui::text(target, font_, "Set up a position", {r.x + 14, r.y + 10}, 19, ui::color::kText);
    ui::text(target, font_, "Paste or type a FEN; the position opens on this screen to study or play from.",
             {r.x + 14, r.y + 40}, 14, ui::color::kMuted);
    fen_field_.draw(target, font_, in, {r.x + 14, r.y + 70, r.w - 28, 36},
                    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    fen_field_.focus(true);
    float y = r.y + 114;
    for (const auto& line : ui::wrap(font_, fen_error_, 15, r.w - 28)) {
        ui::text(target, font_, line, {r.x + 14, y}, 15, ui::color::kDanger);
        y += 20;
    }
    const float by = r.y + r.h - 46;
    if (ui::button(target, font_, in, {r.x + r.w - 250, by, 110, 34}, "Cancel")) return close();
    if (ui::button(target, font_, in, {r.x + r.w - 128, by, 114, 34}, "Set up", true, true)) try_fen();
}

void Records::draw(sf::RenderTarget& target, ui::Input& in) {
    switch (step_) {
        case Step::None:
            return;
        case Step::OpenFile:
        case Step::SaveFile:
            return after_dialog(dialog_->draw(target, font_, in));
        case Step::PickGame:
            return draw_games(target, in);
        case Step::Fen:
            return draw_fen(target, in);
    }
}

float draw_records_buttons(sf::RenderTarget& target, ScreenContext& ctx, ui::Input& in, const Rect& r) {
    const sf::Font& font = ctx.resources.font();
    const float half = (r.w - 8) / 2;
    if (ui::button(target, font, in, {r.x, r.y, half, r.h}, "Open PGN…  (Ctrl+O)")) ctx.open_pgn();
    if (ui::button(target, font, in, {r.x + half + 8, r.y, half, r.h}, "Set up a position…"))
        ctx.set_up_position();
    return r.h;
}

}  // namespace xq::client
