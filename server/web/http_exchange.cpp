// The Boost.Beast translation unit: requests parsed by Beast's parser, responses written by its
// header writer. Nothing else includes Beast (http_exchange.h says why).
#include "server/web/http_exchange.h"

#include <utility>  // Boost 1.74 needs it before Asio (server/net/asio.h)

#include <algorithm>
#include <optional>
#include <sstream>

#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "server/log/log.h"
#include "server/web/upgrade.h"

namespace xq::server::web {
namespace {

namespace http = boost::beast::http;
using Request = http::request<http::empty_body>;
using Status = http::status;

// Only our own files, scripts, styles and socket: no inline script, no other site, no framing.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'";

// "/g/<id>": a game's page, whatever the id (the page asks the server, which tells a private or
// unknown game apart from nothing).
bool game_path(std::string_view path) {
    if (!path.starts_with("/g/")) return false;
    const auto id = path.substr(3);
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
    });
}

std::string error_page(Status status, std::string_view detail) {
    const std::string title = std::to_string(static_cast<unsigned>(status)) + " " + std::string(http::obsolete_reason(status));
    return "<!doctype html>\n<meta charset=\"utf-8\">\n<title>" + title + "</title>\n<h1>" + title + "</h1>\n<p>" +
           std::string(detail) + "</p>\n";
}

}  // namespace

struct HttpExchange::Impl {
    Impl(const Site& s, HttpLimits l) : site(s), limits(l) { fresh(); }

    void fresh() {
        parser.emplace();
        parser->header_limit(static_cast<std::uint32_t>(limits.header_bytes));
        parser->body_limit(0);  // no request of ours has a body
    }

    Next take(std::string_view bytes, std::string& out);
    Next answer(const Request& request, std::string& out);
    void respond(Status status, std::string_view type, std::string_view body, std::string_view cache, bool head,
                 bool keep_alive, std::string& out, std::string_view extra = {});
    Next refuse(Status status, std::string_view detail, std::string& out, bool keep_alive = false,
                std::string_view extra = {}) {
        respond(status, "text/html; charset=utf-8", error_page(status, detail), "no-store", false, keep_alive, out, extra);
        return keep_alive ? Next::More : Next::Close;
    }

    const Site& site;
    HttpLimits limits;
    std::optional<http::request_parser<http::empty_body>> parser;
    std::string buffer;  // bytes not yet parsed (Beast takes a header whole or not at all)
    std::size_t served = 0;
};

HttpExchange::HttpExchange(const Site& site, HttpLimits limits) : impl_(std::make_unique<Impl>(site, limits)) {}
HttpExchange::~HttpExchange() = default;

HttpExchange::Next HttpExchange::take(std::string_view bytes, std::string& out) { return impl_->take(bytes, out); }

std::string HttpExchange::leftover() { return std::exchange(impl_->buffer, {}); }

HttpExchange::Next HttpExchange::Impl::take(std::string_view bytes, std::string& out) {
    buffer.append(bytes);
    for (;;) {
        boost::beast::error_code ec;
        const std::size_t used = parser->put(boost::asio::buffer(buffer.data(), buffer.size()), ec);
        buffer.erase(0, used);
        if (ec == http::error::need_more) {
            // Beast refuses a header over its limit once it has seen that much; this guards the
            // buffer whatever it does.
            if (buffer.size() <= limits.header_bytes) return Next::More;
            ec = http::error::header_limit;
        }
        if (ec == http::error::header_limit)
            return refuse(Status::request_header_fields_too_large,
                          "The request's header is over " + std::to_string(limits.header_bytes) + " bytes.", out);
        if (ec == http::error::body_limit || ec == http::error::unexpected_body)
            return refuse(Status::payload_too_large, "No request to this server has a body.", out);
        if (ec) return refuse(Status::bad_request, "The request could not be read: " + ec.message() + ".", out);
        if (!parser->is_done()) return Next::More;
        const Next next = answer(parser->get(), out);
        if (next != Next::More) return next;
        fresh();
        if (buffer.empty()) return Next::More;
    }
}

