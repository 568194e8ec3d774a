#include "client/view/time_control_picker.h"

namespace xq::client {
namespace {

constexpr float kRowH = 30;
constexpr float kGap = 6;
constexpr float kFieldRowH = 32;
constexpr float kMessageH = 22;

}  // namespace

TimeControlPickerView::TimeControlPickerView(TimeControlPicker& model)
    : model_(model), minutes_(model.minutes_text(), 3), increment_(model.increment_text(), 2) {}

void TimeControlPickerView::handle(const sf::Event& event) {
    if (model_.kind() != TimeControlPicker::Kind::Custom) return;
    minutes_.handle(event);
    increment_.handle(event);
    model_.set_custom_text(minutes_.value(), increment_.value());
}

// Five columns make the nine presets and Custom two rows; narrower, four or three.
int TimeControlPickerView::columns(float width) { return width >= 300 ? 5 : width >= 240 ? 4 : 3; }

float TimeControlPickerView::height(float width) const {
    const std::size_t cells = standard_time_controls().size() + 1 + (model_.allows_no_clock() ? 1 : 0);
    const auto cols = static_cast<std::size_t>(columns(width));
    const auto rows = static_cast<float>((cells + cols - 1) / cols);
    float h = rows * kRowH + (rows - 1) * kGap;
    if (model_.kind() == TimeControlPicker::Kind::Custom) h += kGap + kFieldRowH + kMessageH;
    return h;
}

float TimeControlPickerView::draw(sf::RenderTarget& target, const sf::Font& font, ui::Input& in, Rect r) {
    const int cols = columns(r.w);
    const float cell_w = (r.w - static_cast<float>(cols - 1) * kGap) / static_cast<float>(cols);
    int cell = 0;
    // The next cell of the grid, left to right, row by row.
    const auto next = [&] {
        const Rect box{r.x + static_cast<float>(cell % cols) * (cell_w + kGap),
                       r.y + static_cast<float>(cell / cols) * (kRowH + kGap), cell_w, kRowH};
        ++cell;
        return box;
    };
    const auto& presets = standard_time_controls();
    for (std::size_t i = 0; i < presets.size(); ++i)
        if (ui::button(target, font, in, next(), to_string(presets[i]), true, model_.is_preset(i))) model_.pick_preset(i);
    if (model_.allows_no_clock() &&
        ui::button(target, font, in, next(), "No clock", true, model_.kind() == TimeControlPicker::Kind::NoClock))
        model_.pick_no_clock();
    if (ui::button(target, font, in, next(), "Custom", true, model_.kind() == TimeControlPicker::Kind::Custom)) {
        model_.pick_custom();
        minutes_.focus(true);
    }
    const int rows = (cell + cols - 1) / cols;
    float y = r.y + static_cast<float>(rows) * kRowH + static_cast<float>(rows - 1) * kGap;
    if (model_.kind() != TimeControlPicker::Kind::Custom) return y - r.y;

    // Custom: "[min] min + [s] s", then what is wrong with it, or what it makes.
    y += kGap;
    const float field_w = std::min(64.0f, (r.w - 110) / 2);
    float x = r.x;
    minutes_.draw(target, font, in, {x, y, field_w, kFieldRowH}, "min");
    x += field_w + 6;
    x += ui::text(target, font, "min +", {x, y + 7}, 15, ui::color::kMuted) + 6;
    increment_.draw(target, font, in, {x, y, field_w, kFieldRowH}, "s");
    x += field_w + 6;
    ui::text(target, font, "s", {x, y + 7}, 15, ui::color::kMuted);
    model_.set_custom_text(minutes_.value(), increment_.value());
    y += kFieldRowH + 3;
    const auto chosen = model_.choice();
    if (chosen)
        ui::text(target, font, ui::elide(font, "Custom: " + model_.label(), 14, r.w), {r.x, y}, 14, ui::color::kGood);
    else
        ui::text(target, font, ui::elide(font, chosen.error(), 14, r.w), {r.x, y}, 14, ui::color::kDanger);
    return y + kMessageH - 3 - r.y;
}

}  // namespace xq::client
