// What the server says, applied to the models.

#include "client/online/convert.h"
#include "client/online/online_client.h"

namespace xq::client {

namespace {

std::string side_name(proto::Side side) { return side == proto::Side::Red ? "Red" : "Black"; }

LobbyGame to_row(const proto::GameSummary& g) {
    const char* color = g.host_color == proto::ColorChoice::Red     ? "red"
                        : g.host_color == proto::ColorChoice::Black ? "black"
                                                                    : "random";
    return {g.game_id, g.host, g.red, g.black, color, to_choice(g.time_control), g.plies, g.spectators, g.is_private,
            g.rated, rating_text(to_rating(g.host_rating)), rating_text(to_rating(g.red_rating)),
            rating_text(to_rating(g.black_rating)), g.spectator_delay, speed_name(speed_pool(to_choice(g.time_control)))};
}

std::string score(proto::GameResult r) {
    switch (r) {
        case proto::GameResult::RedWins: return "1-0";
        case proto::GameResult::BlackWins: return "0-1";
        case proto::GameResult::Draw: return "½-½";
        case proto::GameResult::Ongoing: break;
    }
    return "*";
}

}  // namespace

void OnlineClient::on_message(const proto::ServerMessage& message, TimePoint now) {
    std::visit(
        [&](const auto& body) {
            using T = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<T, proto::Error>) {
                on_error(message.request_id, body);
            } else if constexpr (std::is_same_v<T, proto::GameList>) {
                lobby_.open.clear();
                lobby_.live.clear();
                for (const auto& g : body.open) lobby_.open.push_back(to_row(g));
                for (const auto& g : body.live) lobby_.live.push_back(to_row(g));
            } else if constexpr (std::is_same_v<T, proto::Seated>) {
                lobby_.seeking = false;
                const Color side = body.side == proto::Side::Black ? Color::Black : Color::Red;
                if (!(mine(body.game_id) && seated_)) take_seat(body.game_id, body.resume_token, side);
                token_ = body.resume_token;
                if (!body.join_code.empty()) join_code_ = body.join_code;
                private_game_ = private_asked_ || !body.join_code.empty();
                save_seat(body.game_id, body.resume_token, side);
                screen_ = Screen::Game;
            } else if constexpr (std::is_same_v<T, proto::ResumeToken>) {
                // The server replaced the seat's token on our Resume: the old one is dead, so
                // the new one is what a reconnection (or a restarted client) must show.
                if (!(mine(body.game_id) && seated_)) return;
                token_ = body.resume_token;
                save_seat(body.game_id, body.resume_token, game_.role() == Role::Black ? Color::Black : Color::Red);
            } else if constexpr (std::is_same_v<T, proto::Seeking>) {
                lobby_.seeking = true;
                lobby_.seeking_time_control = to_choice(body.time_control);
            } else if constexpr (std::is_same_v<T, proto::Left>) {
                if (body.game_id == 0) lobby_.seeking = false;
            } else if constexpr (std::is_same_v<T, proto::Snapshot>) {
                on_snapshot(body, now);
            } else if constexpr (std::is_same_v<T, proto::Resumed>) {
                if (!mine(body.game_id)) return;
                screen_ = Screen::Game;  // a saved seat resumed from the lobby
                if (resume_request_) back_in_saved_seat();
                for (const auto& e : body.events) on_event(e, 0, now);
                game_.set_clock(to_clock(body.clock), now);
                game_.set_seat(Color::Red, to_seat(body.red));
                game_.set_seat(Color::Black, to_seat(body.black));
                game_.set_spectators(body.spectators);
                send_pending_move();  // not in the events: the server never got it
            } else if constexpr (std::is_same_v<T, proto::SpectatorCount>) {
                if (mine(body.game_id)) game_.set_spectators(body.count);
            } else if constexpr (std::is_same_v<T, proto::PlayerConnection>) {
                if (mine(body.game_id)) game_.set_seat(to_color(body.side), to_seat(body.player));
            } else if constexpr (std::is_same_v<T, proto::ArchiveList>) {
                if (!archive_appending_) lobby_.archive.clear();
                archive_appending_ = false;
                lobby_.archive_total = body.total;
                lobby_.archive_next = body.next;
                lobby_.archive_total_capped = body.total_capped;
                for (const auto& e : body.games)
                    lobby_.archive.push_back({e.game_id, e.red, e.black, to_choice(e.time_control),
                                              score(e.outcome.result), e.outcome.reason, e.ended_at_ms});
            } else if constexpr (std::is_same_v<T, proto::ArchivedGame>) {
                GameMirror archived;
                if (auto loaded = archived.load(body); !loaded) {
                    notices_.push_back("the archived game could not be read: " + loaded.error());
                    return;
                }
                game_.clear_room();
                (void)game_.reset(archived.start(), archived.moves(), Role::Replay);  // it replays
                game_.set_seat(Color::Red, {body.entry.red, true, std::nullopt});
                game_.set_seat(Color::Black, {body.entry.black, true, std::nullopt});
                game_.finish(to_result(body.entry.outcome));
                game_.take_cues();
                game_.go_to(0);
                game_id_ = body.entry.game_id;
                seated_ = started_ = false;
                replay_ = true;
                private_game_ = false;  // replays come from the archive's list, which holds public games only
                archived_pgn_ = body.pgn;
                screen_ = Screen::Game;
            } else if constexpr (std::is_same_v<T, proto::LoggedIn>) {
                if (!answered_password(message.request_id, nullptr)) on_logged_in(message.request_id, body);
            } else if constexpr (std::is_same_v<T, proto::Welcome> || std::is_same_v<T, proto::Pong> ||
                                 std::is_same_v<T, proto::Ping>) {
                // The connection handles these itself.
            } else if constexpr (std::is_same_v<T, proto::Profile>) {
                if (message.request_id == profile_request_) on_profile(body);
            } else if constexpr (std::is_same_v<T, proto::Leaderboard>) {
                on_leaderboard(body);
            } else {
                on_event(proto::RoomEvent{body}, message.request_id, now);
            }
        },
        message.body);
}

