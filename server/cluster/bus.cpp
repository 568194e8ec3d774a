#include "server/cluster/bus.h"

#include <charconv>
#include <random>

#include "server/log/log.h"

namespace xq::cluster {

using server::log;
using server::LogLevel;

namespace {

constexpr std::string_view kGamePrefix = "xq:game:";

std::optional<std::uint64_t> game_of(std::string_view channel) {
    if (!channel.starts_with(kGamePrefix)) return std::nullopt;
    channel.remove_prefix(kGamePrefix.size());
    std::uint64_t id = 0;
    const auto [end, ec] = std::from_chars(channel.data(), channel.data() + channel.size(), id);
    if (channel.empty() || ec != std::errc() || end != channel.data() + channel.size()) return std::nullopt;
    return id;
}

// A process's epoch: random, so a restarted node is told apart from its previous run.
std::uint64_t new_epoch() {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

}  // namespace

std::string node_channel(std::string_view node) { return "xq:to:" + std::string(node); }
std::string game_channel(std::uint64_t game) { return std::string(kGamePrefix) + std::to_string(game); }

std::string_view to_string(GapReason reason) {
    switch (reason) {
        case GapReason::Reconnected: return "reconnected";
        case GapReason::Gap: return "gap";
        case GapReason::SenderRestarted: return "sender_restarted";
    }
    return "unknown";
}

std::shared_ptr<Bus> Bus::create(asio::any_io_executor executor, std::shared_ptr<RedisClient> publisher, std::string node,
                                 BusHandlers handlers, ConnectionOptions options) {
    return std::make_shared<Bus>(executor, std::move(publisher), std::move(node), std::move(handlers), options);
}

Bus::Bus(asio::any_io_executor executor, std::shared_ptr<RedisClient> publisher, std::string node, BusHandlers handlers,
         ConnectionOptions options)
    : publisher_(std::move(publisher)),
      node_(std::move(node)),
      own_channel_(node_channel(node_)),
      epoch_(new_epoch()),
      handlers_(std::move(handlers)) {
    // The subscriber's callbacks hold the bus by a plain pointer: the bus stops its subscriber in
    // stop() and in its destructor, and a stopped subscriber calls nothing.
    subscriber_ = RedisSubscriber::create(
        executor, publisher_->address(),
        [this](std::string_view channel, std::string_view bytes) {
            if (!stopped_) on_message(channel, bytes);
        },
        options);
    subscriber_->on_subscribed([this](std::string_view channel) {
        if (!stopped_) on_subscribed(channel);
    });
    subscriber_->watch_link([this] {
        if (!stopped_) on_up();
    }, {});
}

Bus::~Bus() { subscriber_->stop(); }

void Bus::start() {
    subscriber_->subscribe(own_channel_);
    subscriber_->start();
}

void Bus::stop() {
    stopped_ = true;
    subscriber_->stop();
}

void Bus::send_to_node(std::string_view node, std::string_view payload, PublishDone done) {
    publish(node_channel(node), payload, std::move(done));
}

void Bus::publish_game(std::uint64_t game, std::string_view payload, PublishDone done) {
    publish(game_channel(game), payload, std::move(done));
}

void Bus::publish(const std::string& channel, std::string_view payload, PublishDone done) {
    // Numbered even if the PUBLISH then fails: its receivers see the hole at the next message.
    const std::uint64_t sequence = ++sequences_[channel];
    const std::string bytes = encode_envelope(node_, epoch_, sequence, payload);
    publisher_->command({"PUBLISH", channel, bytes}, [self = shared_from_this(), done = std::move(done)](RedisClient::Result r) {
        if (self->stopped_) return;
        if (r && r->type == Reply::Type::Integer) {
            ++self->stats_.published;
            if (done) done(r->integer);
            return;
        }
        ++self->stats_.publish_failed;
        if (done) done(std::unexpected(r ? RedisError{RedisError::Code::Protocol, "PUBLISH answered with no integer"} : r.error()));
    });
}

void Bus::watch_game(std::uint64_t game) {
    if (watchers_[game]++ == 0) subscriber_->subscribe(game_channel(game));
}

void Bus::unwatch_game(std::uint64_t game) {
    auto it = watchers_.find(game);
    if (it == watchers_.end()) return;
    if (--it->second > 0) return;
    watchers_.erase(it);
    game_trackers_.erase(game);
    subscriber_->unsubscribe(game_channel(game));
}

std::size_t Bus::watchers(std::uint64_t game) const {
    auto it = watchers_.find(game);
    return it == watchers_.end() ? 0 : it->second;
}

void Bus::on_message(std::string_view channel, std::string_view bytes) {
    auto envelope = decode_envelope(bytes);
    if (!envelope) {
        ++stats_.malformed;
        log(LogLevel::Warn, "bus: dropped a message on ", channel, ": ", envelope.error());
        return;
    }
    const auto game = game_of(channel);
    if (!game && channel != own_channel_) return;  // a channel we no longer want
    if (game && !watchers_.contains(*game)) return;
    auto& tracker = game ? game_trackers_[*game] : node_tracker_;
    const auto verdict = tracker.see(*envelope);
    if (verdict == SequenceTracker::Verdict::Gap) gap(game, GapReason::Gap);
    if (verdict == SequenceTracker::Verdict::Restarted) gap(game, GapReason::SenderRestarted);
    if (stopped_) return;
    ++stats_.delivered;
    if (game) {
        if (handlers_.on_game_message) handlers_.on_game_message(*game, envelope->sender, envelope->payload);
    } else if (handlers_.on_node_message) {
        handlers_.on_node_message(envelope->sender, envelope->payload);
    }
}

void Bus::on_subscribed(std::string_view channel) {
    if (!handlers_.on_live) return;
    if (channel == own_channel_) handlers_.on_live(std::nullopt);
    else if (const auto game = game_of(channel)) handlers_.on_live(*game);
}

// Every connection after the first: whatever was published meanwhile is lost, on every channel.
void Bus::on_up() {
    if (++ups_ == 1) return;
    node_tracker_.clear();
    game_trackers_.clear();
    gap(std::nullopt, GapReason::Reconnected);
    // A copy: a handler may watch or unwatch games.
    std::vector<std::uint64_t> games;
    for (const auto& [game, count] : watchers_) games.push_back(game);
    for (const auto game : games) {
        if (stopped_) return;
        gap(game, GapReason::Reconnected);
    }
}

void Bus::gap(std::optional<std::uint64_t> game, GapReason reason) {
    ++stats_.gaps;
    if (game) log(LogLevel::Info, "bus: game ", *game, " needs a resync: ", to_string(reason));
    else log(LogLevel::Info, "bus: node channel ", own_channel_, " needs a resync: ", to_string(reason));
    if (handlers_.on_gap) handlers_.on_gap(game, reason);
}

}  // namespace xq::cluster
