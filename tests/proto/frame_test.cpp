// Framing and decode failures: frames cut at every byte, several in one chunk, and each
// DecodeError code from crafted bytes.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "proto/codec.h"
#include "proto/discovery.h"
#include "proto/frame.h"

namespace xq::proto {
namespace {

std::string bytes(std::initializer_list<int> values) {
    std::string out;
    for (const int v : values) out.push_back(static_cast<char>(v));
    return out;
}

std::vector<ClientMessage> sample() {
    return {ClientMessage{1, Hello{"test", "alice", kProtocolVersion}}, ClientMessage{2, ListGames{}},
            ClientMessage{3, MakeMove{7, "h2e2", 11, 0}},
            ClientMessage{4, SendChat{7, ChatChannel::Players, std::string(200, 'x')}}};
}

std::string stream_of(const std::vector<ClientMessage>& messages) {
    std::string out;
    for (const auto& m : messages) out += encode_frame(m);
    return out;
}

// Feeds the chunks in order and decodes every payload that comes out.
std::vector<ClientMessage> read_all(FrameReader& reader, const std::vector<std::string_view>& chunks) {
    std::vector<ClientMessage> out;
    for (const auto chunk : chunks) {
        auto payloads = reader.feed(chunk);
        EXPECT_TRUE(payloads) << payloads.error().message;
        if (!payloads) break;
        EXPECT_LE(reader.buffered(), kFrameHeaderBytes + kMaxFrameBytes);
        for (const auto& p : *payloads) {
            auto m = decode_client(p);
            EXPECT_TRUE(m) << m.error().message;
            if (m) out.push_back(*m);
        }
    }
    return out;
}

TEST(ProtoFrame, HeaderIsBigEndianLength) {
    const std::string f = frame(std::string(0x0102, 'a'));
    ASSERT_EQ(f.size(), 4u + 0x0102);
    EXPECT_EQ(f.substr(0, 4), bytes({0, 0, 1, 2}));
    EXPECT_EQ(frame(""), bytes({0, 0, 0, 0}));
}

TEST(ProtoFrame, SeveralFramesInOneChunk) {
    const auto messages = sample();
    FrameReader reader;
    EXPECT_EQ(read_all(reader, {stream_of(messages)}), messages);
    EXPECT_FALSE(reader.mid_frame());
    EXPECT_TRUE(reader.finish());
}

TEST(ProtoFrame, SplitAtEveryByteBoundary) {
    const auto messages = sample();
    const std::string stream = stream_of(messages);
    const std::string_view all = stream;
    for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
        FrameReader reader;
        EXPECT_EQ(read_all(reader, {all.substr(0, cut), all.substr(cut)}), messages) << "cut " << cut;
        EXPECT_FALSE(reader.mid_frame());
    }
}

TEST(ProtoFrame, OneByteAtATime) {
    const auto messages = sample();
    const std::string stream = stream_of(messages);
    FrameReader reader;
    std::vector<std::string_view> chunks;
    for (std::size_t i = 0; i < stream.size(); ++i) chunks.push_back(std::string_view(stream).substr(i, 1));
    EXPECT_EQ(read_all(reader, chunks), messages);
}

TEST(ProtoFrame, EmptyFrameIsAnEmptyPayload) {
    FrameReader reader;
    const auto payloads = reader.feed(bytes({0, 0, 0, 0, 0, 0}));
    ASSERT_TRUE(payloads);
    ASSERT_EQ(payloads->size(), 1u);
    EXPECT_EQ(payloads->front(), "");
    EXPECT_EQ(reader.buffered(), 2u);
}

TEST(ProtoFrame, OversizeHeaderRefusedBeforeTheBody) {
    // 70,000 = 0x00011170.
    FrameReader reader;
    const auto got = reader.feed(bytes({0x00, 0x01, 0x11, 0x70, 'x', 'y'}));
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, DecodeErrorCode::Oversize);
    EXPECT_LE(reader.buffered(), kFrameHeaderBytes);
    // The stream has lost its framing: it stays refused.
    const auto again = reader.feed(encode_frame(ClientMessage{1, Ping{}}));
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code, DecodeErrorCode::Oversize);
}

TEST(ProtoFrame, ExactlyTheLimitIsAccepted) {
    FrameReader reader;
    const std::string big(kMaxFrameBytes, '\0');
    const auto got = reader.feed(frame(big));
    ASSERT_TRUE(got);
    ASSERT_EQ(got->size(), 1u);
    EXPECT_EQ(got->front().size(), kMaxFrameBytes);
    const auto over = reader.feed(bytes({0x00, 0x01, 0x00, 0x01}));  // 65,537
    ASSERT_FALSE(over);
    EXPECT_EQ(over.error().code, DecodeErrorCode::Oversize);
}

