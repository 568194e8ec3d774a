// ServerMessage <-> xiangqi.v1.ServerMessage, one fill/read pair per reply or event.
#include "convert.h"

namespace xq::proto::detail {

namespace {

// The shared types' converters, which the local overloads below would otherwise hide.
using detail::fill;
using detail::read;

void fill(pb::Welcome& out, const Welcome& in) {
    out.set_server(in.server);
    out.set_protocol_version(in.protocol_version);
    out.set_session_id(in.session_id);
    out.set_accounts(static_cast<pb::AccountsMode>(in.accounts));
    out.set_display_name(in.display_name);
}
// A mode from a newer server reads as Optional: the client may offer login and guest play.
Welcome read(const pb::Welcome& in, Reader&) {
    const int mode = in.accounts();
    return Welcome{in.server(), in.protocol_version(), in.session_id(),
                   mode >= 0 && mode <= 2 ? static_cast<AccountsMode>(mode) : AccountsMode::Optional,
                   in.display_name()};
}

void fill(pb::Error& out, const Error& in) {
    out.set_code(static_cast<pb::Error::Code>(in.code));
    out.set_message(in.message);
    out.set_game_id(in.game_id);
    out.set_reason(in.reason);
    out.set_explanation(in.explanation);
    out.set_retry_after_ms(in.retry_after_ms);
}
// A code from a newer server reads as Unspecified: the message still says what went wrong.
Error read(const pb::Error& in, Reader&) {
    const int code = in.code();
    return Error{code >= 0 && code < kErrorCodeCount ? static_cast<ErrorCode>(code) : ErrorCode::Unspecified,
                 in.message(), in.game_id(), in.reason(), in.explanation(), in.retry_after_ms()};
}

void fill(pb::GameList& out, const GameList& in) {
    for (const auto& g : in.open) fill(*out.add_open(), g);
    for (const auto& g : in.live) fill(*out.add_live(), g);
}
GameList read(const pb::GameList& in, Reader& r) {
    GameList out;
    for (const auto& g : in.open()) out.open.push_back(read(g, r));
    for (const auto& g : in.live()) out.live.push_back(read(g, r));
    return out;
}

void fill(pb::Seated& out, const Seated& in) {
    out.set_game_id(in.game_id);
    out.set_side(wire_side(in.side));
    out.set_join_code(in.join_code);
    out.set_resume_token(in.resume_token);
}
Seated read(const pb::Seated& in, Reader& r) {
    return Seated{in.game_id(), r.side(in.side(), "seated.side"), in.join_code(), in.resume_token()};
}

void fill(pb::Seeking& out, const Seeking& in) {
    fill(*out.mutable_time_control(), in.time_control);
    out.set_rated(in.rated);
}
Seeking read(const pb::Seeking& in, Reader& r) { return Seeking{read(in.time_control(), r), in.rated()}; }

void fill(pb::Left& out, const Left& in) { out.set_game_id(in.game_id); }
Left read(const pb::Left& in, Reader&) { return Left{in.game_id()}; }

void fill(pb::GameStarted& out, const GameStarted& in) {
    out.set_game_id(in.game_id);
    out.set_version(in.version);
    out.set_red(in.red);
    out.set_black(in.black);
    fill(*out.mutable_time_control(), in.time_control);
    out.set_start_fen(in.start_fen);
    fill(*out.mutable_clock(), in.clock);
    out.set_rated(in.rated);
    if (in.red_rating) fill(*out.mutable_red_rating(), *in.red_rating);
    if (in.black_rating) fill(*out.mutable_black_rating(), *in.black_rating);
    out.set_spectator_delay(in.spectator_delay);
}
GameStarted read(const pb::GameStarted& in, Reader& r) {
    GameStarted out{in.game_id(),   in.version(),       in.red(), in.black(), read(in.time_control(), r),
                    in.start_fen(), read(in.clock(), r)};
    out.rated = in.rated();
    if (in.has_red_rating()) out.red_rating = read(in.red_rating(), r);
    if (in.has_black_rating()) out.black_rating = read(in.black_rating(), r);
    out.spectator_delay = in.spectator_delay();
    return out;
}

void fill(pb::MoveMade& out, const MoveMade& in) {
    out.set_game_id(in.game_id);
    out.set_version(in.version);
    out.set_ply(in.ply);
    out.set_move(in.move);
    fill(*out.mutable_clock(), in.clock);
    out.set_move_id(in.move_id);
    out.set_lag_credit_ms(in.lag_credit_ms);
}
MoveMade read(const pb::MoveMade& in, Reader& r) {
    return MoveMade{in.game_id(),         in.version(), in.ply(), in.move(), read(in.clock(), r), in.move_id(),
                    in.lag_credit_ms()};
}

void fill(pb::OfferMade& out, const OfferMade& in) {
    out.set_game_id(in.game_id);
    out.set_version(in.version);
    fill(*out.mutable_offer(), in.offer);
}
OfferMade read(const pb::OfferMade& in, Reader& r) {
    return OfferMade{in.game_id(), in.version(), read(in.offer(), r)};
}

void fill(pb::OfferAnswered& out, const OfferAnswered& in) {
    out.set_game_id(in.game_id);
    out.set_version(in.version);
    out.set_kind(wire<pb::OfferKind>(in.kind));
    out.set_side(wire<pb::Side>(in.side));
    out.set_accepted(in.accepted);
}
OfferAnswered read(const pb::OfferAnswered& in, Reader& r) {
    return OfferAnswered{in.game_id(), in.version(), r.get<OfferKind>(in.kind(), "offer_answered.kind"),
                         r.get<Side>(in.side(), "offer_answered.side"), in.accepted()};
}

void fill(pb::TakebackApplied& out, const TakebackApplied& in) {
    out.set_game_id(in.game_id);
    out.set_version(in.version);
    out.set_plies_removed(in.plies_removed);
    out.set_ply(in.ply);
    fill(*out.mutable_clock(), in.clock);
}
TakebackApplied read(const pb::TakebackApplied& in, Reader& r) {
    return TakebackApplied{in.game_id(), in.version(), in.plies_removed(), in.ply(), read(in.clock(), r)};
}

void fill(pb::ChatLine& out, const ChatLine& in) {
    out.set_game_id(in.game_id);
    out.set_version(in.version);
    out.set_channel(wire<pb::ChatChannel>(in.channel));
    out.set_from(in.from);
    out.set_side(wire_side(in.side));
    out.set_text(in.text);
}
ChatLine read(const pb::ChatLine& in, Reader& r) {
    return ChatLine{in.game_id(),
                    in.version(),
                    r.get<ChatChannel>(in.channel(), "chat_line.channel"),
                    in.from(),
                    r.side(in.side(), "chat_line.side"),
                    in.text()};
}

void fill(pb::GameEnded& out, const GameEnded& in) {
    out.set_game_id(in.game_id);
    out.set_version(in.version);
    fill(*out.mutable_outcome(), in.outcome);
    fill(*out.mutable_clock(), in.clock);
    if (in.red_change) fill(*out.mutable_red_change(), *in.red_change);
    if (in.black_change) fill(*out.mutable_black_change(), *in.black_change);
}
GameEnded read(const pb::GameEnded& in, Reader& r) {
    GameEnded out{in.game_id(), in.version(), read(in.outcome(), r), read(in.clock(), r)};
    if (in.has_red_change()) out.red_change = read(in.red_change(), r);
    if (in.has_black_change()) out.black_change = read(in.black_change(), r);
    return out;
}

void fill(pb::RematchStarted& out, const RematchStarted& in) {
    out.set_game_id(in.game_id);
    out.set_version(in.version);
    out.set_new_game_id(in.new_game_id);
}
RematchStarted read(const pb::RematchStarted& in, Reader&) {
    return RematchStarted{in.game_id(), in.version(), in.new_game_id()};
}

void fill(pb::GameAborted& out, const GameAborted& in) {
    out.set_game_id(in.game_id);
    out.set_version(in.version);
    out.set_side(wire_side(in.side));
    out.set_explanation(in.explanation);
}
GameAborted read(const pb::GameAborted& in, Reader& r) {
    return GameAborted{in.game_id(), in.version(), r.side(in.side(), "game_aborted.side"), in.explanation()};
}

void fill(pb::SpectatorCount& out, const SpectatorCount& in) {
    out.set_game_id(in.game_id);
    out.set_count(in.count);
}
SpectatorCount read(const pb::SpectatorCount& in, Reader&) {
    return SpectatorCount{in.game_id(), in.count()};
}

void fill(pb::PlayerConnection& out, const PlayerConnection& in) {
    out.set_game_id(in.game_id);
    out.set_side(wire<pb::Side>(in.side));
    fill(*out.mutable_player(), in.player);
}
PlayerConnection read(const pb::PlayerConnection& in, Reader& r) {
    return PlayerConnection{in.game_id(), r.get<Side>(in.side(), "player_connection.side"),
                            read(in.player(), r)};
}

// The oneof slot of a versioned event when replayed inside Resumed.
pb::GameStarted* slot(pb::RoomEvent& m, const GameStarted&) { return m.mutable_game_started(); }
pb::MoveMade* slot(pb::RoomEvent& m, const MoveMade&) { return m.mutable_move_made(); }
pb::OfferMade* slot(pb::RoomEvent& m, const OfferMade&) { return m.mutable_offer_made(); }
pb::OfferAnswered* slot(pb::RoomEvent& m, const OfferAnswered&) { return m.mutable_offer_answered(); }
pb::TakebackApplied* slot(pb::RoomEvent& m, const TakebackApplied&) { return m.mutable_takeback_applied(); }
pb::ChatLine* slot(pb::RoomEvent& m, const ChatLine&) { return m.mutable_chat_line(); }
pb::GameEnded* slot(pb::RoomEvent& m, const GameEnded&) { return m.mutable_game_ended(); }
pb::GameAborted* slot(pb::RoomEvent& m, const GameAborted&) { return m.mutable_game_aborted(); }
pb::RematchStarted* slot(pb::RoomEvent& m, const RematchStarted&) { return m.mutable_rematch_started(); }

void fill(pb::RoomEvent& out, const RoomEvent& in) {
    std::visit([&](const auto& event) { fill(*slot(out, event), event); }, in);
}
// An empty or unknown event kind is refused: replaying a log with a hole would corrupt the game.
RoomEvent read(const pb::RoomEvent& in, Reader& r) {
    using K = pb::RoomEvent::EventCase;
    switch (in.event_case()) {
        case K::kGameStarted:
            return read(in.game_started(), r);
        case K::kMoveMade:
            return read(in.move_made(), r);
        case K::kOfferMade:
            return read(in.offer_made(), r);
        case K::kOfferAnswered:
            return read(in.offer_answered(), r);
        case K::kTakebackApplied:
            return read(in.takeback_applied(), r);
        case K::kChatLine:
            return read(in.chat_line(), r);
        case K::kGameEnded:
            return read(in.game_ended(), r);
        case K::kGameAborted:
            return read(in.game_aborted(), r);
        case K::kRematchStarted:
            return read(in.rematch_started(), r);
        case K::EVENT_NOT_SET:
            break;
    }
    r.fail("resumed.events.event", 0);
    return RoomEvent{};
}

void fill(pb::Snapshot& out, const Snapshot& in) {
    out.set_game_id(in.game_id);
    out.set_version(in.version);
    out.set_status(wire<pb::GameStatus>(in.status));
    fill(*out.mutable_time_control(), in.time_control);
    out.set_is_private(in.is_private);
    out.set_start_fen(in.start_fen);
    out.mutable_moves()->Add(in.moves.begin(), in.moves.end());
    fill(*out.mutable_clock(), in.clock);
    fill(*out.mutable_red(), in.red);
    fill(*out.mutable_black(), in.black);
    if (in.outcome) fill(*out.mutable_outcome(), *in.outcome);
    for (const auto& offer : in.pending_offers) fill(*out.add_pending_offers(), offer);
    out.set_spectators(in.spectators);
    out.set_your_side(wire_side(in.your_side));
    for (const auto& line : in.chat) fill(*out.add_chat(), line);
    out.set_rated(in.rated);
    out.set_spectator_delay(in.spectator_delay);
    out.set_rematch_game_id(in.rematch_game_id);
}
Snapshot read(const pb::Snapshot& in, Reader& r) {
    Snapshot out;
    out.game_id = in.game_id();
    out.version = in.version();
    out.status = r.get<GameStatus>(in.status(), "snapshot.status");
    out.time_control = read(in.time_control(), r);
    out.is_private = in.is_private();
    out.start_fen = in.start_fen();
    out.moves.assign(in.moves().begin(), in.moves().end());
    out.clock = read(in.clock(), r);
    out.red = read(in.red(), r);
    out.black = read(in.black(), r);
    if (in.has_outcome()) out.outcome = read(in.outcome(), r);
    for (const auto& offer : in.pending_offers()) out.pending_offers.push_back(read(offer, r));
    out.spectators = in.spectators();
    out.your_side = r.side(in.your_side(), "snapshot.your_side");
    for (const auto& line : in.chat()) out.chat.push_back(read(line, r));
    out.rated = in.rated();
    out.spectator_delay = in.spectator_delay();
    out.rematch_game_id = in.rematch_game_id();
    return out;
}

void fill(pb::Resumed& out, const Resumed& in) {
    out.set_game_id(in.game_id);
    out.set_your_side(wire_side(in.your_side));
    for (const auto& event : in.events) fill(*out.add_events(), event);
    fill(*out.mutable_clock(), in.clock);
    fill(*out.mutable_red(), in.red);
    fill(*out.mutable_black(), in.black);
    out.set_spectators(in.spectators);
}
Resumed read(const pb::Resumed& in, Reader& r) {
    Resumed out{in.game_id(),
                r.side(in.your_side(), "resumed.your_side"),
                {},
                read(in.clock(), r),
                read(in.red(), r),
                read(in.black(), r),
                in.spectators()};
    for (const auto& event : in.events()) out.events.push_back(read(event, r));
    return out;
}

void fill(pb::ArchiveList& out, const ArchiveList& in) {
    for (const auto& entry : in.games) fill(*out.add_games(), entry);
    out.set_total(in.total);
    out.set_next(in.next);
    out.set_total_capped(in.total_capped);
}
ArchiveList read(const pb::ArchiveList& in, Reader& r) {
    ArchiveList out{{}, in.total(), in.next(), in.total_capped()};
    for (const auto& entry : in.games()) out.games.push_back(read(entry, r));
    return out;
}

void fill(pb::ArchivedGame& out, const ArchivedGame& in) {
    fill(*out.mutable_entry(), in.entry);
    out.set_start_fen(in.start_fen);
    out.mutable_moves()->Add(in.moves.begin(), in.moves.end());
    out.set_pgn(in.pgn);
}
ArchivedGame read(const pb::ArchivedGame& in, Reader& r) {
    return ArchivedGame{
        read(in.entry(), r), in.start_fen(), {in.moves().begin(), in.moves().end()}, in.pgn()};
}

void fill(pb::LoggedIn& out, const LoggedIn& in) {
    out.set_name(in.name);
    out.set_guest(in.guest);
    out.set_session_token(in.session_token);
    out.set_expires_at_ms(in.expires_at_ms);
    for (const auto& s : in.seats) fill(*out.add_seats(), s);
}
LoggedIn read(const pb::LoggedIn& in, Reader& r) {
    LoggedIn out{in.name(), in.guest(), in.session_token(), in.expires_at_ms(), {}};
    for (const auto& s : in.seats()) out.seats.push_back(read(s, r));
    return out;
}

void fill(pb::ResumeToken& out, const ResumeToken& in) {
    out.set_game_id(in.game_id);
    out.set_resume_token(in.resume_token);
}
ResumeToken read(const pb::ResumeToken& in, Reader&) { return ResumeToken{in.game_id(), in.resume_token()}; }

void fill(pb::RatingPoint& out, const RatingPoint& in) {
    out.set_at_ms(in.at_ms);
    out.set_rating(in.rating);
    out.set_deviation(in.deviation);
    out.set_game_id(in.game_id);
}
RatingPoint read(const pb::RatingPoint& in, Reader&) {
    return RatingPoint{in.at_ms(), in.rating(), in.deviation(), in.game_id()};
}

void fill(pb::SpeedRecord& out, const SpeedRecord& in) {
    out.set_speed(wire<pb::Speed>(in.speed));
    fill(*out.mutable_rating(), in.rating);
    out.set_games(in.games);
    for (const auto& point : in.history) fill(*out.add_history(), point);
}
SpeedRecord read(const pb::SpeedRecord& in, Reader& r) {
    SpeedRecord out{r.get<Speed>(in.speed(), "speed_record.speed"), read(in.rating(), r), in.games(), {}};
    for (const auto& point : in.history()) out.history.push_back(read(point, r));
    return out;
}

void fill(pb::Profile& out, const Profile& in) {
    out.set_name(in.name);
    out.set_computer(in.computer);
    out.set_created_at_ms(in.created_at_ms);
    for (const auto& record : in.speeds) fill(*out.add_speeds(), record);
    out.set_wins(in.wins);
    out.set_draws(in.draws);
    out.set_losses(in.losses);
}
Profile read(const pb::Profile& in, Reader& r) {
    Profile out{in.name(), in.computer(), in.created_at_ms(), {}, in.wins(), in.draws(), in.losses()};
    for (const auto& record : in.speeds()) out.speeds.push_back(read(record, r));
    return out;
}

void fill(pb::LeaderboardRow& out, const LeaderboardRow& in) {
    out.set_rank(in.rank);
    out.set_name(in.name);
    fill(*out.mutable_rating(), in.rating);
    out.set_games(in.games);
    out.set_computer(in.computer);
}
LeaderboardRow read(const pb::LeaderboardRow& in, Reader& r) {
    return LeaderboardRow{in.rank(), in.name(), read(in.rating(), r), in.games(), in.computer()};
}

void fill(pb::Leaderboard& out, const Leaderboard& in) {
    out.set_speed(wire<pb::Speed>(in.speed));
    for (const auto& row : in.rows) fill(*out.add_rows(), row);
    out.set_min_games(in.min_games);
}
Leaderboard read(const pb::Leaderboard& in, Reader& r) {
    Leaderboard out{r.get<Speed>(in.speed(), "leaderboard.speed"), {}, in.min_games()};
    for (const auto& row : in.rows()) out.rows.push_back(read(row, r));
    return out;
}

// The oneof slot each server message goes into.
pb::Welcome* slot(pb::ServerMessage& m, const Welcome&) { return m.mutable_welcome(); }
pb::Pong* slot(pb::ServerMessage& m, const Pong&) { return m.mutable_pong(); }
pb::Error* slot(pb::ServerMessage& m, const Error&) { return m.mutable_error(); }
pb::GameList* slot(pb::ServerMessage& m, const GameList&) { return m.mutable_game_list(); }
pb::Seated* slot(pb::ServerMessage& m, const Seated&) { return m.mutable_seated(); }
pb::Seeking* slot(pb::ServerMessage& m, const Seeking&) { return m.mutable_seeking(); }
pb::Left* slot(pb::ServerMessage& m, const Left&) { return m.mutable_left(); }
pb::Snapshot* slot(pb::ServerMessage& m, const Snapshot&) { return m.mutable_snapshot(); }
pb::Resumed* slot(pb::ServerMessage& m, const Resumed&) { return m.mutable_resumed(); }
pb::GameStarted* slot(pb::ServerMessage& m, const GameStarted&) { return m.mutable_game_started(); }
pb::MoveMade* slot(pb::ServerMessage& m, const MoveMade&) { return m.mutable_move_made(); }
pb::OfferMade* slot(pb::ServerMessage& m, const OfferMade&) { return m.mutable_offer_made(); }
pb::OfferAnswered* slot(pb::ServerMessage& m, const OfferAnswered&) { return m.mutable_offer_answered(); }
pb::TakebackApplied* slot(pb::ServerMessage& m, const TakebackApplied&) {
    return m.mutable_takeback_applied();
}
pb::ChatLine* slot(pb::ServerMessage& m, const ChatLine&) { return m.mutable_chat_line(); }
pb::GameEnded* slot(pb::ServerMessage& m, const GameEnded&) { return m.mutable_game_ended(); }
pb::GameAborted* slot(pb::ServerMessage& m, const GameAborted&) { return m.mutable_game_aborted(); }
pb::SpectatorCount* slot(pb::ServerMessage& m, const SpectatorCount&) { return m.mutable_spectator_count(); }
pb::PlayerConnection* slot(pb::ServerMessage& m, const PlayerConnection&) {
    return m.mutable_player_connection();
}
pb::ArchiveList* slot(pb::ServerMessage& m, const ArchiveList&) { return m.mutable_archive_list(); }
pb::ArchivedGame* slot(pb::ServerMessage& m, const ArchivedGame&) { return m.mutable_archived_game(); }
pb::LoggedIn* slot(pb::ServerMessage& m, const LoggedIn&) { return m.mutable_logged_in(); }
pb::ResumeToken* slot(pb::ServerMessage& m, const ResumeToken&) { return m.mutable_resume_token(); }
pb::Ping* slot(pb::ServerMessage& m, const Ping&) { return m.mutable_ping(); }
pb::Profile* slot(pb::ServerMessage& m, const Profile&) { return m.mutable_profile(); }
pb::Leaderboard* slot(pb::ServerMessage& m, const Leaderboard&) { return m.mutable_leaderboard(); }
pb::RematchStarted* slot(pb::ServerMessage& m, const RematchStarted&) { return m.mutable_rematch_started(); }

}  // namespace

void fill(pb::ServerMessage& out, const ServerMessage& in) {
    out.set_request_id(in.request_id);
    std::visit([&](const auto& body) { fill(*slot(out, body), body); }, in.body);
}

ServerBody read(const pb::ServerMessage& in, Reader& r) {
    using K = pb::ServerMessage::BodyCase;
    switch (in.body_case()) {
        case K::kWelcome:
            return read(in.welcome(), r);
        case K::kPong:
            return read(in.pong(), r);
        case K::kError:
            return read(in.error(), r);
        case K::kGameList:
            return read(in.game_list(), r);
        case K::kSeated:
            return read(in.seated(), r);
        case K::kSeeking:
            return read(in.seeking(), r);
        case K::kLeft:
            return read(in.left(), r);
        case K::kSnapshot:
            return read(in.snapshot(), r);
        case K::kResumed:
            return read(in.resumed(), r);
        case K::kGameStarted:
            return read(in.game_started(), r);
        case K::kMoveMade:
            return read(in.move_made(), r);
        case K::kOfferMade:
            return read(in.offer_made(), r);
        case K::kOfferAnswered:
            return read(in.offer_answered(), r);
        case K::kTakebackApplied:
            return read(in.takeback_applied(), r);
        case K::kChatLine:
            return read(in.chat_line(), r);
        case K::kGameEnded:
            return read(in.game_ended(), r);
        case K::kGameAborted:
            return read(in.game_aborted(), r);
        case K::kSpectatorCount:
            return read(in.spectator_count(), r);
        case K::kPlayerConnection:
            return read(in.player_connection(), r);
        case K::kArchiveList:
            return read(in.archive_list(), r);
        case K::kArchivedGame:
            return read(in.archived_game(), r);
        case K::kLoggedIn:
            return read(in.logged_in(), r);
        case K::kResumeToken:
            return read(in.resume_token(), r);
        case K::kPing:
            return read(in.ping(), r);
        case K::kProfile:
            return read(in.profile(), r);
        case K::kLeaderboard:
            return read(in.leaderboard(), r);
        case K::kRematchStarted:
            return read(in.rematch_started(), r);
        case K::BODY_NOT_SET:
            break;
    }
    return ServerBody{};  // unreachable: the caller checks for a body first
}

}  // namespace xq::proto::detail
