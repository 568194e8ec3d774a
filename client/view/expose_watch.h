#pragma once
// Tells the loop when the X server asks for the window to be painted again: a part of it uncovered
// (Expose) or the window shown after being hidden (MapNotify). SFML 2.5 drops these events, and a
// window that draws only when something changes must still repaint what another window covered.
// It listens on a connection of its own, so SFML's event queue is left alone.

#include <SFML/Window/WindowHandle.hpp>

namespace xq::client {

class ExposeWatch {
public:
    // Without a display to open (no X11), exposed() is never true.
    explicit ExposeWatch(sf::WindowHandle window);
    ~ExposeWatch();
    ExposeWatch(const ExposeWatch&) = delete;
    ExposeWatch& operator=(const ExposeWatch&) = delete;

    // True when the window was exposed since the last call. Never blocks.
    bool exposed();

private:
    void* display_ = nullptr;  // Display*, kept out of this header (Xlib's macros clash with SFML's names)
};

}  // namespace xq::client
