#pragma once
// The game as the client knows it: the moves the server confirmed, a move of ours it has not yet
// confirmed (shown as pending), what the player has picked up and where it may go, the ply being
// looked at, clocks, offers, chat and the result. Plain C++ over common/: no window, no sockets.
// The server is the authority; this model only mirrors it, plus rules checks for highlighting.

#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "client/model/clock_model.h"
#include "client/model/ratings_model.h"
#include "common/game.h"
#include "common/notation.h"

namespace xq::client {

// Who this client is in the game. Hotseat: one screen plays both sides. Replay: a finished game,
// nobody moves.
enum class Role { Red, Black, Spectator, Hotseat, Replay };

enum class Phase { Waiting, Playing, Over };

enum class HighlightKind { Quiet, Capture, Banned };

// A destination of the selected piece.
struct Highlight {
    Square to = kNoSquare;
    HighlightKind kind = HighlightKind::Quiet;
    std::string reason;  // Banned: why the repetition rules forbid it
};

// A draw offer or a takeback request, pending until answered or until a move is made.
// Rematch: after the game ended, the same game again with colours swapped.
enum class OfferType { Draw = 0, Takeback = 1, Rematch = 2 };

enum class SoundCue { Move, Capture, Check, GameEnd, Refused };

struct ResultInfo {
    Result result = Result::Ongoing;
    std::string reason;       // "checkmate", "resignation", ...
    std::string explanation;  // the ruling's sentence
};

struct SeatInfo {
    std::string name;
    bool connected = true;
    std::optional<Millis> grace_ms;  // while disconnected: time before the opponent may claim
    TimePoint received{};            // when grace_ms was true: it counts down from here
    std::optional<RatingView> rating = {};  // at the game's speed; accounts only
    std::uint32_t lag_ms = 0;               // the server's measure of the round trip; 0: unknown
};

struct ChatEntry {
    std::string from;
    std::string text;
    bool spectators = false;  // the spectators' channel
    std::optional<Color> side;
};

struct PendingMove {
    Move move;
    std::uint64_t move_id = 0;
    int ply = 0;  // plies played when it was sent
};

class GameModel {
public:
    GameModel();

    // Starts over from `start` with `moves` already played (a snapshot or an archived game).
    // Fails, leaving the model empty at `start`, if a move is not legal.
    std::expected<void, std::string> reset(const Position& start, std::span<const Move> moves, Role role);
    // A different game: forget the seats, clocks, chat and spectators of the last one too.
    void clear_room();
    Role role() const { return role_; }
    void set_role(Role role) { role_ = role; }
    std::optional<Color> my_side() const;
    Phase phase() const { return phase_; }
    void set_phase(Phase phase) { phase_ = phase; }

    // ---- What the server (or, in hotseat, the local rules) says ----
    // Move number `ply` (1 for the first) is `m`. An earlier ply already known is accepted when it
    // matches; a gap or a contradiction is an error (the caller resynchronises).
    std::expected<void, std::string> apply_move(int ply, Move m);
    // The server refused our pending move: the board returns and the reason is shown.
    void refuse_pending(const std::string& why);
    std::expected<void, std::string> take_back(int plies);
    void finish(ResultInfo result);
    void set_clock(const ClockValues& values, TimePoint received) { clock_.set(values, received); }
    // `info.grace_ms` is as of `received`; it counts down from then, like a running clock.
    void set_seat(Color side, SeatInfo info, TimePoint received = SteadyClock::now()) {
        info.received = received;
        seats_[index_of(side)] = std::move(info);
    }
    void set_offer(OfferType kind, std::optional<Color> by);
    void set_spectators(std::uint32_t count) { spectators_ = count; }
    void add_chat(ChatEntry entry);
    void set_notice(std::string text) { notice_ = std::move(text); }
    // A rated game (ratings change with its result), and each side's change once it ended.
    void set_rated(bool rated) { rated_ = rated; }
    bool rated() const { return rated_; }
    void set_rating_change(Color side, std::string change) { changes_[index_of(side)] = std::move(change); }
    const std::string& rating_change(Color side) const { return changes_[index_of(side)]; }
    void clear_notice() { notice_.clear(); }

