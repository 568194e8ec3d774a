#pragma once
// A game: the start position, the moves, and the result with its explanation. Game applies every
// ruling that needs history: 3-fold repetition with perpetual check and chase (repetition.h), the
// 60-move no-capture limit with its 10-check cap, insufficient material, and the players' own
// endings (resignation, agreement, loss on time).
//
// A Game stops at the first ruling: the move that completes a forbidden cycle is played and ends
// the game, and later moves are refused (judge_final_position() judges longer sequences, R7). A
// side to move whose every legal move is banned (banned_moves()) cannot change its move and loses
// at once, as in stalemate.
//
// Started from a FEN with no-capture counter N, a Game assumes those N plies held no checks (so
// the 10-check cap starts fresh) and knows no positions before the start for repetition.

#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "outcome.h"
#include "repetition.h"
#include "rules_policy.h"

namespace xq {

enum class PlayErrorCode {
    GameOver,         // the game has a result; no move, resignation or offer is accepted
    IllegalMove,      // not a legal move in the current position
    InvalidTakeback,  // fewer moves played than asked to take back, or a count below 1
};

struct PlayError {
    PlayErrorCode code;
    std::string message;
};

std::string_view code_name(PlayErrorCode code);  // "game_over", "illegal_move", "invalid_takeback"

// The result with its reason, a sentence for players and the plies behind a repetition ruling.
struct GameOutcome {
    Result result = Result::Ongoing;
    Reason reason = Reason::None;
    std::string explanation;  // "" while ongoing
    std::vector<int> plies;   // 1-based plies that checked/chased (repetition rulings only)
    int ply = 0;              // the ply at which the game ended (0: before any move)
};

// A legal move the side to move may not play: it would complete a cycle that it loses.
struct BannedMove {
    Move move;
    Reason reason;            // PerpetualCheck or PerpetualChase
    // "Red may not play a8a7: it would repeat the position a third time with perpetual check,
    // moves 2–5."
    std::string explanation;
};

class Game {
public:
    explicit Game(Position start = Position::start(), RulesPolicy policy = {});

    const Position& start() const { return positions_.front(); }
    const Position& position() const { return positions_.back(); }
    const std::vector<Move>& moves() const { return moves_; }
    const std::vector<Position>& positions() const { return positions_; }  // start first
    const RulesPolicy& policy() const { return policy_; }
    int ply_count() const { return static_cast<int>(moves_.size()); }

    // Plies without a capture, with each side's checks beyond its 10th (and the replies to them)
    // not counted; 120 is a draw. position().halfmove_clock() carries the same figure.
    int no_capture_plies() const { return states_.back().counted; }
    int checks_since_capture(Color c) const { return states_.back().checks[index_of(c)]; }

    // Plays a legal move; a move that completes a forbidden cycle is played and ends the game.
    std::expected<void, PlayError> play(Move m);

    bool is_over() const { return outcome_.result != Result::Ongoing; }
    const GameOutcome& outcome() const { return outcome_; }
    Result result() const { return outcome_.result; }

    // The side to move's legal moves that would lose by perpetual check or chase.
    std::vector<BannedMove> banned_moves() const;
    // The same question for one move (nullopt: allowed, or not legal at all).
    std::optional<BannedMove> ban_for(Move m) const;

    std::expected<void, PlayError> resign(Color loser);
    std::expected<void, PlayError> agree_draw();
    // `loser` ran out of time: a loss, or a draw if the other side has nothing to mate with.
    std::expected<void, PlayError> flag(Color loser);
    // `absent` left and did not come back: its opponent claims the win, or a draw.
    std::expected<void, PlayError> abandon(Color absent, bool draw);

    // Takes back the last `plies` moves and reopens the game whatever ended it.
    std::expected<void, PlayError> takeback(int plies);

private:
    // What the no-capture limit needs per position: counted plies and checks per side.
    struct State {
        std::uint16_t counted = 0;
        std::array<std::uint16_t, 2> checks{};
        bool in_check = false;
        // Earlier occurrences of this position since the last capture (counted up to 2), and
        // whether it or an earlier one with the same side to move in that stretch had any.
        std::uint8_t repeats = 0;
        bool repeated = false;
    };

    std::expected<void, PlayError> require_ongoing() const;
    std::optional<CycleVerdict> cycle_after(Move m) const;
    void count_repeats();
    bool repetition_possible() const;
    void judge_banned_out();
    void judge_position();
    void end(Result r, Reason reason, std::string explanation, std::vector<int> plies = {});

    std::vector<Position> positions_;
    std::vector<Move> moves_;
    std::vector<State> states_;
    RulesPolicy policy_;
    GameOutcome outcome_;
    MaterialDraw material_ = MaterialDraw::No;  // changes only on captures
};

}  // namespace xq
