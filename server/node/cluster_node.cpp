#include "server/node/cluster_node.h"

#include <algorithm>
#include <charconv>

#include "server/accounts/secret.h"
#include "server/dispatch/wire.h"
#include "server/log/log.h"

namespace xq::server::node {

namespace {

// A lobby entry's summary as we publish it: whether a stranger's lobby lists the game, then the
// encoded GameSummary. Unlisted games (private, ended) are published too, for routing.
constexpr char kListed = 'L', kUnlisted = 'U';
// Sessions one deliver names at most (proto/convert_node.cpp bounds a node message's size).
constexpr std::size_t kMaxSessionsPerDeliver = 4096;
// Requests waiting for a dead owner's successor at most; more are answered TRY_LATER at once.
constexpr std::size_t kMaxParked = 20000;

// TRY_LATER for a request (one ClientMessage) about a game whose owner died and has no successor.
void refuse_for_now(Peer& peer, std::string_view frame) {
    const auto message = proto::decode_client(frame);
    if (!message) return;
    const auto game = routed_game(message->body);
    proto::Error refusal;
    refusal.code = proto::ErrorCode::TryLater;
    refusal.message = "the game's server stopped and no other has taken the game over yet";
    refusal.game_id = game.value_or(0);
    refusal.retry_after_ms = 2000;
    peer.deliver(proto::encode(proto::ServerMessage{message->request_id, refusal}));
}

std::int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// A lobby entry ("L" or "U", the publication's Unix ms, '|', the GameSummary) as of `now`: the
// running clock has run since the publication (clamped: clocks of two machines differ a little).
std::optional<proto::GameSummary> read_entry(std::string_view entry, std::int64_t now) {
    const auto bar = entry.find('|');
    if (entry.empty() || bar == std::string_view::npos) return std::nullopt;
    std::int64_t at = 0;
    const auto digits = entry.substr(1, bar - 1);
    if (std::from_chars(digits.data(), digits.data() + digits.size(), at).ptr != digits.data() + digits.size())
        return std::nullopt;
    auto decoded = proto::decode_summary(entry.substr(bar + 1));
    if (!decoded) return std::nullopt;
    std::optional<proto::GameSummary> summary(std::move(*decoded));
    if (!summary->clock || !summary->clock->running) return summary;
    const proto::Millis elapsed{std::clamp<std::int64_t>(now - at, 0, std::int64_t{24} * 3600 * 1000)};
    const auto run = [&](proto::Millis& left) { left = std::max(proto::Millis{0}, left - elapsed); };
    proto::Clock& clock = *summary->clock;
    run(*clock.running == proto::Side::Red ? clock.red_ms : clock.black_ms);
    if (clock.move_cap_ms) run(*clock.move_cap_ms);
    if (clock.first_move_ms) run(*clock.first_move_ms);
    return summary;
}

}  // namespace

ClusterNode::ClusterNode(asio::any_io_executor executor, Dispatcher& dispatcher, GameOwnership& ownership, NodeOptions options,
                         std::function<void()> lost)
    : executor_(executor),
      dispatcher_(dispatcher),
      ownership_(ownership),
      options_(std::move(options)),
      lost_(std::move(lost)),
      match_timer_(executor),
      publish_timer_(executor),
      check_timer_(executor) {
    redis_ = cluster::RedisClient::create(executor, options_.redis);
    leases_ = std::make_shared<cluster::Leases>(redis_);
    std::weak_ptr<bool> alive = alive_;
    stand();
    redis_->watch_link([this, alive] {
        if (alive.lock()) redis_up_since_ = std::chrono::steady_clock::now();
    }, {});
    cluster::BusHandlers handlers;
    handlers.on_node_message = [this, alive](std::string_view from, std::string_view payload) {
        if (alive.lock()) on_node_message(from, payload);
    };
    handlers.on_gap = [this, alive](std::optional<std::uint64_t> game, cluster::GapReason reason) {
        if (alive.lock()) on_gap(game, reason);
    };
    bus_ = cluster::Bus::create(executor, redis_, options_.id, std::move(handlers));
    replica_ = cluster::LobbyReplica::create(executor, redis_, options_.id);
    seek_book_ = cluster::SeekBook::create(redis_, options_.id);
    seek_book_->on_claimed([this, alive](const std::string& id, const cluster::SeekBook::Held& held) {
        // Claimed while Redis was away: the matcher's word (NodePaired) is on its way or was lost.
        if (!alive.lock()) return;
        log(LogLevel::Info, "cluster: seek ", id, " was claimed while Redis was away");
        if (const auto it = seeks_.find(held.session); it != seeks_.end() && it->second.id == id)
            it->second.claimed_at = std::chrono::steady_clock::now();
    });
    cluster::SeekMatcherOptions matching;
    matching.lease = options_.matcher_lease;
    matcher_ = cluster::SeekMatcher::create(
        executor, leases_, options_.id, random_hex(8), matching,
        [this, alive] {
            if (!alive.lock()) return;
            log(LogLevel::Info, "cluster: node ", options_.id, " is the quick-match matcher");
            asio::post(executor_, [this, alive] {
                if (alive.lock() && !stopped_) match_round();  // the seeks that waited for a matcher
            });
        },
        [this, alive](const std::string& why) {
            if (alive.lock()) log(LogLevel::Info, "cluster: node ", options_.id, " is no longer the matcher (", why, ")");
        });
}

void ClusterNode::start() {
    dispatcher_.set_router(this);
    redis_->start();
    keeper_->start();
    bus_->start();
    replica_->start();
    seek_book_->start();
    matcher_->start();
    arm(match_timer_, options_.match_every, &ClusterNode::match_round);
    arm(publish_timer_, options_.publish_every, &ClusterNode::publish_lobby);
    arm(check_timer_, options_.check_nodes_every, &ClusterNode::check_nodes);
}

void ClusterNode::stop() {
    if (stopped_) return;
    flush_outgoing();  // what this turn said still goes out before the connections close
    stopped_ = true;
    dispatcher_.set_router(nullptr);
    publish_timer_.cancel();
    check_timer_.cancel();
    match_timer_.cancel();
    matcher_->stop(true);
    seek_book_->stop();
    replica_->stop();
    bus_->stop();
    keeper_->stop(true);
    redis_->stop();
}

void ClusterNode::arm(asio::steady_timer& timer, std::chrono::milliseconds every, void (ClusterNode::*tick)()) {
    timer.expires_after(every);
    timer.async_wait([this, alive = std::weak_ptr<bool>(alive_), &timer, every, tick](boost::system::error_code ec) {
        if (ec || !alive.lock() || stopped_) return;
        (this->*tick)();
        arm(timer, every, tick);
    });
}

void ClusterNode::send(const std::string& node, proto::NodeMessage message) {
    outgoing_.push_back({node, std::move(message)});
    open_deliver_.erase(node);  // a later deliver must not join one before this message
    if (flush_posted_) return;
    flush_posted_ = true;
    asio::post(executor_, [this, alive = std::weak_ptr<bool>(alive_)] {
        if (alive.lock()) flush_outgoing();
    });
}

void ClusterNode::flush_outgoing() {
    flush_posted_ = false;
    auto out = std::move(outgoing_);
    outgoing_.clear();
    open_deliver_.clear();
    if (stopped_) return;
    stats_.sent += out.size();
    for (const Outgoing& o : out) bus_->send_to_node(o.node, proto::encode(o.message));
}

void ClusterNode::deliver(const std::string& node, std::uint64_t session, std::string_view payload) {
    if (const auto it = open_deliver_.find(node); it != open_deliver_.end()) {
        auto& open = std::get<proto::NodeDeliver>(outgoing_[it->second].message.body);
        if (open.payload == payload && open.more_sessions.size() < kMaxSessionsPerDeliver) {
            open.more_sessions.push_back(session);
            return;
        }
    }
    send(node, {session, proto::NodeDeliver{std::string(payload), {}}});
    open_deliver_[node] = outgoing_.size() - 1;
}

void ClusterNode::close(const std::string& node, std::uint64_t session, bool flush) {
    send(node, {session, proto::NodeClose{flush}});
}

// A dead owner is still named: forward() then parks the request until the game has a new owner.
std::optional<std::string> ClusterNode::remote_owner(std::uint64_t game) {
    if (const auto* entry = replica_->find(game)) {
        if (entry->owner == options_.id) return std::nullopt;
        return entry->owner;
    }
    if (const auto it = orphans_.find(game); it != orphans_.end()) return it->second;  // forgotten with its owner
    // Not in our copy of the lobby: a game just created elsewhere, or one just taken over whose new
    // owner has not published it yet (a takeover forgets the dead owner's entries first). The
    // database knows; a game nobody has is answered here (NO_SUCH_GAME).
    const auto id = wire::room_id(game);
    if (!id || dispatcher_.lobby().find(*id)) return std::nullopt;
    const auto owner = ownership_.owner_of(*id);
    if (!owner || !owner->has_value() || **owner == options_.id) return std::nullopt;
    return *owner;
}

void ClusterNode::forward(const std::string& node, const std::shared_ptr<Peer>& peer, const proto::NodeIdentity& who,
                          std::string_view frame) {
    if (dead(node)) {
        if (parked_.size() >= kMaxParked) return refuse_for_now(*peer, frame);
        ++stats_.parked;
        parked_.push_back({peer, std::string(frame), std::chrono::steady_clock::now()});
        return;
    }
    auto& entry = forwarded_[peer->id()];
    entry.peer = peer;
    entry.nodes.insert(node);
    ++stats_.forwarded;
    send(node, {peer->id(), proto::NodeForward{who, std::string(frame)}});
}

void ClusterNode::forward_pong(const std::shared_ptr<Peer>& peer, const proto::NodeIdentity& who, std::string_view frame) {
    const auto it = forwarded_.find(peer->id());
    if (it == forwarded_.end()) return;  // nobody else pinged it: a stray Pong, ignored as on one node
    for (const std::string& node : it->second.nodes) send(node, {peer->id(), proto::NodeForward{who, std::string(frame)}});
}

std::vector<proto::GameSummary> ClusterNode::remote_games() {
    std::vector<proto::GameSummary> games;
    const auto now = wall_ms();
    for (const auto& [game, entry] : replica_->entries()) {
        if (entry.owner == options_.id || entry.summary.empty() || entry.summary[0] != kListed) continue;
        if (auto summary = read_entry(entry.summary, now)) games.push_back(std::move(*summary));
    }
    return games;
}

void ClusterNode::session_closed(const Peer& peer) {
    if (const auto seek = seeks_.find(peer.id()); seek != seeks_.end()) {
        if (seek->second.id.empty()) {
            seek->second.closed = true;  // cancelled once the add is done
        } else {
            // A cancel that loses to a claim: the matcher's NodePaired finds the session gone.
            seek_book_->cancel(seek->second.id, [](auto) {});
            seeks_.erase(seek);
        }
    }
    const auto it = forwarded_.find(peer.id());
    if (it == forwarded_.end()) return;
    for (const std::string& node : it->second.nodes) send(node, {peer.id(), proto::NodeSessionClosed{}});
    forwarded_.erase(it);
}

void ClusterNode::on_node_message(std::string_view from_view, std::string_view payload) {
    auto message = proto::decode_node(payload);
    if (!message) {
        ++stats_.malformed;
        return log(LogLevel::Warn, "cluster: a message from ", from_view, " does not decode: ", message.error().message);
    }
    const std::string from(from_view);
    std::visit(
        [&](const auto& body) {
            using T = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<T, proto::NodeForward>) {
                serve(from, message->session, body);
            } else if constexpr (std::is_same_v<T, proto::NodeSessionClosed>) {
                remote_closed({from, message->session});
            } else if constexpr (std::is_same_v<T, proto::NodePaired>) {
                on_paired(from, message->session, body);
            } else {
                // For our sessions, from the owner of a game they forwarded to.
                auto local = [&](std::uint64_t session) -> std::shared_ptr<Peer> {
                    const auto it = forwarded_.find(session);
                    auto peer = it == forwarded_.end() ? nullptr : it->second.peer.lock();
                    return peer && peer->open() ? peer : nullptr;
                };
                if constexpr (std::is_same_v<T, proto::NodeDeliver>) {
                    if (const auto peer = local(message->session)) peer->deliver(body.payload);
                    for (std::uint64_t session : body.more_sessions)
                        if (const auto peer = local(session)) peer->deliver(body.payload);
                    stats_.relayed += 1 + body.more_sessions.size();
                } else if (const auto peer = local(message->session)) {
                    peer->close(CloseReason::ByServer, body.flush);
                }
            }
        },
        message->body);
}