TEST(ProtoFrame, StreamEndingInsideAFrameIsTruncated) {
    const std::string f = encode_frame(ClientMessage{1, Ping{5}});
    FrameReader reader;
    ASSERT_TRUE(reader.feed(std::string_view(f).substr(0, f.size() - 1)));
    EXPECT_TRUE(reader.mid_frame());
    const auto end = reader.finish();
    ASSERT_FALSE(end);
    EXPECT_EQ(end.error().code, DecodeErrorCode::Truncated);
}

TEST(ProtoDecodeError, TruncatedVarint) {
    // request_id (field 1, varint) whose continuation bit promises more bytes.
    const auto got = decode_client(bytes({0x08, 0xff}));
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, DecodeErrorCode::Truncated);
    EXPECT_EQ(code_name(got.error().code), "truncated");
}

TEST(ProtoDecodeError, TruncatedBody) {
    const std::string whole = encode(ClientMessage{3, MakeMove{7, "h2e2", 11, 0}});
    for (std::size_t keep = 1; keep < whole.size(); ++keep) {
        const auto got = decode_client(std::string_view(whole).substr(0, keep));
        ASSERT_FALSE(got) << keep;
        // Cut right after the request id (2 bytes) the prefix is a whole message without a body.
        const auto expected = keep == 2 ? DecodeErrorCode::EmptyOneof : DecodeErrorCode::Truncated;
        EXPECT_EQ(got.error().code, expected) << keep;
    }
}

TEST(ProtoDecodeError, OversizePayload) {
    const auto got = decode_client(std::string(70'000, '\0'));
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, DecodeErrorCode::Oversize);
    EXPECT_EQ(code_name(got.error().code), "oversize");
}

TEST(ProtoDecodeError, Garbage) {
    // Wire type 7 does not exist; field number 0 is invalid; a hello (field 10) holding wire
    // type 7; a hello whose client name is not UTF-8.
    for (const auto& junk : {bytes({0x0f, 0x00}), bytes({0x00, 0x00}), bytes({0x52, 0x02, 0x0f, 0x00}),
                             bytes({0x52, 0x03, 0x0a, 0x01, 0xff})}) {
        const auto got = decode_client(junk);
        ASSERT_FALSE(got);
        EXPECT_EQ(got.error().code, DecodeErrorCode::Unparsable);
    }
    const auto text = decode_server("GET / HTTP/1.1\r\n\r\n");
    ASSERT_FALSE(text);
    EXPECT_EQ(code_name(text.error().code), "unparsable");
}

TEST(ProtoDecodeError, TextThatIsNotUtf8IsNamedAndNotLogged) {
    // A hello (field 10) whose player name (field 2) is the bytes ff fe: protobuf refuses it.
    testing::internal::CaptureStderr();
    const auto got = decode_client(bytes({0x08, 5, 0x52, 0x04, 0x12, 0x02, 0xff, 0xfe}));
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, DecodeErrorCode::Unparsable);
    EXPECT_EQ(got.error().message,
              "not a valid message of this protocol: the text field xiangqi.v1.Hello.player_name is not valid UTF-8");
    // The next refusal for another reason does not inherit it.
    const auto other = decode_client(bytes({0x0f, 0x00}));
    ASSERT_FALSE(other);
    EXPECT_EQ(other.error().message.find("UTF-8"), std::string::npos) << other.error().message;
}

TEST(ProtoDecodeError, EmptyOneof) {
    const auto none = decode_client("");
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, DecodeErrorCode::EmptyOneof);
    // Only a request id: the error keeps it so the answer can echo it.
    const auto id_only = decode_server(bytes({0x08, 42}));
    ASSERT_FALSE(id_only);
    EXPECT_EQ(id_only.error().code, DecodeErrorCode::EmptyOneof);
    EXPECT_EQ(id_only.error().request_id, 42u);
    EXPECT_EQ(code_name(id_only.error().code), "empty_oneof");
}

TEST(ProtoDecodeError, UnknownKindFromANewerPeer) {
    // request_id 7, then field 99 (length-delimited, empty): a body kind this build lacks.
    const std::string newer = bytes({0x08, 7, 0x9a, 0x06, 0x00});
    const auto got = decode_client(newer);
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, DecodeErrorCode::UnknownKind);
    EXPECT_EQ(got.error().request_id, 7u);
    EXPECT_NE(got.error().message.find("99"), std::string::npos);
    EXPECT_EQ(code_name(got.error().code), "unknown_kind");
    const auto server_side = decode_server(newer);
    ASSERT_FALSE(server_side);
    EXPECT_EQ(server_side.error().code, DecodeErrorCode::UnknownKind);
    // An unknown envelope field (below 10) beside no body is still just an empty message.
    const auto envelope = decode_client(bytes({0x08, 7, 0x10, 1}));
    ASSERT_FALSE(envelope);
    EXPECT_EQ(envelope.error().code, DecodeErrorCode::EmptyOneof);
    // An unknown field beside a known body is ignored, as protobuf intends.
    std::string extra = encode(ClientMessage{8, Ping{3}}) + bytes({0x9a, 0x06, 0x00});
    const auto tolerated = decode_client(extra);
    ASSERT_TRUE(tolerated);
    EXPECT_EQ(*tolerated, (ClientMessage{8, Ping{3}}));
}