void OnlineClient::on_error(std::uint64_t request_id, const proto::Error& error) {
    std::string text = error.message;
    if (!error.explanation.empty()) text = error.explanation;
    if (request_id != 0 && request_id == move_request_) {
        // The answer to our move is a move refusal even when the pending move is already gone: a
        // takeback the server applied just before it has taken the board back under it.
        move_request_ = 0;
        const bool was_pending = game_.pending().has_value();
        game_.refuse_pending(text);
        // A refusal for an outdated position while still pending means we are behind: catch up.
        if (was_pending && error.code == proto::ErrorCode::StalePosition) resync("stale position");
        return;
    }
    if (refused_resume(request_id, error)) return;
    if (answered_password(request_id, &error) || refused_page(request_id, error)) return;
    if (refused_login(request_id, error)) return;
    if (error.code == proto::ErrorCode::BadToken || error.code == proto::ErrorCode::NoSuchGame) {
        if (screen_ == Screen::Game && !replay_ && game_id_ && error.game_id == *game_id_) {
            game_id_.reset();
            seated_ = false;
        }
        forget_seat(error.game_id);  // the server will not take that token again
    }
    notices_.push_back(text);
}

void OnlineClient::resync(const std::string& why) {
    if (!link_ || !game_id_) return;
    notices_.push_back("catching up with the server (" + why + ")");
    if (seated_ && !token_.empty())
        link_->send(proto::Resume{*game_id_, token_, 0});
    else
        link_->send(proto::WatchGame{*game_id_, join_code_});
}

void OnlineClient::on_snapshot(const proto::Snapshot& s, TimePoint now) {
    if (game_id_ && !mine(s.game_id)) return;
    private_game_ = s.is_private;
    // The mirror takes the record (and its version) only if it replays.
    if (auto loaded = mirror_.load(s); !loaded) {
        notices_.push_back("the server's game record could not be read: " + loaded.error());
        return;
    }
    const Role role = !s.your_side ? Role::Spectator : *s.your_side == proto::Side::Red ? Role::Red : Role::Black;
    const auto pending = game_.pending();
    const bool keep_view = mine(s.game_id) && !game_.following_live();
    const int view = game_.view_ply();
    game_.clear_room();
    (void)game_.reset(mirror_.start(), mirror_.moves(), role);  // the mirror has replayed it
    if (keep_view) game_.go_to(view);
    if (game_id_ != s.game_id) started_on_ = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
    game_id_ = s.game_id;
    time_control_ = to_choice(s.time_control);
    seated_ = s.your_side.has_value();
    started_ = s.status != proto::GameStatus::Waiting;
    replay_ = false;
    game_.set_phase(s.status == proto::GameStatus::Waiting ? Phase::Waiting
                    : s.status == proto::GameStatus::Playing ? Phase::Playing
                                                             : Phase::Over);
    game_.set_seat(Color::Red, to_seat(s.red));
    game_.set_seat(Color::Black, to_seat(s.black));
    game_.set_clock(to_clock(s.clock), now);
    game_.set_spectators(s.spectators);
    game_.set_rated(s.rated);
    rematch_game_id_ = s.rematch_game_id;
    for (const auto& o : s.pending_offers) game_.set_offer(to_offer(o.kind), to_color(o.side));
    for (const auto& line : s.chat)
        game_.add_chat({line.from, line.text, line.channel == proto::ChatChannel::Spectators, to_color(line.side)});
    if (s.outcome) {
        game_.finish(to_result(*s.outcome));
        game_.take_cues();
    } else if (s.status == proto::GameStatus::Aborted) {
        game_.finish({Result::Ongoing, "aborted", "The game was aborted."});
        game_.take_cues();
    }
    if (seated_ && (s.outcome || s.status == proto::GameStatus::Aborted)) forget_seat(s.game_id);
    if (resume_request_) back_in_saved_seat();  // this Snapshot answers the Resume of a saved seat
    // Our unacknowledged move, if the server has not played it, goes again with its move id.
    if (pending && seated_ && game_.can_move() && game_.ply_count() == pending->ply) {
        game_.begin_pending(pending->move, pending->move_id);
        game_.take_cues();
        send_pending_move();
    }
    screen_ = Screen::Game;
}

