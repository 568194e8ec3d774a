// A cluster's requests between nodes (router.h): which requests go to a game's owner, what this
// node forwards, and the forwarded requests it serves as the owner.
#include "server/dispatch/dispatcher.h"
#include "server/dispatch/wire.h"

namespace xq::server {

std::optional<std::uint64_t> routed_game(const proto::ClientBody& body) {
    return std::visit(
        [](const auto& m) -> std::optional<std::uint64_t> {
            using T = std::decay_t<decltype(m)>;
            // GetArchived is not routed: the archive is the shared database's, read by any node.
            if constexpr (std::is_same_v<T, proto::JoinGame> || std::is_same_v<T, proto::Leave> ||
                          std::is_same_v<T, proto::WatchGame> || std::is_same_v<T, proto::MakeMove> ||
                          std::is_same_v<T, proto::Resign> || std::is_same_v<T, proto::MakeOffer> ||
                          std::is_same_v<T, proto::AnswerOffer> || std::is_same_v<T, proto::Abort> ||
                          std::is_same_v<T, proto::SendChat> || std::is_same_v<T, proto::Resume> ||
                          std::is_same_v<T, proto::Claim> || std::is_same_v<T, proto::Mute>)
                return m.game_id;
            else
                return std::nullopt;
        },
        body);
}

proto::NodeIdentity Dispatcher::identity(const Client& c) {
    return {c.name, c.account, c.peer->address_group(), c.peer->watch_only(), c.computer_level};
}

bool Dispatcher::forwarded(Client& c, const proto::ClientMessage& message) {
    // A forwarded request is served here or refused here: a game that moved on meanwhile must not
    // send it round the nodes.
    if (!router_ || c.remote) return false;
    const auto game = routed_game(message.body);
    if (!game) return false;
    const auto owner = router_->remote_owner(*game);
    if (!owner) return false;
    router_->forward(*owner, c.peer, identity(c), proto::encode(message));
    return true;
}

Dispatcher::Client& Dispatcher::remote_client(const std::shared_ptr<Peer>& remote, const proto::NodeIdentity& who) {
    auto [it, fresh] = clients_.try_emplace(remote->id());
    Client& c = it->second;
    if (fresh) {
        c.peer = remote;
        c.remote = true;
        groups_[remote->address_group()].members.insert(remote->id());
    }
    // The origin node said Hello for it, and may have logged it in since its last request.
    c.greeted = true;
    c.name = who.name;
    c.hello_name = who.name;
    c.account = who.account;
    c.computer_level = who.computer_level;
    return c;
}

void Dispatcher::on_forwarded(const std::shared_ptr<Peer>& remote, const proto::NodeIdentity& who, std::string_view frame) {
    Client& c = remote_client(remote, who);
    auto message = proto::decode_client(frame);
    if (!message)
        return send(c, wire::error(message.error().request_id, proto::ErrorCode::BadRequest, message.error().message));
    dispatch(c, *message);
}

bool Dispatcher::refused_while_seeking(Client& c, std::uint64_t rid, const proto::ClientBody& body) {
    if (!router_ || c.remote) return false;
    if (!std::holds_alternative<proto::CreateGame>(body) && !std::holds_alternative<proto::JoinGame>(body)) return false;
    if (!router_->seeking(c.peer->id())) return false;
    send(c, wire::error(rid, proto::ErrorCode::AlreadySeated, "you are waiting for a quick match; cancel it first"));
    return true;
}

bool Dispatcher::start_pairing(const std::shared_ptr<Peer>& first, const proto::NodeSeek& first_seek,
                               const std::shared_ptr<Peer>& second, const proto::NodeSeek& second_seek) {
    const auto control = wire::time_control(first_seek.time_control);
    if (!control || first_seek.time_control != second_seek.time_control || first_seek.rated != second_seek.rated) return false;
    // A seeker on this very node is its own client already (its Hello name kept as it is).
    auto client_of = [&](const std::shared_ptr<Peer>& peer, const proto::NodeIdentity& who) -> Client& {
        const auto it = clients_.find(peer->id());
        return it != clients_.end() && !it->second.remote ? it->second : remote_client(peer, who);
    };
    Client& a = client_of(first, first_seek.identity);
    Client& b = client_of(second, second_seek.identity);
    const Match match = lobby_.pair({a.name, first->id(), *control, first_seek.rated, first_seek.rating},
                                    {b.name, second->id(), *control, second_seek.rated, second_seek.rating}, now());
    seat_match(match, 0, 0);
    return true;
}

}  // namespace xq::server
