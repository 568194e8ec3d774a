#include "game_model.h"

#include <algorithm>

#include "common/iccs.h"
#include "common/movegen.h"

namespace xq::client {

GameModel::GameModel() { positions_.push_back(Position::start()); }

std::optional<Color> GameModel::my_side() const {
    if (role_ == Role::Red) return Color::Red;
    if (role_ == Role::Black) return Color::Black;
    return std::nullopt;
}

std::expected<void, std::string> GameModel::reset(const Position& start, std::span<const Move> moves, Role role) {
    role_ = role;
    phase_ = Phase::Playing;
    game_ = Game(start);
    moves_.clear();
    positions_.assign(1, start);
    rulings_ok_ = true;
    pending_.reset();
    selected_.reset();
    dragging_.reset();
    highlights_.clear();
    offers_[0].reset();
    offers_[1].reset();
    offers_[2].reset();
    premove_.reset();
    premoving_ = false;
    changes_[0].clear();
    changes_[1].clear();
    result_.reset();
    notice_.clear();
    texts_.clear();
    follow_live_ = true;
    view_ply_ = 0;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (auto applied = apply_move(static_cast<int>(i) + 1, moves[i]); !applied) {
            reset(start, {}, role);
            return applied;
        }
    }
    cues_.clear();  // a loaded game makes no sound
    return {};
}

void GameModel::clear_room() {
    seats_[0] = {};
    seats_[1] = {};
    clock_ = {};
    chat_.clear();
    spectators_ = 0;
    rated_ = false;
}

std::expected<void, std::string> GameModel::apply_move(int ply, Move m) {
    if (ply >= 1 && ply <= ply_count()) {
        if (moves_[static_cast<std::size_t>(ply - 1)] == m) return {};  // already known
        return std::unexpected("the server's move " + std::to_string(ply) + " (" + to_iccs(m) +
                               ") contradicts ours (" + to_iccs(moves_[static_cast<std::size_t>(ply - 1)]) + ")");
    }
    if (ply != ply_count() + 1)
        return std::unexpected("missed moves: got move " + std::to_string(ply) + " after move " +
                               std::to_string(ply_count()));
    const Position before = positions_.back();  // a copy: push_back below may move the vector
    if (!is_legal(before, m))
        return std::unexpected("the server's move " + std::to_string(ply) + " (" + to_iccs(m) +
                               ") is not legal here");
    // The rules mirror only follows while it agrees the game is on; the server's word stands.
    if (rulings_ok_ && !game_.play(m)) rulings_ok_ = false;
    const bool was_pending = pending_ && pending_->move == m && pending_->ply == ply - 1;
    pending_.reset();
    offers_[0].reset();  // any move lapses pending offers
    offers_[1].reset();
    texts_.push_back(render_move(before, m, notation_));
    moves_.push_back(m);
    positions_.push_back(before.with_move(m));
    if (!was_pending) {
        cue_for(before, m);
        // Another move changed the board under a selection: drop it (a queued premove stays).
        deselect();
    }
    follow_view();
    return {};
}

void GameModel::cue_for(const Position& before, Move m) {
    const Position after = before.with_move(m);
    if (after.in_check())
        cues_.push_back(SoundCue::Check);
    else if (before.at(m.to()) != Piece::None)
        cues_.push_back(SoundCue::Capture);
    else
        cues_.push_back(SoundCue::Move);
}

void GameModel::refuse_pending(const std::string& why) {
    pending_.reset();
    notice_ = why;
    cues_.push_back(SoundCue::Refused);
    follow_view();
}

std::expected<void, std::string> GameModel::take_back(int plies) {
    if (plies < 1 || plies > ply_count())
        return std::unexpected("cannot take back " + std::to_string(plies) + " of " + std::to_string(ply_count()) +
                               " moves");
    const auto keep = static_cast<std::ptrdiff_t>(ply_count() - plies);
    const std::vector<Move> kept(moves_.begin(), moves_.begin() + keep);
    const Position start = positions_.front();
    // Seats, clocks, chat and spectators are not part of the move record, so reset() keeps them.
    return reset(start, kept, role_);
}

void GameModel::finish(ResultInfo result) {
    result_ = std::move(result);
    phase_ = Phase::Over;
    pending_.reset();
    selected_.reset();
    dragging_.reset();
    highlights_.clear();
    offers_[0].reset();
    offers_[1].reset();
    premove_.reset();
    premoving_ = false;
    clock_.stop();
    cues_.push_back(SoundCue::GameEnd);
}

void GameModel::set_offer(OfferType kind, std::optional<Color> by) { offers_[static_cast<int>(kind)] = by; }

void GameModel::add_chat(ChatEntry entry) {
    chat_.push_back(std::move(entry));
    constexpr std::size_t kKeep = 200;  // a long game's chat stays bounded
    if (chat_.size() > kKeep) chat_.erase(chat_.begin(), chat_.begin() + static_cast<std::ptrdiff_t>(chat_.size() - kKeep));
}

