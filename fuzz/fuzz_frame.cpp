// fuzz_frame: bytes from the network. The input is a byte stream cut into chunks of random sizes
// and fed to a proto::FrameReader; every payload it completes is decoded as a client message, a
// server message, a node message, a game summary and a quick-match seek. Layout: byte 0 picks the
// reader's limit (the real 64 KiB, or a small one so oversize headers are common), bytes 1-2 seed
// the chunk sizes, the rest is the stream.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "proto/codec.h"
#include "proto/frame.h"
#include "proto/node_messages.h"

namespace xq::fuzz {
namespace {

// A payload that decodes must encode to bytes that decode to the same message.
template <class Decode>
void check_round_trip(std::string_view payload, Decode decode) {
    const auto message = decode(payload);
    if (!message) {
        XQ_FUZZ_CHECK(!proto::code_name(message.error().code).empty(), "every decode error has a name");
        return;
    }
    const std::string again = proto::encode(*message);
    const auto back = decode(again);
    XQ_FUZZ_CHECK(back.has_value(), "a re-encoded message decodes");
    XQ_FUZZ_CHECK(*back == *message, "a re-encoded message decodes to the same message");
    XQ_FUZZ_CHECK(proto::encode(*back) == again, "encoding is deterministic");
}

void check_payload(std::string_view payload) {
    check_round_trip(payload, [](std::string_view p) { return proto::decode_client(p); });
    check_round_trip(payload, [](std::string_view p) { return proto::decode_server(p); });
    // What cluster nodes send each other, and the lobby entries they share (node_messages.h).
    check_round_trip(payload, [](std::string_view p) { return proto::decode_node(p); });
    check_round_trip(payload, [](std::string_view p) { return proto::decode_summary(p); });
    check_round_trip(payload, [](std::string_view p) { return proto::decode_seek(p); });
}

// Chunk sizes from a small xorshift: mostly short chunks, sometimes long ones.
struct Chunker {
    std::uint32_t state;
    std::size_t next() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return (state & 7) == 0 ? 1 + state % 70000 : 1 + state % 16;
    }
};

}  // namespace
}  // namespace xq::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace xq;
    if (size < 3) return 0;
    const std::size_t limit = (data[0] & 1) ? proto::kMaxFrameBytes : data[0] >> 1;
    fuzz::Chunker chunker{static_cast<std::uint32_t>(data[1] << 8 | data[2]) | 1u};
    const std::string_view stream(reinterpret_cast<const char*>(data) + 3, size - 3);

    proto::FrameReader reader(limit);
    std::vector<std::string> payloads;
    std::optional<proto::DecodeError> error;
    std::size_t fed = 0;
    while (fed < stream.size()) {
        const std::string_view chunk = stream.substr(fed, chunker.next());
        fed += chunk.size();
        auto got = reader.feed(chunk);
        if (error) {
            XQ_FUZZ_CHECK(!got && got.error() == *error, "after an error every feed returns the same error");
            continue;
        }
        if (!got) {
            XQ_FUZZ_CHECK(got.error().code == proto::DecodeErrorCode::Oversize, "the reader only refuses oversize");
            error = got.error();
            continue;
        }
        XQ_FUZZ_CHECK(reader.buffered() <= proto::kFrameHeaderBytes + limit, "at most one partial frame is held");
        for (auto& p : *got) {
            XQ_FUZZ_CHECK(p.size() <= limit, "no payload over the limit");
            payloads.push_back(std::move(p));
        }
    }
    // The chunking does not matter: one feed of the whole stream gives the same payloads.
    proto::FrameReader whole(limit);
    const auto all = whole.feed(stream);
    if (error) {
        XQ_FUZZ_CHECK(!all && all.error() == *error, "the whole stream fails the same way");
        XQ_FUZZ_CHECK(!reader.feed("x"), "an errored reader stays errored");
    } else {
        // Every byte is accounted for: complete frames plus the partial one.
        std::size_t framed = reader.buffered();
        for (const auto& p : payloads) framed += proto::kFrameHeaderBytes + p.size();
        XQ_FUZZ_CHECK(framed == stream.size(), "every byte is in a frame or buffered");
        XQ_FUZZ_CHECK(reader.finish().has_value() != reader.mid_frame(), "finish() reports a cut frame");
        if (reader.mid_frame())
            XQ_FUZZ_CHECK(reader.finish().error().code == proto::DecodeErrorCode::Truncated, "a cut frame is truncated");
        XQ_FUZZ_CHECK(all && *all == payloads, "payloads do not depend on chunk sizes");
        // Framing the payloads again gives back the stream up to the partial frame.
        std::string reframed;
        for (const auto& p : payloads) reframed += proto::frame(p);
        XQ_FUZZ_CHECK(stream.starts_with(reframed), "frame() inverts the reader");
    }
    for (const auto& p : payloads) fuzz::check_payload(p);
    return 0;
}
