#include "server/cluster/redis_client.h"

#include <utility>

namespace xq::cluster {

std::shared_ptr<RedisClient> RedisClient::create(asio::any_io_executor executor, RedisAddress address, ConnectionOptions options) {
    return std::make_shared<RedisClient>(executor, std::move(address), options);
}

RedisClient::RedisClient(asio::any_io_executor executor, RedisAddress address, ConnectionOptions options)
    : RedisConnection(executor, std::move(address), options), timeout_timer_(executor) {}

void RedisClient::command(std::span<const std::string_view> args, ReplyHandler done) {
    if (state() != ConnectionState::Connected) {
        refuse(std::move(done), {RedisError::Code::NotConnected, "not connected to " + address().to_string() +
                                                                     (last_error().empty() ? "" : " (" + last_error() + ")")});
        return;
    }
    std::string bytes;
    append_command(bytes, args);
    if (pending_.size() >= options().max_pending || queued_bytes() + bytes.size() > options().max_queued_bytes) {
        refuse(std::move(done), {RedisError::Code::Overloaded, std::to_string(pending_.size()) + " commands in flight, " +
                                                                   std::to_string(queued_bytes()) + " bytes unsent"});
        return;
    }
    pending_.push_back({std::move(done), std::chrono::steady_clock::now() + options().command_timeout});
    send(bytes);
    arm_timeout();
}

// Posted, so a caller never sees its callback run inside its own call.
void RedisClient::refuse(ReplyHandler done, RedisError why) {
    asio::post(executor(), [self = std::static_pointer_cast<RedisClient>(shared_from_this()), done = std::move(done),
                            why = std::move(why)]() mutable {
        if (self->state() != ConnectionState::Stopped) done(std::unexpected(std::move(why)));
    });
}

void RedisClient::on_connected() {}

void RedisClient::on_reply(Reply reply) {
    if (pending_.empty()) {
        drop({RedisError::Code::Protocol, "a reply nobody asked for from " + address().to_string()});
        return;
    }
    auto done = std::move(pending_.front().done);
    pending_.pop_front();
    if (reply.is_error()) done(std::unexpected(RedisError{RedisError::Code::Server, std::move(reply.text)}));
    else done(std::move(reply));
}

// Every command has the same timeout, so the oldest has the earliest deadline: one timer, set for
// the head of the queue, serves them all.
void RedisClient::arm_timeout() {
    if (timer_armed_ || pending_.empty()) return;
    timer_armed_ = true;
    timeout_timer_.expires_at(pending_.front().deadline);
    const auto gen = generation();
    timeout_timer_.async_wait([self = std::static_pointer_cast<RedisClient>(shared_from_this()), gen](const boost::system::error_code& ec) {
        if (ec || gen != self->generation()) return;
        self->timer_armed_ = false;
        if (!self->pending_.empty() && self->pending_.front().deadline <= std::chrono::steady_clock::now()) {
            self->drop({RedisError::Code::Timeout, "no reply from " + self->address().to_string() + " within " +
                                                       std::to_string(self->options().command_timeout.count()) + " ms"});
            return;
        }
        self->arm_timeout();
    });
}

void RedisClient::on_disconnected(const RedisError& why) {
    timer_armed_ = false;
    timeout_timer_.cancel();
    auto failed = std::move(pending_);
    pending_.clear();
    for (auto& p : failed) {
        if (state() == ConnectionState::Stopped) return;  // a handler stopped us: no more callbacks
        p.done(std::unexpected(why));
    }
}

void RedisClient::on_stopped() {
    timeout_timer_.cancel();
    pending_.clear();
}

}  // namespace xq::cluster
