#pragma once
// What the bus wraps around each payload it publishes, so a receiver knows who sent it and can
// tell a lost message: Redis pub/sub is at-most-once (a subscriber that is disconnected, or a
// publisher whose PUBLISH failed, loses messages silently).
//
// Layout (big-endian): version (1 byte, 1), sender id length (1 byte, 1-64), sender id, sender
// epoch (8 bytes, random per process start), sequence (8 bytes, per sender and channel, from 1),
// then the payload: our protobuf bytes, untouched.

#include <cstdint>
#include <expected>
#include <map>
#include <string>
#include <string_view>

namespace xq::cluster {

struct Envelope {
    std::string sender;
    std::uint64_t epoch = 0;
    std::uint64_t sequence = 0;
    std::string_view payload;  // into the decoded bytes
};

std::string encode_envelope(std::string_view sender, std::uint64_t epoch, std::uint64_t sequence, std::string_view payload);
// The envelope, or why the bytes are not one (a foreign publisher on our channel, say).
std::expected<Envelope, std::string> decode_envelope(std::string_view bytes);

// One channel's view of its senders: whether each new message follows the last one seen.
class SequenceTracker {
public:
    enum class Verdict {
        First,      // the first from this sender since tracking began: nothing to compare
        InOrder,    // the next one
        Gap,        // one or more were lost (or reordered, which Redis does not do)
        Restarted   // the sender's epoch changed: a new process, whose earlier messages may be lost
    };
    Verdict see(const Envelope& e);
    void clear() { senders_.clear(); }

private:
    struct Last {
        std::uint64_t epoch;
        std::uint64_t sequence;
    };
    std::map<std::string, Last, std::less<>> senders_;
};

}  // namespace xq::cluster
