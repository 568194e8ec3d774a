// ClientMessage <-> xiangqi.v1.ClientMessage, one fill/read pair per request.
#include "convert.h"

namespace xq::proto::detail {

namespace {

// The shared types' converters, which the local overloads below would otherwise hide.
using detail::fill;
using detail::read;

void fill(pb::Hello& out, const Hello& in) {
    out.set_client(in.client);
    out.set_player_name(in.player_name);
    out.set_protocol_version(in.protocol_version);
    out.set_computer_level(in.computer_level);
    out.set_computer_key(in.computer_key);
}
Hello read(const pb::Hello& in, Reader&) {
    return Hello{in.client(), in.player_name(), in.protocol_version(), in.computer_level(), in.computer_key()};
}

void fill(pb::ListGames&, const ListGames&) {}
ListGames read(const pb::ListGames&, Reader&) { return ListGames{}; }

void fill(pb::CreateGame& out, const CreateGame& in) {
    fill(*out.mutable_time_control(), in.time_control);
    out.set_color(wire<pb::ColorChoice>(in.color));
    out.set_is_private(in.is_private);
    out.set_computer_level(in.computer_level);
    out.set_rated(in.rated);
    out.set_spectator_delay(in.spectator_delay);
}
CreateGame read(const pb::CreateGame& in, Reader& r) {
    return CreateGame{read(in.time_control(), r), r.get<ColorChoice>(in.color(), "create_game.color"),
                      in.is_private(),           in.computer_level(),
                      in.rated(),                in.spectator_delay()};
}

void fill(pb::JoinGame& out, const JoinGame& in) {
    out.set_game_id(in.game_id);
    out.set_join_code(in.join_code);
}
JoinGame read(const pb::JoinGame& in, Reader&) { return JoinGame{in.game_id(), in.join_code()}; }

void fill(pb::QuickMatch& out, const QuickMatch& in) {
    fill(*out.mutable_time_control(), in.time_control);
    out.set_rated(in.rated);
}
QuickMatch read(const pb::QuickMatch& in, Reader& r) { return QuickMatch{read(in.time_control(), r), in.rated()}; }

void fill(pb::Leave& out, const Leave& in) { out.set_game_id(in.game_id); }
Leave read(const pb::Leave& in, Reader&) { return Leave{in.game_id()}; }

void fill(pb::WatchGame& out, const WatchGame& in) {
    out.set_game_id(in.game_id);
    out.set_join_code(in.join_code);
}
WatchGame read(const pb::WatchGame& in, Reader&) { return WatchGame{in.game_id(), in.join_code()}; }

void fill(pb::MakeMove& out, const MakeMove& in) {
    out.set_game_id(in.game_id);
    out.set_move(in.move);
    out.set_move_id(in.move_id);
    out.set_ply(in.ply);
}
MakeMove read(const pb::MakeMove& in, Reader&) {
    return MakeMove{in.game_id(), in.move(), in.move_id(), in.ply()};
}

void fill(pb::Resign& out, const Resign& in) { out.set_game_id(in.game_id); }
Resign read(const pb::Resign& in, Reader&) { return Resign{in.game_id()}; }

void fill(pb::MakeOffer& out, const MakeOffer& in) {
    out.set_game_id(in.game_id);
    out.set_kind(wire<pb::OfferKind>(in.kind));
}
MakeOffer read(const pb::MakeOffer& in, Reader& r) {
    return MakeOffer{in.game_id(), r.get<OfferKind>(in.kind(), "make_offer.kind")};
}

void fill(pb::AnswerOffer& out, const AnswerOffer& in) {
    out.set_game_id(in.game_id);
    out.set_kind(wire<pb::OfferKind>(in.kind));
    out.set_accept(in.accept);
}
AnswerOffer read(const pb::AnswerOffer& in, Reader& r) {
    return AnswerOffer{in.game_id(), r.get<OfferKind>(in.kind(), "answer_offer.kind"), in.accept()};
}

void fill(pb::Abort& out, const Abort& in) { out.set_game_id(in.game_id); }
Abort read(const pb::Abort& in, Reader&) { return Abort{in.game_id()}; }

void fill(pb::SendChat& out, const SendChat& in) {
    out.set_game_id(in.game_id);
    out.set_channel(wire<pb::ChatChannel>(in.channel));
    out.set_text(in.text);
}
SendChat read(const pb::SendChat& in, Reader& r) {
    return SendChat{in.game_id(), r.get<ChatChannel>(in.channel(), "send_chat.channel"), in.text()};
}

void fill(pb::Resume& out, const Resume& in) {
    out.set_game_id(in.game_id);
    out.set_token(in.token);
    out.set_last_version(in.last_version);
}
Resume read(const pb::Resume& in, Reader&) { return Resume{in.game_id(), in.token(), in.last_version()}; }

void fill(pb::Claim& out, const Claim& in) {
    out.set_game_id(in.game_id);
    out.set_kind(wire<pb::ClaimKind>(in.kind));
}
Claim read(const pb::Claim& in, Reader& r) {
    return Claim{in.game_id(), r.get<ClaimKind>(in.kind(), "claim.kind")};
}

void fill(pb::ListArchive& out, const ListArchive& in) {
    out.set_offset(in.offset);
    out.set_limit(in.limit);
    out.set_player(in.player);
    out.set_after(in.after);
}
ListArchive read(const pb::ListArchive& in, Reader&) {
    return ListArchive{in.offset(), in.limit(), in.player(), in.after()};
}

void fill(pb::GetArchived& out, const GetArchived& in) { out.set_game_id(in.game_id); }
GetArchived read(const pb::GetArchived& in, Reader&) { return GetArchived{in.game_id()}; }

void fill(pb::Mute& out, const Mute& in) {
    out.set_game_id(in.game_id);
    out.set_channel(wire<pb::ChatChannel>(in.channel));
    out.set_muted(in.muted);
}
Mute read(const pb::Mute& in, Reader& r) {
    return Mute{in.game_id(), r.get<ChatChannel>(in.channel(), "mute.channel"), in.muted()};
}

void fill(pb::Register& out, const Register& in) {
    out.set_name(in.name);
    out.set_password(in.password);
}
Register read(const pb::Register& in, Reader&) { return Register{in.name(), in.password()}; }

void fill(pb::Login& out, const Login& in) {
    out.set_name(in.name);
    out.set_password(in.password);
    out.set_session_token(in.session_token);
}
Login read(const pb::Login& in, Reader&) { return Login{in.name(), in.password(), in.session_token()}; }

void fill(pb::Logout&, const Logout&) {}
Logout read(const pb::Logout&, Reader&) { return Logout{}; }

void fill(pb::ChangePassword& out, const ChangePassword& in) {
    out.set_old_password(in.old_password);
    out.set_new_password(in.new_password);
}
ChangePassword read(const pb::ChangePassword& in, Reader&) {
    return ChangePassword{in.old_password(), in.new_password()};
}

void fill(pb::GetProfile& out, const GetProfile& in) { out.set_name(in.name); }
GetProfile read(const pb::GetProfile& in, Reader&) { return GetProfile{in.name()}; }

void fill(pb::GetLeaderboard& out, const GetLeaderboard& in) { out.set_speed(wire<pb::Speed>(in.speed)); }
GetLeaderboard read(const pb::GetLeaderboard& in, Reader& r) {
    return GetLeaderboard{r.get<Speed>(in.speed(), "get_leaderboard.speed")};
}

// The oneof slot each request goes into.
pb::Hello* slot(pb::ClientMessage& m, const Hello&) { return m.mutable_hello(); }
pb::Ping* slot(pb::ClientMessage& m, const Ping&) { return m.mutable_ping(); }
pb::ListGames* slot(pb::ClientMessage& m, const ListGames&) { return m.mutable_list_games(); }
pb::CreateGame* slot(pb::ClientMessage& m, const CreateGame&) { return m.mutable_create_game(); }
pb::JoinGame* slot(pb::ClientMessage& m, const JoinGame&) { return m.mutable_join_game(); }
pb::QuickMatch* slot(pb::ClientMessage& m, const QuickMatch&) { return m.mutable_quick_match(); }
pb::Leave* slot(pb::ClientMessage& m, const Leave&) { return m.mutable_leave(); }
pb::WatchGame* slot(pb::ClientMessage& m, const WatchGame&) { return m.mutable_watch_game(); }
pb::MakeMove* slot(pb::ClientMessage& m, const MakeMove&) { return m.mutable_make_move(); }
pb::Resign* slot(pb::ClientMessage& m, const Resign&) { return m.mutable_resign(); }
pb::MakeOffer* slot(pb::ClientMessage& m, const MakeOffer&) { return m.mutable_make_offer(); }
pb::AnswerOffer* slot(pb::ClientMessage& m, const AnswerOffer&) { return m.mutable_answer_offer(); }
pb::Abort* slot(pb::ClientMessage& m, const Abort&) { return m.mutable_abort(); }
pb::SendChat* slot(pb::ClientMessage& m, const SendChat&) { return m.mutable_send_chat(); }
pb::Resume* slot(pb::ClientMessage& m, const Resume&) { return m.mutable_resume(); }
pb::Claim* slot(pb::ClientMessage& m, const Claim&) { return m.mutable_claim(); }
pb::ListArchive* slot(pb::ClientMessage& m, const ListArchive&) { return m.mutable_list_archive(); }
pb::GetArchived* slot(pb::ClientMessage& m, const GetArchived&) { return m.mutable_get_archived(); }
pb::Mute* slot(pb::ClientMessage& m, const Mute&) { return m.mutable_mute(); }
pb::Register* slot(pb::ClientMessage& m, const Register&) { return m.mutable_register_account(); }
pb::Login* slot(pb::ClientMessage& m, const Login&) { return m.mutable_login(); }
pb::Logout* slot(pb::ClientMessage& m, const Logout&) { return m.mutable_logout(); }
pb::ChangePassword* slot(pb::ClientMessage& m, const ChangePassword&) { return m.mutable_change_password(); }
pb::GetProfile* slot(pb::ClientMessage& m, const GetProfile&) { return m.mutable_get_profile(); }
pb::GetLeaderboard* slot(pb::ClientMessage& m, const GetLeaderboard&) { return m.mutable_get_leaderboard(); }
pb::Pong* slot(pb::ClientMessage& m, const Pong&) { return m.mutable_pong(); }

}  // namespace

void fill(pb::ClientMessage& out, const ClientMessage& in) {
    out.set_request_id(in.request_id);
    std::visit([&](const auto& body) { fill(*slot(out, body), body); }, in.body);
}

ClientBody read(const pb::ClientMessage& in, Reader& r) {
    using K = pb::ClientMessage::BodyCase;
    switch (in.body_case()) {
        case K::kHello:
            return read(in.hello(), r);
        case K::kPing:
            return read(in.ping(), r);
        case K::kListGames:
            return read(in.list_games(), r);
        case K::kCreateGame:
            return read(in.create_game(), r);
        case K::kJoinGame:
            return read(in.join_game(), r);
        case K::kQuickMatch:
            return read(in.quick_match(), r);
        case K::kLeave:
            return read(in.leave(), r);
        case K::kWatchGame:
            return read(in.watch_game(), r);
        case K::kMakeMove:
            return read(in.make_move(), r);
        case K::kResign:
            return read(in.resign(), r);
        case K::kMakeOffer:
            return read(in.make_offer(), r);
        case K::kAnswerOffer:
            return read(in.answer_offer(), r);
        case K::kAbort:
            return read(in.abort(), r);
        case K::kSendChat:
            return read(in.send_chat(), r);
        case K::kResume:
            return read(in.resume(), r);
        case K::kClaim:
            return read(in.claim(), r);
        case K::kListArchive:
            return read(in.list_archive(), r);
        case K::kGetArchived:
            return read(in.get_archived(), r);
        case K::kMute:
            return read(in.mute(), r);
        case K::kRegisterAccount:
            return read(in.register_account(), r);
        case K::kLogin:
            return read(in.login(), r);
        case K::kLogout:
            return read(in.logout(), r);
        case K::kChangePassword:
            return read(in.change_password(), r);
        case K::kGetProfile:
            return read(in.get_profile(), r);
        case K::kGetLeaderboard:
            return read(in.get_leaderboard(), r);
        case K::kPong:
            return read(in.pong(), r);
        case K::BODY_NOT_SET:
            break;
    }
    return ClientBody{};  // unreachable: the caller checks for a body first
}

}  // namespace xq::proto::detail
