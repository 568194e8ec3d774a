// A session that spoke HTTP first (session.h): requests answered from server/web, then, after a
// WebSocket upgrade, binary frames carrying one message each to the same handler as a framed
// session's, and the server's messages out the same way. The queue bounds, timeouts and TLS are
// the session's own, so a browser watcher is held to what a desktop spectator is.

#include "server/log/log.h"
#include "server/net/session_web.h"

namespace xq::server {

using web::WsClose;
using web::WsOpcode;

namespace {

void send_control(std::string& into, WsOpcode opcode, std::string_view payload) {
    web::WsHeader header;
    const auto n = web::ws_header(opcode, payload.size(), header);
    into.assign(header.data(), n);
    into.append(payload);
}

}  // namespace

bool Session::take_web(std::string_view bytes) {
    if (!web_) {
        web_ = std::make_unique<Web>(*site_);
        // An HTTP connection is always inside a request or waiting for the next: the frame
        // timeout bounds both, so a slow header (slowloris) or an idle keep-alive frees its slot.
        partial_since_ = last_read_;
    }
    if (web_->upgraded()) return take_ws(bytes);
    std::string out;
    const auto next = web_->http->take(bytes, out);
    if (!out.empty()) {
        write_frame({}, out);
        partial_since_ = Clock::now();  // answered: the wait for the next request begins
    }
    if (!reading()) return false;
    switch (next) {
        case web::HttpExchange::Next::More: return true;
        case web::HttpExchange::Next::Close:
            close(CloseReason::ByServer, true);
            return false;
        case web::HttpExchange::Next::Upgrade: break;
    }
    const std::string rest = web_->http->leftover();
    web_->http.reset();
    partial_since_ = {};
    log(LogLevel::Debug, "session ", id_, " is a WebSocket");
    return rest.empty() || take_ws(rest);
}

bool Session::take_ws(std::string_view bytes) {
    const auto self = shared_from_this();
    bool whole = false;  // a frame ended in these bytes
    std::string control;
    const auto error = web_->ws.take(bytes, [&](const web::WsReader::Frame& frame) {
        whole = true;
        switch (frame.opcode) {
            case WsOpcode::Binary: handler_.on_frame(self, frame.payload); break;
            case WsOpcode::Ping:
                send_control(control, WsOpcode::Pong, frame.payload);
                write_frame({}, control);
                break;
            case WsOpcode::Close: close(CloseReason::PeerClosed, true); return false;
            default: break;  // a Pong: nothing asked for it
        }
        return reading();
    });
    if (error) {
        // Too large: the handler answers FRAME_TOO_LARGE as on the game port, then the close frame.
        if (error->code == WsClose::TooBig)
            handler_.on_bad_frame(self, {proto::DecodeErrorCode::Oversize, error->message, 0});
        log(LogLevel::Debug, "session ", id_, " WebSocket: ", error->message);
        web_->close_code = error->code;
        web_->close_reason = error->message;
        close(CloseReason::BadFrame, true);
        return false;
    }
    if (!reading()) return false;
    // The frame timeout counts from the first byte of an unfinished frame, as on the game port.
    if (!web_->ws.mid_frame()) partial_since_ = {};
    else if (whole || partial_since_ == Clock::time_point{}) partial_since_ = last_read_;
    return true;
}

void Session::deliver_ws(std::string_view payload) {
    if (!web_ || !web_->upgraded()) return;  // the dispatcher meets a web session by its frames
    web::WsHeader header;
    const auto n = web::ws_header(WsOpcode::Binary, payload.size(), header);
    write_frame(std::string_view(header.data(), n), payload);
}

void Session::close_ws(CloseReason reason) {
    if (!web_->upgraded()) return;
    const auto code = reason == CloseReason::ByServer && web_->close_code == WsClose::Normal ? WsClose::GoingAway
                                                                                                 : web_->close_code;
    std::string frame;
    send_control(frame, WsOpcode::Close, web::ws_close_payload(code, web_->close_reason));
    write_frame({}, frame);
}

}  // namespace xq::server
