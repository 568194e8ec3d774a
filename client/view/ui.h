#pragma once
// A small immediate-mode toolkit: each frame a screen draws its widgets and learns at once whether
// one was clicked. Input for the frame is gathered first (Input), then the screen draws.

#include <SFML/Graphics.hpp>
#include <string>

#include "client/model/board_geometry.h"

namespace xq::client::ui {

// The palette: warm wood for the board, a dark panel around it.
namespace color {
inline const sf::Color kBackground(38, 36, 33);
inline const sf::Color kPanel(50, 47, 43);
inline const sf::Color kPanelLine(78, 73, 66);
inline const sf::Color kText(236, 230, 218);
inline const sf::Color kMuted(165, 157, 144);
inline const sf::Color kAccent(214, 160, 60);
inline const sf::Color kRed(190, 30, 30);
inline const sf::Color kDanger(222, 68, 55);
inline const sf::Color kButton(82, 76, 68);
inline const sf::Color kButtonHover(104, 96, 85);
inline const sf::Color kGood(92, 160, 80);
}  // namespace color

// What happened this frame. A click is consumed by the first widget under it.
struct Input {
    Point mouse;
    bool pressed = false;  // left button went down this frame, at press_at
    Point press_at;
    bool released = false;  // left button went up this frame, at release_at
    Point release_at;
    int wheel = 0;  // notches, positive up
    bool take_click(const Rect& r) {
        if (!pressed || !r.contains(press_at)) return false;
        pressed = false;
        return true;
    }
};

enum class Align { Left, Center, Right };

sf::String utf8(const std::string& text);
// Draws one line of text with its top at y; returns its width. An outline (dark, in pixels) keeps
// it legible over any background.
float text(sf::RenderTarget& target, const sf::Font& font, const std::string& s, Point at, unsigned size,
           sf::Color color, Align align = Align::Left, float outline = 0);
// Cuts `s` (UTF-8) to fit `width` pixels, ending in "…" when cut.
std::string elide(const sf::Font& font, const std::string& s, unsigned size, float width);
// Splits `s` into lines of at most `width` pixels, at spaces where it can.
std::vector<std::string> wrap(const sf::Font& font, const std::string& s, unsigned size, float width);
void box(sf::RenderTarget& target, const Rect& r, sf::Color fill, sf::Color outline = sf::Color::Transparent,
         float thickness = 0);
// A button: drawn, and true when clicked this frame.
bool button(sf::RenderTarget& target, const sf::Font& font, Input& in, const Rect& r, const std::string& label,
            bool enabled = true, bool highlighted = false);

// A column whose content may be taller than its room: begin() clips drawing to `area` and returns
// where the content starts (scrolled up by the wheel over it); end() says where it stopped, which
// bounds the scrolling, and draws a scroll bar when one is needed. Between the two, clicks and the
// pointer outside `area` are hidden from the content.
class ScrollArea {
public:
    float begin(sf::RenderTarget& target, Input& in, const Rect& area);
    void end(sf::RenderTarget& target, Input& in, float content_bottom);

private:
    Rect area_;
    float offset_ = 0;
    float content_h_ = 0;
    sf::View saved_;
    bool hid_press_ = false;
    Point mouse_;
};

// A one-line text entry. Click to focus; typing goes to the focused field.
class TextField {
public:
    TextField(std::string text, std::size_t max_bytes) : text_(std::move(text)), max_(max_bytes) {}
    // True when Enter was pressed in it.
    bool handle(const sf::Event& event);
    void draw(sf::RenderTarget& target, const sf::Font& font, Input& in, const Rect& r, const std::string& hint);
    const std::string& value() const { return text_; }
    void set(std::string text) { text_ = std::move(text); }
    bool focused() const { return focused_; }
    void focus(bool on) { focused_ = on; }
    // A password: drawn as one dot a character.
    void set_masked(bool masked) { masked_ = masked; }

private:
    std::string text_;
    std::size_t max_;
    bool focused_ = false;
    bool masked_ = false;
};

}  // namespace xq::client::ui
