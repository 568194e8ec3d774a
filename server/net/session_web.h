#pragma once
// A web session's state (session.h): its HTTP exchange until the WebSocket upgrade, then the
// WebSocket reader. Seen by session.cpp (which destroys it) and session_web.cpp (which runs it).

#include <memory>
#include <string>

#include "proto/frame.h"
#include "server/net/session.h"
#include "server/web/http_exchange.h"
#include "server/web/ws_frame.h"

namespace xq::server {

struct Session::Web {
    explicit Web(const web::Site& site) : http(std::make_unique<web::HttpExchange>(site)), ws(proto::kMaxFrameBytes) {}
    bool upgraded() const { return !http; }

    std::unique_ptr<web::HttpExchange> http;  // until the upgrade, then freed
    web::WsReader ws;
    web::WsClose close_code = web::WsClose::Normal;  // what the close frame will say
    std::string close_reason;
};

}  // namespace xq::server
