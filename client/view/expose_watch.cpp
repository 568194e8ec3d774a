#include "expose_watch.h"

#include <X11/Xlib.h>

namespace xq::client {

ExposeWatch::ExposeWatch(sf::WindowHandle window) {
    Display* display = ::XOpenDisplay(nullptr);
    if (!display) return;
    // Each client has its own event mask on a window: selecting these does not take SFML's.
    ::XSelectInput(display, window, ExposureMask | StructureNotifyMask);
    ::XFlush(display);
    display_ = display;
}

ExposeWatch::~ExposeWatch() {
    if (display_) ::XCloseDisplay(static_cast<Display*>(display_));
}

bool ExposeWatch::exposed() {
    auto* display = static_cast<Display*>(display_);
    if (!display) return false;
    bool any = false;
    while (::XPending(display) > 0) {
        XEvent event;
        ::XNextEvent(display, &event);
        any = any || event.type == Expose || event.type == MapNotify;
    }
    return any;
}

}  // namespace xq::client
