#pragma once
// Internal to proto/: conversions between the plain structs and the generated classes. Only the
// .cpp files of proto/ include this (and through it the generated header).

#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "codec.h"
#include "xiangqi.pb.h"

namespace xq::proto::detail {

namespace pb = ::xiangqi::v1;

// How each plain enum sits on the wire: the wire value of its first enumerator, and how many
// enumerators it has. Wire values outside that range are refused (InvalidValue).
template <class E>
struct EnumWire;
template <>
struct EnumWire<Side> {
    static constexpr int offset = 1, count = 2;
};
template <>
struct EnumWire<ColorChoice> {
    static constexpr int offset = 0, count = 3;
};
template <>
struct EnumWire<GameStatus> {
    static constexpr int offset = 1, count = 4;
};
template <>
struct EnumWire<GameResult> {
    static constexpr int offset = 0, count = 4;
};
template <>
struct EnumWire<OfferKind> {
    static constexpr int offset = 1, count = 3;
};
template <>
struct EnumWire<Speed> {
    static constexpr int offset = 1, count = kSpeedCount;
};
template <>
struct EnumWire<ChatChannel> {
    static constexpr int offset = 1, count = 2;
};
template <>
struct EnumWire<ClaimKind> {
    static constexpr int offset = 1, count = 2;
};

template <class Pb, class E>
Pb wire(E value) {
    return static_cast<Pb>(static_cast<int>(value) + EnumWire<E>::offset);
}
inline pb::Side wire_side(std::optional<Side> side) { return side ? wire<pb::Side>(*side) : pb::SIDE_NONE; }

// Reads generated messages into plain ones, remembering the first out-of-range value it met.
class Reader {
public:
    template <class E>
    E get(int wire_value, std::string_view field) {
        const int v = wire_value - EnumWire<E>::offset;
        if (v < 0 || v >= EnumWire<E>::count) {
            fail(field, wire_value);
            return E{};
        }
        return static_cast<E>(v);
    }
    // SIDE_NONE is no side.
    std::optional<Side> side(int wire_value, std::string_view field) {
        if (wire_value == pb::SIDE_NONE) return std::nullopt;
        return get<Side>(wire_value, field);
    }
    void fail(std::string_view field, int wire_value);
    const std::optional<DecodeError>& error() const { return error_; }

private:
    std::optional<DecodeError> error_;
};

// Shared types (convert_common.cpp).
void fill(pb::Ping& out, const Ping& in);
void fill(pb::Pong& out, const Pong& in);
Ping read(const pb::Ping& in, Reader& r);
Pong read(const pb::Pong& in, Reader& r);
void fill(pb::TimeControl& out, const TimeControl& in);
void fill(pb::Clock& out, const Clock& in);
void fill(pb::PlayerInfo& out, const PlayerInfo& in);
void fill(pb::Outcome& out, const Outcome& in);
void fill(pb::Offer& out, const Offer& in);
void fill(pb::GameSummary& out, const GameSummary& in);
void fill(pb::ArchiveEntry& out, const ArchiveEntry& in);
void fill(pb::PlayerRating& out, const PlayerRating& in);
void fill(pb::RatingChange& out, const RatingChange& in);
TimeControl read(const pb::TimeControl& in, Reader& r);
Clock read(const pb::Clock& in, Reader& r);
PlayerInfo read(const pb::PlayerInfo& in, Reader& r);
Outcome read(const pb::Outcome& in, Reader& r);
Offer read(const pb::Offer& in, Reader& r);
GameSummary read(const pb::GameSummary& in, Reader& r);
ArchiveEntry read(const pb::ArchiveEntry& in, Reader& r);
PlayerRating read(const pb::PlayerRating& in, Reader& r);
RatingChange read(const pb::RatingChange& in, Reader& r);


// Envelopes (convert_client.cpp, convert_server.cpp). The readers assume a body is set.
void fill(pb::ClientMessage& out, const ClientMessage& in);
void fill(pb::ServerMessage& out, const ServerMessage& in);
ClientBody read(const pb::ClientMessage& in, Reader& r);
ServerBody read(const pb::ServerMessage& in, Reader& r);

}  // namespace xq::proto::detail
