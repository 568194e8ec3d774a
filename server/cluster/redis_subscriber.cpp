#include "server/cluster/redis_subscriber.h"

#include <vector>

#include "server/log/log.h"

namespace xq::cluster {

namespace {
// Channels per SUBSCRIBE when a reconnection subscribes them all again.
constexpr std::size_t kSubscribeBatch = 1000;
}  // namespace

std::shared_ptr<RedisSubscriber> RedisSubscriber::create(asio::any_io_executor executor, RedisAddress address,
                                                         MessageHandler on_message, ConnectionOptions options) {
    return std::make_shared<RedisSubscriber>(executor, std::move(address), std::move(on_message), options);
}

RedisSubscriber::RedisSubscriber(asio::any_io_executor executor, RedisAddress address, MessageHandler on_message,
                                 ConnectionOptions options)
    : RedisConnection(executor, std::move(address), options), on_message_(std::move(on_message)), ping_timer_(executor) {}

void RedisSubscriber::subscribe(const std::string& channel) {
    if (!wanted_.insert(channel).second) return;
    if (state() == ConnectionState::Connected) send(encode_command({"SUBSCRIBE", channel}));
}

void RedisSubscriber::unsubscribe(const std::string& channel) {
    if (wanted_.erase(channel) == 0) return;
    live_.erase(channel);
    if (state() == ConnectionState::Connected) send(encode_command({"UNSUBSCRIBE", channel}));
}

void RedisSubscriber::on_connected() {
    live_.clear();
    ping_outstanding_ = false;
    std::vector<std::string_view> args;
    std::string bytes;
    for (const auto& channel : wanted_) {
        if (args.empty()) args.push_back("SUBSCRIBE");
        args.push_back(channel);
        if (args.size() > kSubscribeBatch) {
            append_command(bytes, args);
            args.clear();
        }
    }
    if (!args.empty()) append_command(bytes, args);
    if (!bytes.empty()) send(bytes);
    keep_alive();
}

// Every ping_interval: a PING when none is out, or the connection dropped when the last one has
// gone unanswered for command_timeout.
void RedisSubscriber::keep_alive() {
    ping_timer_.expires_after(options().ping_interval);
    const auto gen = generation();
    ping_timer_.async_wait([self = std::static_pointer_cast<RedisSubscriber>(shared_from_this()), gen](const boost::system::error_code& ec) {
        if (ec || gen != self->generation()) return;
        const auto now = std::chrono::steady_clock::now();
        if (self->ping_outstanding_) {
            if (now - self->ping_sent_ >= self->options().command_timeout) {
                self->drop({RedisError::Code::Timeout, "no PONG from " + self->address().to_string() + " within " +
                                                           std::to_string(self->options().command_timeout.count()) + " ms"});
                return;
            }
        } else {
            self->ping_outstanding_ = true;
            self->ping_sent_ = now;
            self->send(encode_command({"PING"}));
        }
        self->keep_alive();
    });
}

void RedisSubscriber::on_reply(Reply reply) {
    // Before the first subscription Redis answers PING as a plain command.
    if (reply.type == Reply::Type::SimpleString && reply.text == "PONG") {
        ping_outstanding_ = false;
        return;
    }
    if (reply.is_error()) {
        drop({RedisError::Code::Server, "subscriber refused: " + reply.text});
        return;
    }
    const auto& e = reply.elements;
    const bool shaped = reply.type == Reply::Type::Array && !e.empty() && e[0].type == Reply::Type::BulkString;
    const std::string_view kind = shaped ? std::string_view(e[0].text) : std::string_view();
    if (kind == "message" && e.size() == 3) {
        if (wanted_.contains(e[1].text)) on_message_(e[1].text, e[2].text);  // not one just unsubscribed
    } else if (kind == "pong" && e.size() == 2) {
        ping_outstanding_ = false;
    } else if (kind == "subscribe" && e.size() == 3) {
        // Confirmed after an unsubscribe was sent: the later UNSUBSCRIBE's answer settles it.
        if (wanted_.contains(e[1].text)) {
            live_.insert(e[1].text);
            if (on_subscribed_) on_subscribed_(e[1].text);
        }
    } else if (kind == "unsubscribe" && e.size() == 3) {
        if (!wanted_.contains(e[1].text)) live_.erase(e[1].text);
    } else {
        drop({RedisError::Code::Protocol, "unexpected reply on a subscribed connection to " + address().to_string()});
    }
}

void RedisSubscriber::on_disconnected(const RedisError&) {
    live_.clear();
    ping_timer_.cancel();
}

void RedisSubscriber::on_stopped() {
    live_.clear();
    ping_timer_.cancel();
}

}  // namespace xq::cluster