std::shared_ptr<RemotePeer> ClusterNode::remote_peer(const std::string& node, std::uint64_t session, const proto::NodeIdentity& who) {
    const RemoteKey key{node, session};
    auto it = remote_.find(key);
    if (it == remote_.end()) {
        auto peer = std::make_shared<RemotePeer>(next_remote_id_++, node, session, who.address_group, who.watch_only,
                                                 static_cast<RemoteLink&>(*this));
        it = remote_.emplace(key, std::move(peer)).first;
    }
    return it->second;
}

void ClusterNode::serve(const std::string& from, std::uint64_t session, const proto::NodeForward& forward) {
    const auto peer = remote_peer(from, session, forward.identity);
    if (!peer->open()) return;  // closed by us; its node will say it is gone
    ++stats_.served;
    dispatcher_.on_forwarded(peer, forward.identity, forward.frame);
}

void ClusterNode::remote_closed(const RemoteKey& key) {
    const auto it = remote_.find(key);
    if (it == remote_.end()) return;
    const auto peer = it->second;
    remote_.erase(it);
    peer->gone();
    dispatcher_.on_closed(*peer);
}

// Redis pub/sub lost messages (a reconnection, a dropped publish): requests, answers or events of
// the sessions between us and other nodes may be missing. Those sessions are closed, on both
// sides, and their clients reconnect and resume, which brings every state back complete.
void ClusterNode::on_gap(std::optional<std::uint64_t> game, cluster::GapReason reason) {
    if (game) return;  // game channels are not used yet: events go to each node's channel
    log(LogLevel::Warn, "cluster: messages between nodes may be lost (", cluster::to_string(reason),
        "); closing the sessions that span nodes");
    for (auto& [id, entry] : forwarded_)
        if (const auto peer = entry.peer.lock()) peer->close(CloseReason::ByServer, true);
    std::vector<RemoteKey> keys;
    for (const auto& [key, peer] : remote_) keys.push_back(key);
    for (const RemoteKey& key : keys) {
        if (auto it = remote_.find(key); it != remote_.end()) it->second->close(CloseReason::ByServer, true);
        remote_closed(key);
    }
}

