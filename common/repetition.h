#pragma once
// Repetition verdicts (rules-spec.md section 2). A position is judged when it occurs for the third
// time since the last capture: the cycle back to its first occurrence decides whether one side
// checked or chased on every move (and loses) or whether the repetition is a plain draw.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "outcome.h"
#include "rules_policy.h"

namespace xq {

struct CycleVerdict {
    Result result = Result::Draw;
    Reason reason = Reason::Repetition;  // PerpetualCheck, PerpetualChase or Repetition
    std::optional<Color> offender;       // the losing side, if any
    int first_ply = 0;                   // the cycle's moves, as 1-based plies of the history
    int last_ply = 0;
    std::vector<int> plies;     // the plies that checked or chased (the offender's,
                                // or both sides' in a mutual perpetual)
    std::vector<Piece> chased;  // the piece(s) chased on every move, where they stand now
    std::string detail;         // "perpetual chase of the red chariot, moves 31–38"
    std::string explanation;    // "Black loses: " + detail + "."
};

// Where the cycle ending at positions.back() starts: the index of the first of three occurrences
// of that position since the last capture, or nullopt if it has not occurred three times.
// positions[i + 1] must be positions[i] after moves[i].
std::optional<std::size_t> third_occurrence(std::span<const Position> positions, std::span<const Move> moves);

// Judges positions.back() if it is a third occurrence. ply_offset is the history ply of moves[0]
// minus one, so that plies and move numbers in the verdict match the whole game.
std::optional<CycleVerdict> judge_repetition(std::span<const Position> positions, std::span<const Move> moves,
                                             const RulesPolicy& policy, int ply_offset = 0);

// Judges the last position of a move sequence the way Pikafish's rule_judge does, ignoring any
// earlier position that would already have ended a game (a Game stops there: rules-spec R7).
// Returns nullopt if the final position is no third occurrence or a move is illegal.
std::optional<CycleVerdict> judge_final_position(const Position& start, std::span<const Move> moves,
                                                 const RulesPolicy& policy = {});

// "the red chariot"
std::string piece_phrase(Piece p);

// The move number of a ply whose position before it is pos: the FEN's fullmove number.
inline int move_number(const Position& before) { return before.fullmove_number(); }

}  // namespace xq