void OnlineClient::on_event(const proto::RoomEvent& event, std::uint64_t request_id, TimePoint now) {
    std::visit(
        [&](const auto& e) {
            using T = std::decay_t<decltype(e)>;
            if (!mine(e.game_id)) return;
            // An event already seen (replayed by Resumed) is skipped; one that does not follow
            // (missed moves, say) leaves everything as it was while we catch up.
            const auto update = mirror_.apply(event);
            if (!update) return resync(update.error());
            if (*update == MirrorUpdate::Stale) return;
            if constexpr (std::is_same_v<T, proto::GameStarted>) {
                const Role role = game_.role();
                (void)game_.reset(mirror_.start(), {}, role);
                game_.set_phase(Phase::Playing);
                // Ratings from the start; lag arrives with PlayerConnection.
                game_.set_seat(Color::Red, {e.red, true, std::nullopt, {}, to_rating(e.red_rating), game_.seat(Color::Red).lag_ms});
                game_.set_seat(Color::Black,
                               {e.black, true, std::nullopt, {}, to_rating(e.black_rating), game_.seat(Color::Black).lag_ms});
                game_.set_clock(to_clock(e.clock), now);
                game_.set_rated(e.rated);
                rematch_game_id_ = 0;
                time_control_ = to_choice(e.time_control);
                started_on_ = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
                started_ = true;
            } else if constexpr (std::is_same_v<T, proto::MoveMade>) {
                const Move m = mirror_.moves()[e.ply - 1];  // this move, new or already known
                if (auto applied = game_.apply_move(static_cast<int>(e.ply), m); !applied) {
                    resync(applied.error());
                    return;
                }
                if (request_id != 0 && request_id == move_request_) move_request_ = 0;
                game_.set_clock(to_clock(e.clock), now);
                play_premove();  // the opponent moved: a queued move goes at once if legal
            } else if constexpr (std::is_same_v<T, proto::OfferMade>) {
                game_.set_offer(to_offer(e.offer.kind), to_color(e.offer.side));
            } else if constexpr (std::is_same_v<T, proto::OfferAnswered>) {
                game_.set_offer(to_offer(e.kind), std::nullopt);
                if (!e.accepted)
                    notices_.push_back(side_name(e.side) + " declined the " +
                                       (e.kind == proto::OfferKind::Draw      ? "draw offer"
                                        : e.kind == proto::OfferKind::Rematch ? "rematch"
                                                                              : "takeback request"));
            } else if constexpr (std::is_same_v<T, proto::TakebackApplied>) {
                if (auto undone = game_.take_back(static_cast<int>(e.plies_removed)); !undone) {
                    resync(undone.error());
                    return;
                }
                game_.set_clock(to_clock(e.clock), now);
            } else if constexpr (std::is_same_v<T, proto::ChatLine>) {
                game_.add_chat({e.from, e.text, e.channel == proto::ChatChannel::Spectators, to_color(e.side)});
            } else if constexpr (std::is_same_v<T, proto::GameEnded>) {
                game_.set_clock(to_clock(e.clock), now);
                game_.finish(to_result(e.outcome));
                // Each side's rating as it is now, and by how much the game moved it.
                for (const auto& [side, change] : {std::pair{Color::Red, e.red_change}, std::pair{Color::Black, e.black_change}}) {
                    if (!change) continue;
                    SeatInfo seat = game_.seat(side);
                    seat.rating = RatingView{change->after, seat.rating ? seat.rating->deviation : 0, change->provisional};
                    game_.set_seat(side, seat, seat.received);
                    game_.set_rating_change(side, change_text(change->before, change->after));
                }
                if (seated_) forget_seat(e.game_id);
            } else if constexpr (std::is_same_v<T, proto::GameAborted>) {
                game_.finish({Result::Ongoing, "aborted",
                              e.explanation.empty() ? std::string("The game was aborted.") : e.explanation});
                if (seated_) forget_seat(e.game_id);
            } else if constexpr (std::is_same_v<T, proto::RematchStarted>) {
                // Players are seated in the new game by its own Seated; a spectator may follow.
                game_.set_offer(OfferType::Rematch, std::nullopt);
                rematch_game_id_ = e.new_game_id;
            }
        },
        event);
}

}  // namespace xq::client