// A running clock changes every instant, but what it reads follows from a reading and its time:
// an entry is published again only when something else changed (a move, a seat, the status), with
// the clocks as of its publication, and readers count the time since (read_entry).
void ClusterNode::publish_lobby() {
    std::unordered_map<std::uint64_t, std::string> now;  // each game's summary without its clocks
    std::unordered_map<std::uint64_t, std::string> entries;
    const auto at = wall_ms();
    for (const auto& [listing, listed] : dispatcher_.lobby().every_game(std::chrono::steady_clock::now())) {
        auto summary = wire::summary(listing);
        std::string entry(1, listed ? kListed : kUnlisted);
        entry += std::to_string(at) + '|' + proto::encode(summary);
        summary.clock.reset();
        const auto game = wire::game_id(listing.id);
        now.emplace(game, std::string(1, entry[0]) + proto::encode(summary));
        entries.emplace(game, std::move(entry));
    }
    for (auto& [game, bytes] : now) {
        auto it = published_.find(game);
        if (it != published_.end() && it->second == bytes) continue;
        if (replica_->put(game, entries[game])) published_[game] = std::move(bytes);
    }
    for (auto it = published_.begin(); it != published_.end();) {
        if (now.contains(it->first)) {
            ++it;
        } else {
            replica_->remove(it->first);
            it = published_.erase(it);
        }
    }
}

void ClusterNode::retry_parked() {
    if (parked_.empty()) return;
    std::erase_if(orphans_, [&](const auto& kv) {
        const auto* entry = replica_->find(kv.first);
        const auto id = wire::room_id(kv.first);
        return (entry && !dead(entry->owner)) || !id || dispatcher_.lobby().find(*id);
    });
    const auto now = std::chrono::steady_clock::now();
    auto parked = std::move(parked_);
    parked_.clear();
    for (Parked& p : parked) {
        const auto peer = p.peer.lock();
        if (!peer || !peer->open()) continue;
        const auto message = proto::decode_client(p.frame);
        if (!message) continue;
        const auto game = routed_game(message->body);
        const auto owner = game ? remote_owner(*game) : std::nullopt;
        if (owner && dead(*owner)) {
            if (now - p.since < options_.park_limit) parked_.push_back(std::move(p));
            else refuse_for_now(*peer, p.frame);
            continue;
        }
        dispatcher_.on_frame(peer, p.frame);  // routed afresh: ours now, or to its new owner
    }
}

}  // namespace xq::server::node