bool GameModel::can_move() const {
    if (phase_ != Phase::Playing || result_ || pending_ || !follow_live_) return false;
    const Color to_move = positions_.back().side_to_move();
    if (role_ == Role::Hotseat) return true;
    return my_side() == to_move;
}

void GameModel::select(Square s) {
    selected_ = s;
    highlights_.clear();
    const Position& pos = positions_.back();
    for (Move m : legal_moves_from(pos, s)) {
        Highlight h{m.to(), pos.at(m.to()) == Piece::None ? HighlightKind::Quiet : HighlightKind::Capture, {}};
        if (rulings_ok_) {
            if (auto ban = game_.ban_for(m)) {
                h.kind = HighlightKind::Banned;
                h.reason = ban->explanation;
            }
        }
        highlights_.push_back(std::move(h));
    }
}

void GameModel::deselect() {
    premoving_ = false;
    selected_.reset();
    dragging_.reset();
    highlights_.clear();
}

std::optional<Move> GameModel::click(Square s) {
    // A click on an old position returns to the game and counts there.
    if (!follow_live_ && role_ != Role::Replay) go_live();
    // Out of turn a player queues a premove instead (can_premove); a spectator picks up nothing.
    if (!can_move() && can_premove()) return premove_click(s);
    if (!can_move()) {
        deselect();
        return std::nullopt;
    }
    const Position& pos = positions_.back();
    const Piece piece = pos.at(s);
    if (piece != Piece::None && color_of(piece) == pos.side_to_move()) {
        if (selected_ == s)
            deselect();
        else
            select(s);
        return std::nullopt;
    }
    if (!selected_) return std::nullopt;
    const auto it = std::find_if(highlights_.begin(), highlights_.end(), [&](const Highlight& h) { return h.to == s; });
    if (it == highlights_.end()) {
        // Not one of the marked points: say so rather than drop the piece without a word.
        notice_ = "The " + std::string(to_string(type_of(pos.at(*selected_)))) + " cannot move there.";
        cues_.push_back(SoundCue::Refused);
        deselect();
        return std::nullopt;
    }
    if (it->kind == HighlightKind::Banned) {
        notice_ = it->reason;
        cues_.push_back(SoundCue::Refused);
        return std::nullopt;
    }
    const Move m(*selected_, s);
    deselect();
    return m;
}

bool GameModel::begin_drag(Square s) {
    if (!can_move() && can_premove()) {
        const Piece piece = shown_position().at(s);
        if (piece == Piece::None || color_of(piece) != *my_side()) return false;
        if (selected_ != s) select_premove(s);
        dragging_ = s;
        return true;
    }
    if (!can_move()) return false;
    const Position& pos = positions_.back();
    const Piece piece = pos.at(s);
    if (piece == Piece::None || color_of(piece) != pos.side_to_move()) return false;
    if (selected_ != s) select(s);
    dragging_ = s;
    return true;
}

std::optional<Move> GameModel::drop(std::optional<Square> s) {
    if (!dragging_) return std::nullopt;
    const Square from = *dragging_;
    dragging_.reset();
    if (!s || *s == from) return std::nullopt;  // dropped where it was: stays selected for a click
    if (premoving_) return premove_click(*s);
    const auto it = std::find_if(highlights_.begin(), highlights_.end(), [&](const Highlight& h) { return h.to == *s; });
    if (it == highlights_.end() || it->kind == HighlightKind::Banned) {
        if (it != highlights_.end()) notice_ = it->reason;
        deselect();  // an illegal drop snaps back
        cues_.push_back(SoundCue::Refused);
        return std::nullopt;
    }
    deselect();
    return Move(from, *s);
}

bool GameModel::can_premove() const {
    if (phase_ != Phase::Playing || result_ || !follow_live_ || !my_side()) return false;
    return pending_ || positions_.back().side_to_move() != *my_side();
}

void GameModel::select_premove(Square s) {
    // The board as shown (our unconfirmed move on it), with the player to move.
    const Position as_mine = Position::from_board(shown_position().board(), *my_side());
    selected_ = s;
    premoving_ = true;
    highlights_.clear();
    for (Move m : pseudo_legal_moves(as_mine))
        if (m.from() == s)
            highlights_.push_back({m.to(), as_mine.at(m.to()) == Piece::None ? HighlightKind::Quiet : HighlightKind::Capture, {}});
}

