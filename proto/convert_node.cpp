// The codec of cluster.proto's envelopes, of a lobby entry's summary and of a seek (node_messages.h).
#include "node_messages.h"

#include <cmath>

#include "cluster.pb.h"
#include "convert.h"

namespace xq::proto {

namespace {

namespace cpb = ::xiangqi::cluster::v1;

DecodeError refused(DecodeErrorCode code, std::string message) { return DecodeError{code, std::move(message), 0}; }

// A forwarded frame or a delivered payload is one frame's payload plus this much envelope: the
// sender puts at most 4,096 more sessions (varints of at most 10 bytes) in one message.
constexpr std::size_t kEnvelopeSlack = 48 * 1024;

void fill(cpb::Identity& out, const NodeIdentity& who) {
    out.set_name(who.name);
    out.set_account(who.account);
    out.set_address_group(who.address_group);
    out.set_watch_only(who.watch_only);
    out.set_computer_level(who.computer_level);
}

NodeIdentity read(const cpb::Identity& who) {
    return {who.name(), who.account(), who.address_group(), who.watch_only(), who.computer_level()};
}

}  // namespace

std::string encode(const NodeMessage& message) {
    cpb::NodeMessage out;
    out.set_session(message.session);
    std::visit(
        [&](const auto& body) {
            using T = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<T, NodeForward>) {
                auto& f = *out.mutable_forward();
                fill(*f.mutable_identity(), body.identity);
                f.set_frame(body.frame);
            } else if constexpr (std::is_same_v<T, NodeDeliver>) {
                out.set_deliver(body.payload);
                for (std::uint64_t session : body.more_sessions) out.add_more_sessions(session);
            } else if constexpr (std::is_same_v<T, NodeClose>) {
                out.set_close(body.flush);
            } else if constexpr (std::is_same_v<T, NodePaired>) {
                out.mutable_paired()->set_seek(body.seek);
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
            out.body = NodeForward{read(in.forward().identity()), in.forward().frame()};
            break;
        }
        case cpb::NodeMessage::kDeliver:
            out.body = NodeDeliver{in.deliver(), {in.more_sessions().begin(), in.more_sessions().end()}};
            break;
        case cpb::NodeMessage::kClose: out.body = NodeClose{in.close()}; break;
        case cpb::NodeMessage::kSessionClosed: out.body = NodeSessionClosed{}; break;
        case cpb::NodeMessage::kPaired: out.body = NodePaired{in.paired().seek()}; break;
        default: return std::unexpected(refused(DecodeErrorCode::EmptyOneof, "a node message without a body"));
    }
    return out;
}

std::string encode(const NodeSeek& seek) {
    cpb::Seek out;
    fill(*out.mutable_identity(), seek.identity);
    out.set_base_minutes(seek.time_control.base_minutes);
    out.set_increment_seconds(seek.time_control.increment_seconds);
    if (seek.time_control.move_cap_seconds) out.set_move_cap_seconds(*seek.time_control.move_cap_seconds);
    out.set_rated(seek.rated);
    out.set_rating(seek.rating);
    return out.SerializeAsString();
}

std::expected<NodeSeek, DecodeError> decode_seek(std::string_view payload) {
    if (payload.size() > kMaxFrameBytes)
        return std::unexpected(refused(DecodeErrorCode::Oversize, "a seek of " + std::to_string(payload.size()) + " bytes"));
    cpb::Seek in;
    if (!in.ParseFromArray(payload.data(), static_cast<int>(payload.size())))
        return std::unexpected(refused(DecodeErrorCode::Unparsable, "not a seek"));
    NodeSeek out;
    out.identity = read(in.identity());
    out.time_control = {in.base_minutes(), in.increment_seconds(),
                        in.has_move_cap_seconds() ? std::optional(in.move_cap_seconds()) : std::nullopt};
    // A rating is a finite number (NaN would pair with nobody and equal nothing, itself included).
    if (!std::isfinite(in.rating())) return std::unexpected(refused(DecodeErrorCode::InvalidValue, "a seek's rating is not finite"));
    out.rated = in.rated();
    out.rating = in.rating();
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
