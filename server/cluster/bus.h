#pragma once
// The pub/sub bus between nodes (helpers-20.md): one channel per node, `xq:to:<node>` (requests
// forwarded to a game's owner, replies and events for a node's sessions), and one per game,
// `xq:game:<id>` (the owner publishes each committed event once; every node with local watchers
// subscribes and fans out itself). Payloads are our protobuf bytes, wrapped in an envelope
// (envelope.h) that numbers them per sender and channel.
//
// Redis pub/sub is at-most-once: whatever is published while a subscriber is disconnected, or
// while the publisher is, is lost. The bus makes every such loss visible as on_gap, after which
// the owner resynchronises that game (or its node's requests) from PostgreSQL:
//   - the subscriber connection came back: every channel, reason Reconnected;
//   - a sender's sequence skipped (a failed PUBLISH on its side, a message dropped by Redis
//     for a slow subscriber): that channel, reason Gap;
//   - a sender's epoch changed (it restarted): that channel, reason SenderRestarted.
// A failed PUBLISH still uses up its sequence number, so its loss shows at the next message.

#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "server/cluster/envelope.h"
#include "server/cluster/redis_client.h"
#include "server/cluster/redis_subscriber.h"

namespace xq::cluster {

std::string node_channel(std::string_view node);
std::string game_channel(std::uint64_t game);

enum class GapReason { Reconnected, Gap, SenderRestarted };
std::string_view to_string(GapReason reason);

struct BusHandlers {
    // A message on our node channel. `from` is the sending node; views valid during the call.
    std::function<void(std::string_view from, std::string_view payload)> on_node_message;
    // A message on a watched game's channel.
    std::function<void(std::uint64_t game, std::string_view from, std::string_view payload)> on_game_message;
    // Messages may have been lost on a channel: `game`, or our node channel when empty.
    std::function<void(std::optional<std::uint64_t> game, GapReason reason)> on_gap;
    // Redis confirmed a subscription: from now on every message of `game` (or of our node channel
    // when empty) reaches us. The moment to load a game's state for new watchers.
    std::function<void(std::optional<std::uint64_t> game)> on_live;
};

struct BusStats {
    std::uint64_t published = 0;       // PUBLISH answered
    std::uint64_t publish_failed = 0;  // PUBLISH refused or unanswered
    std::uint64_t delivered = 0;       // messages handed to the handlers
    std::uint64_t gaps = 0;            // on_gap calls
    std::uint64_t malformed = 0;       // messages without a valid envelope (dropped)
};

class Bus : public std::enable_shared_from_this<Bus> {
public:
    using PublishDone = std::function<void(std::expected<std::int64_t, RedisError>)>;  // receivers

    // `publisher` may be shared with others (the lease keeper); the bus makes its own subscriber
    // connection to the same address. `node` must be a valid_node_id().
    static std::shared_ptr<Bus> create(asio::any_io_executor executor, std::shared_ptr<RedisClient> publisher, std::string node,
                                       BusHandlers handlers, ConnectionOptions options = {});

    // Subscribes to our node channel and starts the subscriber (the publisher is its owner's).
    void start();
    // Closes the subscriber; no handler is called after this.
    void stop();

    void send_to_node(std::string_view node, std::string_view payload, PublishDone done = {});
    void publish_game(std::uint64_t game, std::string_view payload, PublishDone done = {});
    // Forgets a finished game's publishing sequence (a later publication starts at 1 again,
    // which its receivers see as a gap: harmless).
    void forget_game(std::uint64_t game) { sequences_.erase(game_channel(game)); }

    // A local watcher of `game` appeared or left: the first subscribes, the last unsubscribes.
    void watch_game(std::uint64_t game);
    void unwatch_game(std::uint64_t game);
    std::size_t watchers(std::uint64_t game) const;

    const std::string& node() const { return node_; }
    std::uint64_t epoch() const { return epoch_; }
    const BusStats& stats() const { return stats_; }
    bool connected() const { return subscriber_->state() == ConnectionState::Connected; }

    Bus(asio::any_io_executor executor, std::shared_ptr<RedisClient> publisher, std::string node, BusHandlers handlers,
        ConnectionOptions options);
    ~Bus();
    Bus(const Bus&) = delete;
    Bus& operator=(const Bus&) = delete;

private:
    void publish(const std::string& channel, std::string_view payload, PublishDone done);
    void on_message(std::string_view channel, std::string_view bytes);
    void on_subscribed(std::string_view channel);
    void on_up();
    void gap(std::optional<std::uint64_t> game, GapReason reason);

    std::shared_ptr<RedisClient> publisher_;
    std::shared_ptr<RedisSubscriber> subscriber_;
    std::string node_;
    std::string own_channel_;
    std::uint64_t epoch_;
    BusHandlers handlers_;
    std::map<std::string, std::uint64_t> sequences_;  // last sequence published, per channel
    std::map<std::uint64_t, std::size_t> watchers_;   // local watchers per watched game
    SequenceTracker node_tracker_;
    std::map<std::uint64_t, SequenceTracker> game_trackers_;
    int ups_ = 0;
    bool stopped_ = false;
    BusStats stats_;
};

}  // namespace xq::cluster
