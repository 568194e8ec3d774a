// Quick match across nodes (docs/cluster.md, "A quick match"): our sessions' seeks go to Redis
// (SeekBook) and are answered as one server answers them; the node elected matcher reads every
// seek, pairs them with the single-server rules (server/rooms/seek_rules.h), claims each pair
// atomically (SeekMatcher) and starts its game here with both players' sessions seated, as
// remote peers when they are on other nodes, which hear NodePaired first.
#include "server/dispatch/wire.h"
#include "server/log/log.h"
#include "server/node/cluster_node.h"
#include "server/rooms/seek_rules.h"

namespace xq::server::node {

namespace {

// How long a seek found claimed waits for its NodePaired before the session may seek again.
constexpr auto kClaimedWait = std::chrono::seconds(10);

void answer(Peer& peer, std::uint64_t request_id, proto::ServerBody body) {
    if (peer.open()) peer.deliver(proto::encode(proto::ServerMessage{request_id, std::move(body)}));
}

proto::Error refusal(proto::ErrorCode code, std::string message) {
    proto::Error error;
    error.code = code;
    error.message = std::move(message);
    if (code == proto::ErrorCode::TryLater) error.retry_after_ms = 1000;
    return error;
}

// Redis's TIME answer in milliseconds: one clock for every node's seeks.
std::optional<std::int64_t> redis_ms(const cluster::Reply& reply) {
    if (reply.type != cluster::Reply::Type::Array || reply.elements.size() != 2) return std::nullopt;
    try {
        return std::stoll(reply.elements[0].text) * 1000 + std::stoll(reply.elements[1].text) / 1000;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

void ClusterNode::seek(const std::shared_ptr<Peer>& peer, std::uint64_t request_id, const proto::NodeSeek& seek) {
    const std::uint64_t session = peer->id();
    seeks_[session] = LocalSeek{peer, "", std::nullopt, false, false, std::nullopt, false, proto::encode(seek)};
    const proto::Seeking seeking{seek.time_control, seek.rated};
    seek_book_->add(session, seeks_[session].bytes, [this, alive = std::weak_ptr<bool>(alive_), peer = std::weak_ptr<Peer>(peer),
                                                   session, request_id, seeking](std::expected<std::string, cluster::RedisError> id) {
        if (!alive.lock() || stopped_) return;
        const auto it = seeks_.find(session);
        const auto asker = peer.lock();
        if (!id) {
            if (it != seeks_.end()) seeks_.erase(it);
            if (asker) answer(*asker, request_id, refusal(proto::ErrorCode::TryLater, "the quick-match queue is unreachable: try again"));
            return;
        }
        if (it == seeks_.end()) return seek_book_->cancel(*id, [](auto) {});
        it->second.id = *id;
        ++stats_.seeks;
        if (it->second.paired) {
            seeks_.erase(it);
            seek_book_->paired(*id);
            if (asker) answer(*asker, request_id, seeking);
            return;
        }
        if (it->second.closed) {
            seeks_.erase(it);
            return seek_book_->cancel(*id, [](auto) {});
        }
        if (asker) answer(*asker, request_id, seeking);
        if (const auto cancel = it->second.cancel) {
            if (asker) send_cancel(asker, session, *cancel);
        } else if (is_matcher()) {
            asio::post(executor_, [this, alive] {
                if (alive.lock() && !stopped_) match_round();  // at once rather than at the next tick
            });
        }
    });
}

void ClusterNode::cancel_seek(const std::shared_ptr<Peer>& peer, std::uint64_t request_id) {
    const auto it = seeks_.find(peer->id());
    if (it == seeks_.end()) return answer(*peer, request_id, refusal(proto::ErrorCode::NotAPlayer, "you are not waiting for a match"));
    if (it->second.id.empty()) {
        it->second.cancel = request_id;  // answered once the add is done
        return;
    }
    send_cancel(peer, peer->id(), request_id);
}

// A cancel and a claim of one seek are each one script: exactly one of them finds it.
void ClusterNode::send_cancel(const std::shared_ptr<Peer>& peer, std::uint64_t session, std::uint64_t request_id) {
    const std::string id = seeks_.at(session).id;
    seek_book_->cancel(id, [this, alive = std::weak_ptr<bool>(alive_), weak = std::weak_ptr<Peer>(peer), session, id,
                            request_id](std::expected<cluster::CancelResult, cluster::RedisError> result) {
        if (!alive.lock() || stopped_) return;
        const auto asker = weak.lock();
        const auto it = seeks_.find(session);
        const bool ours = it != seeks_.end() && it->second.id == id;
        if (!result) {
            // The seek is forgotten here; the next reconciliation takes it out of Redis too.
            if (ours) seeks_.erase(it);
            if (asker) answer(*asker, request_id, proto::Left{0});
            return;
        }
        if (*result == cluster::CancelResult::Claimed) {
            // Its NodePaired is coming (or came): the player is seated, not left.
            if (ours) {
                it->second.claimed_at = std::chrono::steady_clock::now();
                it->second.leaving = true;
            }
            if (asker) answer(*asker, request_id, refusal(proto::ErrorCode::NotAPlayer, "you were just paired: your game is starting"));
            return;
        }
        if (ours) seeks_.erase(it);
        if (asker) answer(*asker, request_id, proto::Left{0});
    });
}

void ClusterNode::drop_unpaired_claims() {
    const auto now = std::chrono::steady_clock::now();
    std::vector<std::uint64_t> again;
    std::erase_if(seeks_, [&](const auto& kv) {
        const LocalSeek& s = kv.second;
        if (!s.claimed_at || now - *s.claimed_at <= kClaimedWait || s.paired) return false;
        const auto peer = s.peer.lock();
        if (s.leaving || !peer || !peer->open()) return true;
        again.push_back(kv.first);
        return false;
    });
    for (const std::uint64_t session : again) {
        LocalSeek& s = seeks_.at(session);
        log(LogLevel::Warn, "cluster: seek ", s.id, " was claimed but never paired; adding it again");
        s.claimed_at.reset();
        s.id.clear();
        seek_book_->add(session, s.bytes, [this, alive = std::weak_ptr<bool>(alive_), session](std::expected<std::string, cluster::RedisError> id) {
            if (!alive.lock() || stopped_) return;
            const auto it = seeks_.find(session);
            if (!id) {
                if (it != seeks_.end() && it->second.id.empty()) it->second.claimed_at = std::chrono::steady_clock::now();  // try again later
                return;
            }
            if (it == seeks_.end() || it->second.closed || it->second.paired) return seek_book_->cancel(*id, [](auto) {});
            it->second.id = *id;
            if (const auto cancel = it->second.cancel)  // a Leave{0} that came meanwhile
                if (const auto peer = it->second.peer.lock()) send_cancel(peer, session, *cancel);
        });
    }
    // Held seeks are reconciled while there are any: that is how a claim whose pairing never
    // comes is found when its player does not cancel.
    if (!seeks_.empty()) seek_book_->restore();
}

// The matcher paired our session's seek: the game's messages for it follow from `from`, which is
// now the node its requests about that game go to (as after a forward). A session gone meanwhile
// is told to the matcher's node, where its seat then goes away as any closed session's does.
void ClusterNode::on_paired(const std::string& from, std::uint64_t session, const proto::NodePaired& paired) {
    seek_book_->paired(paired.seek);
    std::shared_ptr<Peer> peer;
    // An empty id: the add's answer is still on its way (NodePaired came on another connection).
    if (const auto it = seeks_.find(session); it != seeks_.end() && (it->second.id == paired.seek || it->second.id.empty())) {
        peer = it->second.peer.lock();
        if (!it->second.id.empty() || !peer || !peer->open()) seeks_.erase(it);
        else it->second.paired = true;
    }
    if (!peer || !peer->open()) return send(from, {session, proto::NodeSessionClosed{}});
    auto& entry = forwarded_[session];
    entry.peer = peer;
    entry.nodes.insert(from);
}

// One round of the matcher: every seek read, in arrival order, paired as one server pairs its own,
// each pair claimed (both seeks still there, the lease still ours) before its game starts.
void ClusterNode::match_round() {
    if (matching_ || !is_matcher()) return;
    matching_ = true;
    std::weak_ptr<bool> alive = alive_;
    redis_->command({"TIME"}, [this, alive](cluster::RedisClient::Result time) {
        if (!alive.lock() || stopped_) return;
        const auto now_ms = time ? redis_ms(*time) : std::nullopt;
        if (!now_ms) {
            matching_ = false;
            return;
        }
        matcher_->read([this, alive, now_ms = *now_ms](std::expected<std::vector<cluster::SeekRecord>, cluster::RedisError> read) {
            if (!alive.lock() || stopped_) return;
            if (!read) {
                matching_ = false;
                return;
            }
            seek_nodes_.clear();
            for (const cluster::SeekRecord& record : *read)
                if (record.node != options_.id) seek_nodes_.insert(record.node);
            if (seek_nodes_.empty()) return pair_seeks(std::move(*read), now_ms, {});
            // Only live nodes' seeks are paired: a dead node's are forgotten once it is found dead.
            std::vector<std::string> keys{"MGET"};
            for (const std::string& node : seek_nodes_) keys.push_back(cluster::node_lease_key(node));
            const std::vector<std::string_view> args(keys.begin(), keys.end());
            redis_->command(args, [this, alive, now_ms, nodes = std::vector<std::string>(seek_nodes_.begin(), seek_nodes_.end()),
                                   seeks = std::move(*read)](cluster::RedisClient::Result leases) mutable {
                if (!alive.lock() || stopped_) return;
                if (!leases || leases->type != cluster::Reply::Type::Array || leases->elements.size() != nodes.size()) {
                    matching_ = false;
                    return;
                }
                std::set<std::string> dead;
                for (std::size_t i = 0; i < nodes.size(); ++i)
                    if (leases->elements[i].type == cluster::Reply::Type::Nil) dead.insert(nodes[i]);
                pair_seeks(std::move(seeks), now_ms, dead);
            });
        });
    });
}

void ClusterNode::pair_seeks(std::vector<cluster::SeekRecord> seeks, std::int64_t now_ms, const std::set<std::string>& dead) {
    struct Candidate {
        cluster::SeekRecord record;
        proto::NodeSeek wire;
        Seek seek;
    };
    std::vector<Candidate> candidates;
    for (cluster::SeekRecord& record : seeks) {
        if (dead.contains(record.node)) continue;
        auto decoded = proto::decode_seek(record.bytes);
        std::optional<TimeControl> control;
        if (decoded)
            if (auto valid = wire::time_control(decoded->time_control)) control = *valid;
        if (!control) {
            ++stats_.malformed;
            log(LogLevel::Warn, "cluster: seek ", record.id, " of node ", record.node, " does not decode: skipped");
            continue;
        }
        Seek seek{decoded->identity.name, 0, *control, decoded->rated, decoded->rating};
        candidates.push_back({std::move(record), std::move(*decoded), std::move(seek)});
    }
    std::vector<WaitingSeek> waiting;
    for (const Candidate& c : candidates) waiting.push_back({&c.seek, Millis(std::max<std::int64_t>(0, now_ms - c.record.added_ms))});
    const auto pairs = pair_waiting_seeks(waiting);
    if (pairs.empty()) {
        matching_ = false;
        return;
    }
    auto left = std::make_shared<std::size_t>(pairs.size());
    auto shared = std::make_shared<std::vector<Candidate>>(std::move(candidates));
    for (const auto& pair : pairs) {
        const std::size_t i = pair.first, j = pair.second;
        matcher_->claim((*shared)[i].record.id, (*shared)[j].record.id,
                        [this, alive = std::weak_ptr<bool>(alive_), shared, left, i, j](std::expected<cluster::ClaimResult, cluster::RedisError> claimed) {
                            if (!alive.lock() || stopped_) return;
                            if (claimed && *claimed == cluster::ClaimResult::Won) {
                                const auto& first = (*shared)[i];
                                const auto& second = (*shared)[j];
                                start_pairing(first.record, first.wire, second.record, second.wire);
                            }
                            if (--*left == 0) matching_ = false;
                        });
    }
}

// A seat for a claimed seek's player: our own session's peer, or a RemotePeer for another node's
// session (whose node hears NodePaired first). A session already gone still gets its seat, closed
// at once (`gone`), so that its opponent is told as after any disconnection.
std::shared_ptr<Peer> ClusterNode::seat_for(const cluster::SeekRecord& record, const proto::NodeSeek& seek,
                                            std::vector<RemoteKey>& gone) {
    if (record.node == options_.id) {
        seek_book_->paired(record.id);
        std::shared_ptr<Peer> peer;
        if (const auto it = seeks_.find(record.session); it != seeks_.end() && it->second.id == record.id) {
            peer = it->second.peer.lock();
            seeks_.erase(it);
        }
        if (peer && peer->open()) return peer;
        gone.push_back({record.node, record.session});
    } else {
        send(record.node, {record.session, proto::NodePaired{record.id}});
    }
    return remote_peer(record.node, record.session, seek.identity);
}

void ClusterNode::start_pairing(const cluster::SeekRecord& first, const proto::NodeSeek& first_seek, const cluster::SeekRecord& second,
                                const proto::NodeSeek& second_seek) {
    std::vector<RemoteKey> gone;
    const auto a = seat_for(first, first_seek, gone);
    const auto b = seat_for(second, second_seek, gone);
    if (!dispatcher_.start_pairing(a, first_seek, b, second_seek))
        log(LogLevel::Warn, "cluster: seeks ", first.id, " and ", second.id, " were claimed but make no game");
    else
        ++stats_.pairings;
    for (const RemoteKey& key : gone) remote_closed(key);
}

}  // namespace xq::server::node