std::optional<Move> GameModel::premove_click(Square s) {
    const Piece piece = shown_position().at(s);
    if (piece != Piece::None && color_of(piece) == *my_side()) {
        premove_.reset();  // picking up a piece replaces the queued move
        if (selected_ == s)
            deselect();
        else
            select_premove(s);
        return std::nullopt;
    }
    const bool target = premoving_ && std::ranges::any_of(highlights_, [&](const Highlight& h) { return h.to == s; });
    if (target) premove_ = Move(*selected_, s);
    else premove_.reset();  // a click elsewhere cancels
    deselect();
    return std::nullopt;
}

void GameModel::cancel_premove() {
    premove_.reset();
    if (premoving_) deselect();
}

std::optional<Move> GameModel::take_premove() {
    if (!premove_ || !can_move()) return std::nullopt;
    const Move m = *premove_;
    premove_.reset();
    if (premoving_) deselect();
    if (!is_legal(positions_.back(), m)) return std::nullopt;
    if (rulings_ok_ && game_.ban_for(m)) return std::nullopt;
    return m;
}

void GameModel::begin_pending(Move m, std::uint64_t move_id) {
    pending_ = PendingMove{m, move_id, ply_count()};
    pending_position_ = positions_.back().with_move(m);
    notice_.clear();
    deselect();
    cue_for(positions_.back(), m);
    go_live();
}

std::expected<void, std::string> GameModel::play_local(Move m) {
    if (auto played = apply_move(ply_count() + 1, m); !played) return played;
    if (game_.is_over()) {
        const auto& out = game_.outcome();
        finish({out.result, std::string(to_string(out.reason)), out.explanation});
    }
    return {};
}

void GameModel::flag_local(Color loser) {
    if (result_ || !game_.flag(loser)) return;
    const auto& out = game_.outcome();
    finish({out.result, std::string(to_string(out.reason)), out.explanation});
}

void GameModel::follow_view() {
    if (follow_live_) view_ply_ = ply_count();
}

void GameModel::step(int delta) {
    go_to(view_ply_ + delta);
}

void GameModel::go_to(int ply) {
    view_ply_ = std::clamp(ply, 0, ply_count());
    follow_live_ = view_ply_ == ply_count();
    if (!follow_live_) deselect();
}

void GameModel::go_live() {
    follow_live_ = true;
    view_ply_ = ply_count();
}

const Position& GameModel::shown_position() const {
    if (showing_pending()) return pending_position_;
    return positions_[static_cast<std::size_t>(view_ply_)];
}

std::optional<Move> GameModel::last_move_shown() const {
    if (showing_pending()) return pending_->move;
    if (view_ply_ == 0) return std::nullopt;
    return moves_[static_cast<std::size_t>(view_ply_ - 1)];
}

std::optional<Square> GameModel::general_in_check() const {
    const Position& pos = shown_position();
    if (!pos.in_check()) return std::nullopt;
    return pos.general(pos.side_to_move());
}

std::vector<Piece> GameModel::captured(Color side) const {
    // Captured = the start position's pieces of that side minus those still on the board.
    int count[8] = {};
    const Position& start = positions_.front();
    const Position& now = shown_position();
    for (Square s = 0; s < kSquares; ++s) {
        if (start.at(s) != Piece::None && color_of(start.at(s)) == side) ++count[static_cast<int>(type_of(start.at(s)))];
        if (now.at(s) != Piece::None && color_of(now.at(s)) == side) --count[static_cast<int>(type_of(now.at(s)))];
    }
    std::vector<Piece> out;
    for (PieceType t : {PieceType::Chariot, PieceType::Cannon, PieceType::Horse, PieceType::Elephant,
                        PieceType::Advisor, PieceType::Soldier})
        for (int i = 0; i < count[static_cast<int>(t)]; ++i) out.push_back(make_piece(side, t));
    return out;
}

void GameModel::set_notation(Notation notation) {
    notation_ = notation;
    texts_.clear();
    for (std::size_t i = 0; i < moves_.size(); ++i) texts_.push_back(render_move(positions_[i], moves_[i], notation_));
}

std::vector<SoundCue> GameModel::take_cues() {
    std::vector<SoundCue> out;
    out.swap(cues_);
    return out;
}

std::optional<Millis> GameModel::grace_left(Color side, TimePoint now) const {
    const SeatInfo& s = seat(side);
    if (s.connected || !s.grace_ms) return std::nullopt;
    const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(now - s.received).count();
    return std::max<Millis>(0, *s.grace_ms - std::max<Millis>(0, elapsed));
}

std::optional<TimePoint> GameModel::next_change(TimePoint now) const {
    auto next = clock_.next_change(now);
    for (Color side : {Color::Red, Color::Black}) {
        const auto left = grace_left(side, now);
        // At 0 the countdown gives way to "may be claimed" and the claim buttons.
        const auto wait = left ? until_shown_change(*left, 1) : std::nullopt;
        if (wait && (!next || now + std::chrono::milliseconds(*wait) < *next))
            next = now + std::chrono::milliseconds(*wait);
    }
    return next;
}

}  // namespace xq::client
