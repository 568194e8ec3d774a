// fuzz_resp: bytes from a Redis server (or whatever answers at its address). The input is a byte
// stream cut into chunks of random sizes and fed to a cluster::Parser; bulk strings are also read
// as the bus's envelopes (server/cluster/envelope.h). Layout: byte 0 picks the
// limits (the real ones, or small ones so every limit is reached), bytes 1-2 seed the chunk sizes,
// the rest is the stream.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "server/cluster/envelope.h"
#include "server/cluster/resp.h"

namespace xq::fuzz {
namespace {

// Depth and value count of one reply, checked against the limits it was parsed under.
void check_shape(const cluster::Reply& reply, const cluster::ParseLimits& limits, std::size_t depth, std::size_t& values) {
    ++values;
    XQ_FUZZ_CHECK(values <= limits.max_elements, "no reply holds more values than the limit");
    if (reply.type == cluster::Reply::Type::BulkString)
        XQ_FUZZ_CHECK(reply.text.size() <= limits.max_bulk_bytes, "no bulk string over the limit");
    if (reply.type == cluster::Reply::Type::SimpleString || reply.type == cluster::Reply::Type::Error)
        XQ_FUZZ_CHECK(reply.text.find("\r\n") == std::string::npos, "a line holds no CRLF");
    if (reply.type != cluster::Reply::Type::Array) {
        XQ_FUZZ_CHECK(reply.elements.empty(), "only arrays have elements");
        return;
    }
    if (!reply.elements.empty()) XQ_FUZZ_CHECK(depth < limits.max_depth, "no array nested over the limit");
    for (const auto& e : reply.elements) check_shape(e, limits, depth + 1, values);
}

// Chunk sizes from a small xorshift: mostly short chunks, sometimes long ones.
struct Chunker {
    std::uint32_t state;
    std::size_t next() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return (state & 7) == 0 ? 1 + state % 4096 : 1 + state % 16;
    }
};

}  // namespace
}  // namespace xq::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace xq;
    if (size < 3) return 0;
    const std::size_t pick = data[0];
    const cluster::ParseLimits limits = (pick & 1) ? cluster::ParseLimits{}
                                                   : cluster::ParseLimits{.max_bulk_bytes = pick >> 1,
                                                                          .max_line_bytes = 8,
                                                                          .max_depth = 1 + (pick >> 5),
                                                                          .max_elements = 1 + (pick >> 1 & 15)};
    fuzz::Chunker chunker{static_cast<std::uint32_t>(data[1] << 8 | data[2]) | 1u};
    const std::string_view stream(reinterpret_cast<const char*>(data) + 3, size - 3);

    cluster::Parser parser(limits);
    std::vector<cluster::Reply> replies;
    std::optional<cluster::ParseError> error;
    std::size_t fed = 0;
    while (fed < stream.size()) {
        const std::string_view chunk = stream.substr(fed, chunker.next());
        fed += chunk.size();
        auto got = parser.feed(chunk);
        if (error) {
            XQ_FUZZ_CHECK(!got && got.error() == *error, "after an error every feed returns the same error");
            continue;
        }
        if (!got) {
            XQ_FUZZ_CHECK(!got.error().detail.empty(), "every error says why");
            XQ_FUZZ_CHECK(!cluster::to_string(got.error().code).empty(), "every error has a name");
            error = got.error();
            continue;
        }
        // A partial value is held, but never more than a bulk string and its header and CRLF.
        XQ_FUZZ_CHECK(parser.buffered() <= limits.max_bulk_bytes + limits.max_line_bytes + 4,
                      "the parser holds at most one partial value");
        for (auto& r : *got) replies.push_back(std::move(r));
    }
    // The chunking does not matter: one feed of the whole stream gives the same replies or error.
    cluster::Parser whole(limits);
    const auto all = whole.feed(stream);
    if (error) {
        XQ_FUZZ_CHECK(!all && all.error().code == error->code, "the whole stream fails the same way");
    } else {
        XQ_FUZZ_CHECK(all && *all == replies, "replies do not depend on chunk sizes");
    }
    for (const auto& r : replies) {
        std::size_t values = 0;
        fuzz::check_shape(r, limits, 0, values);
        // Encoding a reply gives bytes that parse back to it, alone.
        cluster::Parser again(limits);
        const auto back = again.feed(cluster::encode_reply(r));
        XQ_FUZZ_CHECK(back && back->size() == 1 && (*back)[0] == r, "an encoded reply parses back to itself");
        XQ_FUZZ_CHECK(!again.mid_reply(), "an encoded reply leaves nothing behind");
        // A bulk string may be a bus message: an envelope that decodes encodes back to its bytes.
        if (r.type == cluster::Reply::Type::BulkString) {
            const auto e = cluster::decode_envelope(r.text);
            if (e) XQ_FUZZ_CHECK(cluster::encode_envelope(e->sender, e->epoch, e->sequence, e->payload) == r.text, "envelopes round-trip");
            else XQ_FUZZ_CHECK(!e.error().empty(), "a refused envelope says why");
        }
    }
    return 0;
}