    // ---- What the player does ----
    // A click on a point: picks up one's own piece, puts it down, or names a destination. Returns
    // the move to play when the click completes a legal, unbanned move.
    std::optional<Move> click(Square s);
    // Drag and drop: press on a piece starts it, release on a square ends it. A drop off the
    // legal destinations snaps back.
    bool begin_drag(Square s);
    std::optional<Move> drop(std::optional<Square> s);
    void deselect();
    // Premoves: while the opponent thinks (or our move is unconfirmed) the player may queue one
    // move of its own, picked and dropped as usual; click() and drop() then return none and keep
    // it here. Destinations are the piece's moves as if it were the player's turn.
    bool can_premove() const;
    const std::optional<Move>& premove() const { return premove_; }
    void cancel_premove();
    // After the opponent's move: the queued move, now to be sent, when it is legal (and not
    // banned) in the new position; else it is dropped without a word. Clears the queue.
    std::optional<Move> take_premove();
    // Marks `m` as sent and waiting for the server; the board shows it at once.
    void begin_pending(Move m, std::uint64_t move_id);
    // Plays `m` locally (hotseat): the local rules decide the result.
    std::expected<void, std::string> play_local(Move m);
    // `loser`'s flag fell in a local game: the local rules decide a loss, or a draw when the
    // other side has nothing left to mate with.
    void flag_local(Color loser);

    // Looking through the game: the ply shown (0 = start). Following the live game moves the view
    // along with new moves; stepping back stops following until the player returns to the end.
    void step(int delta);
    void go_to(int ply);
    void go_live();
    bool following_live() const { return follow_live_; }
    int view_ply() const { return view_ply_; }

    // ---- What the view draws ----
    const Game& game() const { return game_; }
    int ply_count() const { return static_cast<int>(moves_.size()); }
    const std::vector<Move>& moves() const { return moves_; }
    const Position& position_at(int ply) const { return positions_[static_cast<std::size_t>(ply)]; }
    const Position& shown_position() const;
    bool showing_pending() const { return pending_ && follow_live_; }
    std::optional<Move> last_move_shown() const;
    std::optional<Square> general_in_check() const;  // in the shown position
    std::optional<Square> selected() const { return selected_; }
    std::optional<Square> dragging() const { return dragging_; }
    const std::vector<Highlight>& highlights() const { return highlights_; }
    const std::optional<PendingMove>& pending() const { return pending_; }
    // Can the player pick up pieces now: live view, game on, its turn, nothing pending.
    bool can_move() const;
    // Pieces of `side` no longer on the board in the shown position, largest first.
    std::vector<Piece> captured(Color side) const;
    const ClockModel& clock() const { return clock_; }
    const SeatInfo& seat(Color side) const { return seats_[index_of(side)]; }
    // A disconnected player's time left to come back at `now` (0 once run out: the opponent may
    // claim); none while connected or when the server gave no grace.
    std::optional<Millis> grace_left(Color side, TimePoint now) const;
    // When something drawn of the game next changes by itself: a running clock's next shown second
    // or tenth, a grace period's; none while nothing counts down.
    std::optional<TimePoint> next_change(TimePoint now) const;
    std::optional<Color> offer_by(OfferType kind) const { return offers_[static_cast<int>(kind)]; }
    std::uint32_t spectators() const { return spectators_; }
    const std::vector<ChatEntry>& chat() const { return chat_; }
    const std::optional<ResultInfo>& result() const { return result_; }
    const std::string& notice() const { return notice_; }

    // Move text in the chosen notation, one entry per ply, kept up to date as moves arrive.
    void set_notation(Notation notation);
    Notation notation() const { return notation_; }
    const std::vector<std::string>& move_texts() const { return texts_; }

    // Sounds to play for what happened since the last call.
    std::vector<SoundCue> take_cues();

private:
    void select(Square s);
    void select_premove(Square s);
    std::optional<Move> premove_click(Square s);
    void follow_view();
    void cue_for(const Position& before, Move m);

    Role role_ = Role::Spectator;
    Phase phase_ = Phase::Playing;
    Game game_;
    std::vector<Move> moves_;
    std::vector<Position> positions_;  // start first: positions_[i] is after i plies
    bool rulings_ok_ = true;           // false once game_ could not follow (it ended early)
    std::optional<PendingMove> pending_;
    Position pending_position_;
    std::optional<Square> selected_;
    std::optional<Square> dragging_;
    std::vector<Highlight> highlights_;
    int view_ply_ = 0;
    bool follow_live_ = true;
    ClockModel clock_;
    SeatInfo seats_[2];
    std::optional<Color> offers_[3];
    std::optional<Move> premove_;
    bool premoving_ = false;  // the selection and its highlights are a premove's
    bool rated_ = false;
    std::string changes_[2];
    std::uint32_t spectators_ = 0;
    std::vector<ChatEntry> chat_;
    std::optional<ResultInfo> result_;
    std::string notice_;
    Notation notation_ = Notation::ChineseTraditional;
    std::vector<std::string> texts_;
    std::vector<SoundCue> cues_;
};

}  // namespace xq::client
