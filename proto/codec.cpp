// encode/decode: the plain messages through the generated classes, with failures sorted into
// specific DecodeError codes.
#include "codec.h"

#include <array>
#include <cstddef>
#include <iostream>
#include <utility>

#include <google/protobuf/stubs/logging.h>

#include "convert.h"

namespace xq::proto {

namespace {

// Envelope fields 2-9 are reserved for future non-body fields; 10 and up are body kinds.
constexpr int kFirstBodyField = 10;

DecodeError make_error(DecodeErrorCode code, std::string message, std::uint64_t request_id = 0) {
    return DecodeError{code, std::move(message), request_id};
}

// Reads a varint at `pos`; false when the bytes end first (or it runs past 10 bytes).
bool skip_varint(std::string_view bytes, std::size_t& pos, std::uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= bytes.size()) return false;
        const auto byte = static_cast<unsigned char>(bytes[pos++]);
        value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) return true;
    }
    return false;
}

// libprotobuf tells why it refused a message (a text field that is not UTF-8) on stderr, once per
// message: a hostile peer could fill the server's log with it. The reason is kept for our error.
thread_local std::string protobuf_reason;

void keep_protobuf_reason(google::protobuf::LogLevel level, const char* file, int line, const std::string& text) {
    if (level >= google::protobuf::LOGLEVEL_FATAL)  // a broken invariant of libprotobuf itself
        std::cerr << "libprotobuf FATAL " << file << ":" << line << ": " << text << std::endl;
    else
        protobuf_reason = text;
}

// "the text field xiangqi.v1.Hello.player_name is not valid UTF-8", from libprotobuf's sentence.
std::string refusal_detail(const std::string& reason) {
    if (reason.find("invalid UTF-8") == std::string::npos) return "";
    const auto open = reason.find('\''), close = reason.find('\'', open + 1);
    if (open == std::string::npos || close == std::string::npos) return "a text field is not valid UTF-8";
    return "the text field " + reason.substr(open + 1, close - open - 1) + " is not valid UTF-8";
}

// Why protobuf refused `bytes`: Truncated when the top-level fields run past the end (a cut
// varint, a length reaching beyond the payload), Unparsable for anything else.
DecodeError classify_parse_failure(std::string_view bytes) {
    std::size_t pos = 0;
    auto truncated = [&] {
        return make_error(DecodeErrorCode::Truncated, "the message ends inside a field at byte " +
                                                          std::to_string(pos) + " of " +
                                                          std::to_string(bytes.size()));
    };
    while (pos < bytes.size()) {
        std::uint64_t tag = 0;
        std::uint64_t value = 0;
        if (!skip_varint(bytes, pos, tag)) return truncated();
        if ((tag >> 3) == 0) break;
        std::uint64_t need = 0;
        switch (tag & 7) {
            case 0:
                if (!skip_varint(bytes, pos, value)) return truncated();
                continue;
            case 1:
                need = 8;
                break;
            case 2:
                if (!skip_varint(bytes, pos, need)) return truncated();
                break;
            case 5:
                need = 4;
                break;
            default:  // groups (3, 4) are not used by proto3; 6 and 7 do not exist
                return make_error(DecodeErrorCode::Unparsable,
                                  "not a protobuf message: bad wire type at byte " + std::to_string(pos));
        }
        if (need > bytes.size() - pos) return truncated();
        pos += static_cast<std::size_t>(need);
    }
    return make_error(DecodeErrorCode::Unparsable,
                      "not a valid message of this protocol (" + std::to_string(bytes.size()) + " bytes)");
}

// A message without a body: a kind from a newer peer if an unknown body field came with it.
template <class Pb>
DecodeError classify_missing_body(const Pb& message) {
    const auto& unknown = message.GetReflection()->GetUnknownFields(message);
    for (int i = 0; i < unknown.field_count(); ++i) {
        const int number = unknown.field(i).number();
        if (number >= kFirstBodyField) {
            return make_error(DecodeErrorCode::UnknownKind,
                              "unknown message kind (field " + std::to_string(number) + ")",
                              message.request_id());
        }
    }
    return make_error(DecodeErrorCode::EmptyOneof, "the message has no body", message.request_id());
}

// Parses, checks for a body, converts: the shared steps of both decoders.
template <class Plain, class Pb>
std::expected<Plain, DecodeError> decode(std::string_view payload) {
    if (payload.size() > kMaxFrameBytes) {
        return std::unexpected(make_error(
            DecodeErrorCode::Oversize, "payload of " + std::to_string(payload.size()) +
                                           " bytes exceeds the limit of " + std::to_string(kMaxFrameBytes)));
    }
    static const bool quiet = (google::protobuf::SetLogHandler(&keep_protobuf_reason), true);
    (void)quiet;
    protobuf_reason.clear();
    Pb message;
    if (!message.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
        DecodeError error = classify_parse_failure(payload);
        if (const std::string detail = refusal_detail(protobuf_reason);
            error.code == DecodeErrorCode::Unparsable && !detail.empty())
            error.message = "not a valid message of this protocol: " + detail;
        return std::unexpected(std::move(error));
    }
    if (message.body_case() == Pb::BODY_NOT_SET) {
        return std::unexpected(classify_missing_body(message));
    }
    detail::Reader reader;
    Plain out{message.request_id(), detail::read(message, reader)};
    if (reader.error()) {
        DecodeError error = *reader.error();
        error.request_id = message.request_id();
        return std::unexpected(std::move(error));
    }
    return out;
}

template <class Pb, class Plain>
std::string encode_with(const Plain& message) {
    Pb out;
    detail::fill(out, message);
    return out.SerializeAsString();
}

}  // namespace

std::string_view code_name(DecodeErrorCode code) {
    static constexpr std::array<std::string_view, 6> kNames = {
        "truncated", "oversize", "unparsable", "empty_oneof", "unknown_kind", "invalid_value"};
    return kNames[static_cast<std::size_t>(code)];
}

std::size_t encoded_size_in_list(const GameSummary& summary) {
    detail::pb::GameSummary out;
    detail::fill(out, summary);
    const std::size_t body = out.ByteSizeLong();
    std::size_t length_bytes = 1;
    for (std::size_t n = body; n >= 0x80; n >>= 7) ++length_bytes;
    return 1 + length_bytes + body;  // the repeated field's tag (fields 1 and 2), its length, the summary
}

std::string encode(const ClientMessage& message) { return encode_with<detail::pb::ClientMessage>(message); }

std::string encode(const ServerMessage& message) { return encode_with<detail::pb::ServerMessage>(message); }

std::expected<ClientMessage, DecodeError> decode_client(std::string_view payload) {
    return decode<ClientMessage, detail::pb::ClientMessage>(payload);
}

std::expected<ServerMessage, DecodeError> decode_server(std::string_view payload) {
    return decode<ServerMessage, detail::pb::ServerMessage>(payload);
}

}  // namespace xq::proto
