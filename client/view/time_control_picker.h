#pragma once
// The time-control picker: the presets as a grid of buttons, "Custom" with minutes and increment
// fields, and "No clock" where the model allows it. It lays itself out in any rectangle from about
// 200 px wide; the state it shows is the TimeControlPicker model, owned by the screen.

#include <SFML/Graphics.hpp>

#include "client/model/time_control_picker.h"
#include "client/view/ui.h"

namespace xq::client {

class TimeControlPickerView {
public:
    explicit TimeControlPickerView(TimeControlPicker& model);
    void handle(const sf::Event& event);
    // Draws in `r` (its height is ignored: see height()) and returns the height used.
    float draw(sf::RenderTarget& target, const sf::Font& font, ui::Input& in, Rect r);
    // The height draw() will use at `width` for the model's current state.
    float height(float width) const;

private:
    static int columns(float width);

    TimeControlPicker& model_;
    ui::TextField minutes_;
    ui::TextField increment_;
};

}  // namespace xq::client