HttpExchange::Next HttpExchange::Impl::answer(const Request& request, std::string& out) {
    ++served;
    const bool keep = request.keep_alive() && served < limits.requests;
    const bool head = request.method() == http::verb::head;
    const std::string_view target(request.target().data(), request.target().size());
    log(LogLevel::Debug, "web: ", std::string_view(request.method_string().data(), request.method_string().size()), " ",
        target.substr(0, 200));
    if (request.method() != http::verb::get && !head)
        return refuse(Status::method_not_allowed, "Only GET and HEAD are served here.", out, false, "Allow: GET, HEAD\r\n");
    if (target.size() > limits.target_bytes)
        return refuse(Status::uri_too_long, "The URL is over " + std::to_string(limits.target_bytes) + " bytes.", out);
    if (!target.starts_with('/')) return refuse(Status::bad_request, "The URL must be a path.", out);
    const std::string_view path = target.substr(0, target.find('?'));

    if (path == "/ws") {
        if (!boost::beast::websocket::is_upgrade(request))
            return refuse(Status::upgrade_required, "This is the page's WebSocket.", out, keep,
                          "Upgrade: websocket\r\nConnection: Upgrade\r\n");
        const auto field = [&](http::field f) {
            const auto v = request[f];
            return std::string_view(v.data(), v.size());
        };
        if (!origin_allowed(field(http::field::origin), field(http::field::host))) {
            log(LogLevel::Info, "web: a WebSocket from origin '", field(http::field::origin).substr(0, 200),
                "' refused (host '", field(http::field::host).substr(0, 200), "')");
            return refuse(Status::forbidden, "A page of another site may not open this socket.", out);
        }
        if (field(http::field::sec_websocket_version) != "13")
            return refuse(Status::upgrade_required, "WebSocket version 13 only.", out, false,
                          "Sec-WebSocket-Version: 13\r\n");
        const auto key = field(http::field::sec_websocket_key);
        if (key.size() != 24) return refuse(Status::bad_request, "A WebSocket key is 24 characters.", out);
        out += "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ";
        out += websocket_accept(key);
        out += "\r\n\r\n";
        return Next::Upgrade;
    }
    if (path == "/" || game_path(path)) {
        const auto page = site.index();
        if (!page)
            return refuse(Status::not_found,
                          "The watch page is not built on this server: its operator runs ./xq build, or "
                          "points --web-root at a built page.",
                          out, keep);
        respond(Status::ok, page->content_type, page->body, "no-cache", head, keep, out);
        return keep ? Next::More : Next::Close;
    }
    if (path.starts_with("/assets/")) {
        if (const auto file = site.asset(path.substr(8))) {
            respond(Status::ok, file->content_type, file->body,
                    file->immutable ? "public, max-age=31536000, immutable" : "no-cache", head, keep, out);
            return keep ? Next::More : Next::Close;
        }
    }
    return refuse(Status::not_found, "Nothing is here.", out, keep);
}

void HttpExchange::Impl::respond(Status status, std::string_view type, std::string_view body, std::string_view cache,
                                 bool head, bool keep_alive, std::string& out, std::string_view extra) {
    http::response_header<> header;
    header.version(11);
    header.result(status);
    header.set(http::field::server, "xiangqi-server");
    header.set(http::field::content_type, boost::beast::string_view(type.data(), type.size()));
    header.set(http::field::content_length, std::to_string(body.size()));
    header.set(http::field::cache_control, boost::beast::string_view(cache.data(), cache.size()));
    header.set("Content-Security-Policy", boost::beast::string_view(kContentSecurityPolicy.data(), kContentSecurityPolicy.size()));
    header.set("X-Content-Type-Options", "nosniff");
    header.set("X-Frame-Options", "DENY");
    header.set("Referrer-Policy", "no-referrer");
    header.set("Cross-Origin-Opener-Policy", "same-origin");
    header.set("Cross-Origin-Resource-Policy", "same-origin");
    if (!keep_alive) header.set(http::field::connection, "close");
    std::ostringstream text;
    text << header;
    std::string head_text = std::move(text).str();
    // Beast ends the header with its blank line; extra fields go before it.
    if (!extra.empty() && head_text.ends_with("\r\n\r\n")) head_text.insert(head_text.size() - 2, extra);
    out += head_text;
    if (!head) out.append(body);
}

}  // namespace xq::server::web
