#include "client/view/time_control_picker.h"

namespace xq::client {
namespace {

constexpr float kRowH = TimeControlPicker::kRowH;
constexpr float kGap = TimeControlPicker::kGap;
constexpr float kFieldRowH = TimeControlPicker::kFieldRowH;
constexpr float kMessageH = TimeControlPicker::kMessageH;

}  // namespace

TimeControlPickerView::TimeControlPickerView(TimeControlPicker& model)
    : model_(model), minutes_(model.minutes_text(), 3), increment_(model.increment_text(), 2) {}

void TimeControlPickerView::handle(const sf::Event& event) {
    if (model_.kind() != TimeControlPicker::Kind::Custom) return;
    minutes_.handle(event);
    increment_.handle(event);
    model_.set_custom_text(minutes_.value(), increment_.value());
}

int TimeControlPickerView::columns(float width) { return TimeControlPicker::columns(width); }

float TimeControlPickerView::height(float width) const { return model_.height(width); }

float TimeControlPickerView::draw(sf::RenderTarget& target, const sf::Font& font, ui::Input& in, Rect r) {
    const int cols = columns(r.w);
    std::size_t cell = 0;
    const auto next = [&] { return TimeControlPicker::cell(r, cell++); };  // left to right, row by row
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
    const int rows = (static_cast<int>(cell) + cols - 1) / cols;
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
