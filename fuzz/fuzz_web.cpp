// fuzz_web: a browser's bytes on the game port (issue 23). The stream goes, in chunks of random
// sizes, to an HttpExchange (Beast's parser: server/web/http_exchange.h) and, after an upgrade, to
// the WebSocket reader (server/web/ws_frame.h), as a session feeds them. Layout: byte 0 picks the
// WebSocket message limit (the real 64 KiB, or a small one so oversize is common) and whether the
// stream starts as a WebSocket already; bytes 1-2 seed the chunk sizes; the rest is the stream.
// The web root does not exist: every file lookup misses, which is what bytes can reach.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "proto/types.h"
#include "server/web/http_exchange.h"
#include "server/web/site.h"
#include "server/web/ws_frame.h"

namespace xq::fuzz {
namespace {

using server::web::WsOpcode;
using server::web::WsReader;

struct Chunker {
    std::uint32_t state;
    std::size_t next() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return (state & 7) == 0 ? 1 + state % 70000 : 1 + state % 16;
    }
};

// Every message and control frame the reader gives, with the error that ended it, if any.
struct WsOutcome {
    std::vector<std::pair<WsOpcode, std::string>> frames;
    std::optional<int> error;
    bool operator==(const WsOutcome&) const = default;
};

WsOutcome read_ws(std::size_t limit, std::string_view stream, Chunker* chunker) {
    WsOutcome outcome;
    WsReader reader(limit);
    const auto sink = [&](const WsReader::Frame& f) {
        const bool control = static_cast<int>(f.opcode) >= 8;
        XQ_FUZZ_CHECK(control ? f.payload.size() <= 125 : f.payload.size() <= limit, "no frame over its limit");
        XQ_FUZZ_CHECK(f.opcode != WsOpcode::Text && f.opcode != WsOpcode::Continuation, "only whole binary messages");
        outcome.frames.emplace_back(f.opcode, std::string(f.payload));
        return true;
    };
    for (std::size_t fed = 0; fed < stream.size();) {
        const auto chunk = stream.substr(fed, chunker ? chunker->next() : stream.size());
        fed += chunk.size();
        if (const auto e = reader.take(chunk, sink)) {
            XQ_FUZZ_CHECK(!e->message.empty(), "every refusal says why");
            outcome.error = static_cast<int>(e->code);
            break;
        }
    }
    return outcome;
}

}  // namespace
}  // namespace xq::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace xq;
    using server::web::HttpExchange;
    if (size < 3) return 0;
    const std::size_t limit = (data[0] & 1) ? proto::kMaxFrameBytes : data[0] >> 2;
    const bool websocket = data[0] & 2;
    fuzz::Chunker chunker{static_cast<std::uint32_t>(data[1] << 8 | data[2]) | 1u};
    const std::string_view stream(reinterpret_cast<const char*>(data) + 3, size - 3);

    std::string rest(stream);
    if (!websocket) {
        static const server::web::Site site("/nonexistent/xq-fuzz-web-root");
        HttpExchange http(site);
        std::optional<HttpExchange::Next> end;
        std::size_t fed = 0;
        while (fed < stream.size() && !end) {
            const auto chunk = stream.substr(fed, chunker.next());
            fed += chunk.size();
            std::string out;
            const auto next = http.take(chunk, out);
            XQ_FUZZ_CHECK(out.empty() || out.starts_with("HTTP/1.1 "), "a response starts with its status line");
            if (next == HttpExchange::Next::Upgrade)
                XQ_FUZZ_CHECK(out.starts_with("HTTP/1.1 101 ") && out.ends_with("\r\n\r\n"), "an upgrade answers 101");
            if (next != HttpExchange::Next::More) end = next;
        }
        if (end != HttpExchange::Next::Upgrade) return 0;
        rest = http.leftover() + std::string(stream.substr(fed));
    }
    // The chunking does not matter: one feed of the whole stream reads the same.
    const auto chunked = fuzz::read_ws(limit, rest, &chunker);
    XQ_FUZZ_CHECK(chunked == fuzz::read_ws(limit, rest, nullptr), "WebSocket messages do not depend on chunk sizes");
    return 0;
}
