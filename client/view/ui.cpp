#include "ui.h"

#include <algorithm>
#include <cmath>

namespace xq::client::ui {

sf::String utf8(const std::string& text) { return sf::String::fromUtf8(text.begin(), text.end()); }

float text(sf::RenderTarget& target, const sf::Font& font, const std::string& s, Point at, unsigned size,
           sf::Color c, Align align, float outline) {
    sf::Text t(utf8(s), font, size);
    t.setFillColor(c);
    if (outline > 0) {
        t.setOutlineColor(sf::Color(16, 14, 12));
        t.setOutlineThickness(outline);
    }
    const float width = t.getLocalBounds().width;
    float x = at.x;
    if (align == Align::Center) x -= width / 2;
    if (align == Align::Right) x -= width;
    t.setPosition(std::round(x), std::round(at.y));
    target.draw(t);
    return width;
}

namespace {

float width_of(const sf::Font& font, const sf::String& s, unsigned size) {
    sf::Text t(s, font, size);
    return t.getLocalBounds().width;
}

}  // namespace

std::string elide(const sf::Font& font, const std::string& s, unsigned size, float width) {
    sf::String str = utf8(s);
    if (width_of(font, str, size) <= width) return s;
    while (!str.isEmpty() && width_of(font, str + sf::String(L"…"), size) > width) str.erase(str.getSize() - 1);
    const auto bytes = (str + sf::String(L"…")).toUtf8();
    return std::string(bytes.begin(), bytes.end());
}

std::vector<std::string> wrap(const sf::Font& font, const std::string& s, unsigned size, float width) {
    std::vector<std::string> lines;
    const sf::String all = utf8(s);
    sf::String line;
    std::size_t last_space = sf::String::InvalidPos;
    for (std::size_t i = 0; i < all.getSize(); ++i) {
        line += all[i];
        if (all[i] == U' ') last_space = line.getSize() - 1;
        if (width_of(font, line, size) > width && line.getSize() > 1) {
            sf::String rest;
            if (last_space != sf::String::InvalidPos && last_space > 0) {
                rest = line.substring(last_space + 1);
                line = line.substring(0, last_space);
            } else {
                rest = line.substring(line.getSize() - 1);
                line = line.substring(0, line.getSize() - 1);
            }
            const auto bytes = line.toUtf8();
            lines.emplace_back(bytes.begin(), bytes.end());
            line = rest;
            last_space = sf::String::InvalidPos;
        }
    }
    if (!line.isEmpty()) {
        const auto bytes = line.toUtf8();
        lines.emplace_back(bytes.begin(), bytes.end());
    }
    return lines;
}

void box(sf::RenderTarget& target, const Rect& r, sf::Color fill, sf::Color outline, float thickness) {
    sf::RectangleShape shape({r.w, r.h});
    shape.setPosition(r.x, r.y);
    shape.setFillColor(fill);
    if (thickness > 0) {
        shape.setOutlineColor(outline);
        shape.setOutlineThickness(-thickness);
    }
    target.draw(shape);
}

bool button(sf::RenderTarget& target, const sf::Font& font, Input& in, const Rect& r, const std::string& label,
            bool enabled, bool highlighted) {
    const bool hover = enabled && r.contains(in.mouse);
    sf::Color fill = highlighted ? color::kAccent : hover ? color::kButtonHover : color::kButton;
    if (!enabled) fill = sf::Color(60, 57, 52);
    box(target, r, fill, color::kPanelLine, 1);
    const unsigned size = static_cast<unsigned>(std::clamp(r.h * 0.45f, 11.0f, 20.0f));
    const std::string shown = elide(font, label, size, r.w - 8);
    text(target, font, shown, {r.x + r.w / 2, r.y + (r.h - static_cast<float>(size) * 1.25f) / 2}, size,
         enabled ? (highlighted ? sf::Color(30, 26, 20) : color::kText) : color::kMuted, Align::Center);
    return enabled && in.take_click(r);
}

float ScrollArea::begin(sf::RenderTarget& target, Input& in, const Rect& area) {
    area_ = area;
    if (in.wheel != 0 && area.contains(in.mouse)) {
        offset_ -= static_cast<float>(in.wheel) * 40;
        in.wheel = 0;
    }
    offset_ = std::clamp(offset_, 0.0f, std::max(0.0f, content_h_ - area.h));
    // A view showing exactly `area`, drawn into that part of the target: window coordinates stay.
    saved_ = target.getView();
    const auto size = target.getSize();
    sf::View clip(sf::FloatRect(area.x, area.y, area.w, area.h));
    clip.setViewport(sf::FloatRect(area.x / static_cast<float>(size.x), area.y / static_cast<float>(size.y),
                                   area.w / static_cast<float>(size.x), area.h / static_cast<float>(size.y)));
    target.setView(clip);
    hid_press_ = in.pressed && !area.contains(in.press_at);
    if (hid_press_) in.pressed = false;
    mouse_ = in.mouse;
    if (!area.contains(in.mouse)) in.mouse = {-1, -1};
    return area.y - offset_;
}

void ScrollArea::end(sf::RenderTarget& target, Input& in, float content_bottom) {
    target.setView(saved_);
    if (hid_press_) in.pressed = true;
    in.mouse = mouse_;
    content_h_ = content_bottom + offset_ - area_.y;
    if (content_h_ <= area_.h) return;
    // The bar: where the shown part lies in the whole.
    const float track = area_.h, thumb = std::max(24.0f, track * area_.h / content_h_);
    const float at = (track - thumb) * offset_ / (content_h_ - area_.h);
    box(target, {area_.x + area_.w - 4, area_.y, 4, track}, color::kPanel);
    box(target, {area_.x + area_.w - 4, area_.y + at, 4, thumb}, color::kAccent);
}

bool TextField::handle(const sf::Event& event) {
    if (!focused_) return false;
    if (event.type == sf::Event::KeyPressed) {
        if (event.key.code == sf::Keyboard::Enter) return true;
        if (event.key.code == sf::Keyboard::BackSpace && !text_.empty()) {
            // Remove one whole UTF-8 character.
            std::size_t cut = text_.size() - 1;
            while (cut > 0 && (static_cast<unsigned char>(text_[cut]) & 0xC0) == 0x80) --cut;
            text_.erase(cut);
        }
        if (event.key.code == sf::Keyboard::Escape) focused_ = false;
    } else if (event.type == sf::Event::TextEntered && event.text.unicode >= 32 && event.text.unicode != 127) {
        const auto bytes = sf::String(event.text.unicode).toUtf8();
        if (text_.size() + bytes.size() <= max_) text_.append(bytes.begin(), bytes.end());
    }
    return false;
}

void TextField::draw(sf::RenderTarget& target, const sf::Font& font, Input& in, const Rect& r,
                     const std::string& hint) {
    if (in.pressed) focused_ = r.contains(in.press_at);  // a click elsewhere takes the focus away
    if (focused_ && r.contains(in.press_at)) in.pressed = false;
    box(target, r, sf::Color(30, 28, 26), focused_ ? color::kAccent : color::kPanelLine, focused_ ? 2.0f : 1.0f);
    const unsigned size = static_cast<unsigned>(std::clamp(r.h * 0.5f, 11.0f, 18.0f));
    const float y = r.y + (r.h - static_cast<float>(size) * 1.3f) / 2;
    if (text_.empty() && !focused_) {
        text(target, font, hint, {r.x + 8, y}, size, color::kMuted);
        return;
    }
    std::string shown = text_;
    if (masked_) {
        shown.clear();
        for (const char ch : text_)
            if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) shown += "\u2022";
    }
    const float w = text(target, font, shown, {r.x + 8, y}, size, color::kText);
    if (focused_) box(target, {r.x + 10 + w, r.y + 5, 2, r.h - 10}, color::kAccent);
}

}  // namespace xq::client::ui
