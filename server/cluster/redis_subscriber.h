#pragma once
// A connection dedicated to pub/sub. In RESP2 a subscribed connection may only (P)SUBSCRIBE,
// (P)UNSUBSCRIBE and PING (anything else and Redis refuses it), so publishing goes through a
// RedisClient and this one only listens. It keeps the set of channels its owner wants, sends
// SUBSCRIBE for all of them again on every reconnection, and PINGs on a timer so that a silent
// dead server (paused, or a half-open TCP connection) is noticed within ping_interval plus
// command_timeout. Messages published while it was disconnected are lost: watch_link tells the
// owner when to resynchronise.

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "server/cluster/redis_connection.h"

namespace xq::cluster {

class RedisSubscriber final : public RedisConnection {
public:
    // `channel` and `payload` are valid only during the call.
    using MessageHandler = std::function<void(std::string_view channel, std::string_view payload)>;
    // Redis confirmed a subscription: messages published on `channel` from now on arrive.
    using SubscribedHandler = std::function<void(std::string_view channel)>;

    static std::shared_ptr<RedisSubscriber> create(asio::any_io_executor executor, RedisAddress address, MessageHandler on_message,
                                                   ConnectionOptions options = {});

    void on_subscribed(SubscribedHandler handler) { on_subscribed_ = std::move(handler); }

    // Adds or removes a channel: at once when connected, else on the next connection.
    void subscribe(const std::string& channel);
    void unsubscribe(const std::string& channel);

    const std::set<std::string>& channels() const { return wanted_; }
    // Channels Redis has confirmed on this connection.
    bool live(const std::string& channel) const { return live_.contains(channel); }

    // Use create().
    RedisSubscriber(asio::any_io_executor executor, RedisAddress address, MessageHandler on_message, ConnectionOptions options);

private:
    void on_connected() override;
    void on_reply(Reply reply) override;
    void on_disconnected(const RedisError& why) override;
    void on_stopped() override;
    void keep_alive();

    MessageHandler on_message_;
    SubscribedHandler on_subscribed_;
    std::set<std::string> wanted_;
    std::set<std::string> live_;
    asio::steady_timer ping_timer_;
    bool ping_outstanding_ = false;
    std::chrono::steady_clock::time_point ping_sent_;
};

}  // namespace xq::cluster