TEST(ProtoDecodeError, EnumOutOfRange) {
    // create_game (field 21) { color (field 2) = 7 }, request id 5.
    const auto got = decode_client(bytes({0x08, 5, 0xaa, 0x01, 0x02, 0x10, 0x07}));
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, DecodeErrorCode::InvalidValue);
    EXPECT_EQ(got.error().request_id, 5u);
    EXPECT_NE(got.error().message.find("create_game.color"), std::string::npos);
    EXPECT_EQ(code_name(got.error().code), "invalid_value");
    // make_offer (32) with no kind: an offer must say what it offers.
    const auto kindless = decode_client(bytes({0x82, 0x02, 0x02, 0x08, 0x07}));
    ASSERT_FALSE(kindless);
    EXPECT_EQ(kindless.error().code, DecodeErrorCode::InvalidValue);
}

TEST(ProtoDecodeError, UnknownServerErrorCodeReadsAsUnspecified) {
    // error (field 12) { code = 200, message = "x" }: a newer server's code still decodes.
    const auto got = decode_server(bytes({0x62, 0x06, 0x08, 0xc8, 0x01, 0x12, 0x01, 'x'}));
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(std::get<Error>(got->body).code, ErrorCode::Unspecified);
    EXPECT_EQ(std::get<Error>(got->body).message, "x");
}

}  // namespace
}  // namespace xq::proto

namespace xq::proto {
namespace {

TEST(Discovery, RequestAndReplyRoundTrip) {
    EXPECT_TRUE(is_discovery_request(discovery_request()));
    EXPECT_EQ(discovery_request().size(), kDiscoveryRequestBytes);
    EXPECT_FALSE(is_discovery_request(kDiscoveryRequest));  // unpadded: a reply would amplify it
    EXPECT_FALSE(is_discovery_request("XIANGQI-DISCOVER v1\n"));
    EXPECT_FALSE(is_discovery_request(""));
    EXPECT_FALSE(is_discovery_request(std::string(kDiscoveryRequestBytes, 'x')));
    const DiscoveryReply reply{"象棋俱乐部 Club", 7777, 2, 5, kProtocolVersion, std::string(64, 'a')};
    const auto parsed = parse_discovery_reply(encode_discovery_reply(reply));
    ASSERT_TRUE(parsed) << parsed.error();
    EXPECT_EQ(parsed->name, reply.name);
    EXPECT_EQ(parsed->port, 7777);
    EXPECT_EQ(parsed->open_games, 2u);
    EXPECT_EQ(parsed->live_games, 5u);
    EXPECT_EQ(parsed->fingerprint, reply.fingerprint);
}

// The largest reply (the longest name, every byte escaped, the largest counts) fits the request.
TEST(Discovery, NoReplyIsLargerThanTheRequest) {
    const DiscoveryReply worst{std::string(500, '\x01'), 65535, 4294967295u, 4294967295u, 4294967295u,
                               std::string(64, 'f')};
    EXPECT_LE(encode_discovery_reply(worst).size(), kDiscoveryRequestBytes);
    EXPECT_FALSE(parse_discovery_reply(R"({"service":"xiangqi","port":7777,"fingerprint":"zz"})"));
}

TEST(Discovery, LongNamesAreCutOnACharacterBoundary) {
    const std::string name(300, 'x');
    const auto parsed = parse_discovery_reply(encode_discovery_reply({name + "象棋", 1, 0, 0, 1, {}}));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->name.size(), kMaxDiscoveryName);
    const auto cut =
        parse_discovery_reply(encode_discovery_reply({std::string(kMaxDiscoveryName - 1, 'y') + "象", 1, 0, 0, 1, {}}));
    ASSERT_TRUE(cut);
    EXPECT_EQ(cut->name, std::string(kMaxDiscoveryName - 1, 'y'));
}

TEST(Discovery, HostileRepliesAreErrorsNotCrashes) {
    for (const char* bad : {"", "{", "[]", "null", R"({"service":"chess","port":1})", R"({"service":"xiangqi"})",
                            R"({"service":"xiangqi","port":0})", R"({"service":"xiangqi","port":70000})",
                            R"({"service":"xiangqi","port":"7777"})", R"({"service":7,"port":7777})",
                            R"({"service":"xiangqi","port":7777,"name":42})"}) {
        const auto parsed = parse_discovery_reply(bad);
        if (std::string_view(bad) == R"({"service":"xiangqi","port":7777,"name":42})") {
            ASSERT_TRUE(parsed);  // a name of the wrong type is dropped, not fatal
            EXPECT_EQ(parsed->name, "");
        } else {
            EXPECT_FALSE(parsed) << bad;
        }
    }
    EXPECT_FALSE(parse_discovery_reply(std::string(2000, ' ')));
}

}  // namespace
}  // namespace xq::proto
