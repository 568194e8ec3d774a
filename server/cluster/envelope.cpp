#include "server/cluster/envelope.h"

namespace xq::cluster {
namespace {

constexpr unsigned char kVersion = 1;
constexpr std::size_t kMaxSender = 64;

void put64(std::string& out, std::uint64_t v) {
    for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xff);
}

std::uint64_t get64(std::string_view in) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | static_cast<unsigned char>(in[static_cast<std::size_t>(i)]);
    return v;
}

}  // namespace

std::string encode_envelope(std::string_view sender, std::uint64_t epoch, std::uint64_t sequence, std::string_view payload) {
    std::string out;
    out.reserve(2 + sender.size() + 16 + payload.size());
    out += static_cast<char>(kVersion);
    out += static_cast<char>(sender.size());
    out += sender;
    put64(out, epoch);
    put64(out, sequence);
    out += payload;
    return out;
}

std::expected<Envelope, std::string> decode_envelope(std::string_view bytes) {
    if (bytes.size() < 2) return std::unexpected("an envelope of " + std::to_string(bytes.size()) + " bytes");
    if (static_cast<unsigned char>(bytes[0]) != kVersion)
        return std::unexpected("envelope version " + std::to_string(static_cast<unsigned char>(bytes[0])));
    const std::size_t length = static_cast<unsigned char>(bytes[1]);
    if (length == 0 || length > kMaxSender) return std::unexpected("a sender id of " + std::to_string(length) + " bytes");
    if (bytes.size() < 2 + length + 16) return std::unexpected("an envelope cut short");
    Envelope e;
    e.sender = std::string(bytes.substr(2, length));
    e.epoch = get64(bytes.substr(2 + length));
    e.sequence = get64(bytes.substr(2 + length + 8));
    e.payload = bytes.substr(2 + length + 16);
    return e;
}

SequenceTracker::Verdict SequenceTracker::see(const Envelope& e) {
    auto it = senders_.find(e.sender);
    if (it == senders_.end()) {
        senders_.emplace(e.sender, Last{e.epoch, e.sequence});
        return Verdict::First;
    }
    Last& last = it->second;
    Verdict verdict = Verdict::InOrder;
    if (last.epoch != e.epoch) verdict = Verdict::Restarted;
    else if (e.sequence != last.sequence + 1) verdict = Verdict::Gap;
    last = {e.epoch, e.sequence};
    return verdict;
}

}  // namespace xq::cluster
