// The codec of cluster.proto's envelopes and of a lobby entry's summary (node_messages.h).
#include "node_messages.h"

#include "cluster.pb.h"
#include "convert.h"

namespace xq::proto {

namespace {

namespace cpb = ::xiangqi::cluster::v1;

DecodeError refused(DecodeErrorCode code, std::string message) { return DecodeError{code, std::move(message), 0}; }

// A forwarded frame or a delivered payload is one frame's payload plus this much envelope: the
// sender puts at most 4,096 more sessions (varints of at most 10 bytes) in one message.
constexpr std::size_t kEnvelopeSlack = 48 * 1024;

}  // namespace

std::string encode(const NodeMessage& message) {
    cpb::NodeMessage out;
    out.set_session(message.session);
    std::visit(
        [&](const auto& body) {
            using T = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<T, NodeForward>) {
                auto& f = *out.mutable_forward();
                auto& who = *f.mutable_identity();
                who.set_name(body.identity.name);
                who.set_account(body.identity.account);
                who.set_address_group(body.identity.address_group);
                who.set_watch_only(body.identity.watch_only);
                who.set_computer_level(body.identity.computer_level);
                f.set_frame(body.frame);
            } else if constexpr (std::is_same_v<T, NodeDeliver>) {
                out.set_deliver(body.payload);
                for (std::uint64_t session : body.more_sessions) out.add_more_sessions(session);
            } else if constexpr (std::is_same_v<T, NodeClose>) {
                out.set_close(body.flush);
            } else {
                out.set_session_closed(true);
            }
        },
        message.body);
    return out.SerializeAsString();
}

std::expected<NodeMessage, DecodeError> decode_node(std::string_view payload) {
    if (payload.size() > kMaxFrameBytes + kEnvelopeSlack)
        return std::unexpected(refused(DecodeErrorCode::Oversize, "a node message of " + std::to_string(payload.size()) + " bytes"));
    cpb::NodeMessage in;
    if (!in.ParseFromArray(payload.data(), static_cast<int>(payload.size())))
        return std::unexpected(refused(DecodeErrorCode::Unparsable, "not a node message"));
    NodeMessage out;
    out.session = in.session();
    switch (in.body_case()) {
        case cpb::NodeMessage::kForward: {
            const auto& who = in.forward().identity();
            out.body = NodeForward{{who.name(), who.account(), who.address_group(), who.watch_only(), who.computer_level()},
                                   in.forward().frame()};
            break;
        }
        case cpb::NodeMessage::kDeliver:
            out.body = NodeDeliver{in.deliver(), {in.more_sessions().begin(), in.more_sessions().end()}};
            break;
        case cpb::NodeMessage::kClose: out.body = NodeClose{in.close()}; break;
        case cpb::NodeMessage::kSessionClosed: out.body = NodeSessionClosed{}; break;
        default: return std::unexpected(refused(DecodeErrorCode::EmptyOneof, "a node message without a body"));
    }
    return out;
}

std::string encode(const GameSummary& summary) {
    detail::pb::GameSummary out;
    detail::fill(out, summary);
    return out.SerializeAsString();
}

std::expected<GameSummary, DecodeError> decode_summary(std::string_view payload) {
    if (payload.size() > kMaxFrameBytes)
        return std::unexpected(refused(DecodeErrorCode::Oversize, "a game summary of " + std::to_string(payload.size()) + " bytes"));
    detail::pb::GameSummary in;
    if (!in.ParseFromArray(payload.data(), static_cast<int>(payload.size())))
        return std::unexpected(refused(DecodeErrorCode::Unparsable, "not a game summary"));
    detail::Reader reader;
    GameSummary out = detail::read(in, reader);
    if (reader.error()) return std::unexpected(*reader.error());
    return out;
}

}  // namespace xq::proto
