#pragma once
// When the window draws its next frame. A frame costs milliseconds of a core (far more under
// software rendering), so the client draws only when the picture changes: at once after anything
// happened (input, a resize, a server message, the engine's answer), and at the moment something
// drawn changes by itself (a clock's next shown second or tenth, a toast's end). Nothing pending,
// no frame. Between frames the loop sleeps until the next one is due, but no longer than a poll
// interval, so the window's events and the network's messages are still seen within it.

#include <chrono>
#include <optional>

#include "client/model/clock_model.h"

namespace xq::client {

class FrameSchedule {
public:
    // Something happened that changes the picture: a frame at once.
    void request() { requested_ = true; }
    // Something drawn changes by itself at `when` (none: nothing does); the earliest one counts.
    void request_at(std::optional<TimePoint> when);
    bool due(TimePoint now) const { return requested_ || (at_ && *at_ <= now); }
    // A frame was drawn: it answered every request so far. The caller then asks for the next
    // moments something drawn changes by itself.
    void drawn();
    // The next deadline; none: no frame until something happens.
    std::optional<TimePoint> next() const { return at_; }
    // How long the loop may sleep at `now`: until the next frame is due, at most `poll`.
    std::chrono::milliseconds sleep(TimePoint now, std::chrono::milliseconds poll) const;

private:
    bool requested_ = true;  // the first frame
    std::optional<TimePoint> at_;
};

}  // namespace xq::client
