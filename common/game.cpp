#include "game.h"

#include "iccs.h"
#include "movegen.h"

namespace xq {
namespace {

// The no-capture limit: 60 moves, counted in plies.
constexpr int kMoveLimitPlies = 120;
// Each side's checks beyond this many since the last capture do not count towards the limit.
constexpr int kCountedChecks = 10;

std::string side_name(Color c) { return c == Color::Red ? "Red" : "Black"; }

std::unexpected<PlayError> fail(PlayErrorCode code, std::string message) {
    return std::unexpected(PlayError{code, std::move(message)});
}

}  // namespace

std::string_view code_name(PlayErrorCode code) {
    switch (code) {
        case PlayErrorCode::GameOver:
            return "game_over";
        case PlayErrorCode::IllegalMove:
            return "illegal_move";
        case PlayErrorCode::InvalidTakeback:
            return "invalid_takeback";
    }
    return "";
}

// No reserve: a server holds thousands of games, most of them short so far, and the vectors grow
// geometrically at an amortised cost that game_bench includes.
Game::Game(Position start, RulesPolicy policy) : policy_(policy) {
    State first;
    first.counted = static_cast<std::uint16_t>(start.halfmove_clock());
    first.in_check = start.in_check();
    positions_.push_back(start);
    states_.push_back(first);
    material_ = material_draw_level(start);
    judge_position();
}

std::expected<void, PlayError> Game::require_ongoing() const {
    if (is_over()) return fail(PlayErrorCode::GameOver, "the game is over: " + outcome_.explanation);
    return {};
}

std::expected<void, PlayError> Game::play(Move m) {
    if (auto ok = require_ongoing(); !ok) return ok;
    const Position& before = positions_.back();
    if (!is_legal(before, m))
        return fail(PlayErrorCode::IllegalMove,
                    to_iccs(m) + " is not a legal move for " + std::string(to_string(before.side_to_move())));
    const bool capture = before.at(m.to()) != Piece::None;
    Position after = before.with_move(m);
    State s = states_.back();
    const auto us = static_cast<std::size_t>(index_of(before.side_to_move())), them = 1 - us;
    const bool check = after.in_check();
    if (capture) {
        s = State{};
    } else if (!check || ++s.checks[us] <= kCountedChecks) {
        // Pikafish's rule: a reply to a check beyond the checker's 10th does not count either.
        if (s.checks[them] > kCountedChecks && s.in_check)
            ++s.checks[them];
        else
            ++s.counted;
    }
    s.in_check = check;
    // Position::play counts every quiet ply; keep FEN field 5 equal to the counted figure.
    if (after.halfmove_clock() != s.counted)
        after = Position::from_board(after.board(), after.side_to_move(), s.counted, after.fullmove_number());
    positions_.push_back(after);
    moves_.push_back(m);
    states_.push_back(s);
    if (capture) material_ = material_draw_level(positions_.back());
    judge_position();
    return {};
}

void Game::judge_position() {
    const Position& pos = positions_.back();
    if (!has_legal_move(pos)) {
        // No legal move loses, also on the ply that reaches the no-capture limit.
        const Color loser = pos.side_to_move();
        if (pos.in_check())
            end(loss_for(loser), Reason::Checkmate,
                side_name(~loser) + " wins: " + side_name(loser) + " is checkmated.");
        else
            end(loss_for(loser), Reason::Stalemate,
                side_name(~loser) + " wins: " + side_name(loser) + " has no legal move (stalemate).");
        return;
    }
    if (auto verdict = judge_repetition(positions_, moves_, policy_)) {
        end(verdict->result, verdict->reason, verdict->explanation, verdict->plies);
        return;
    }
    if (states_.back().counted >= kMoveLimitPlies) {
        end(Result::Draw, Reason::MoveLimit,
            "Draw: 60 moves without a capture (each side's checks beyond its 10th not counted).");
        return;
    }
    const bool dead = material_ == MaterialDraw::Direct ||
                      (material_ == MaterialDraw::UnlessMateInOne && insufficient_material(pos));
    if (dead)
        end(Result::Draw, Reason::InsufficientMaterial, "Draw: neither side has the material to force mate.");
}

void Game::end(Result r, Reason reason, std::string explanation, std::vector<int> plies) {
    outcome_ = GameOutcome{r, reason, std::move(explanation), std::move(plies), ply_count()};
}

std::optional<CycleVerdict> Game::cycle_after(Move m) const {
    const Position& pos = positions_.back();
    if (pos.at(m.to()) != Piece::None) return std::nullopt;  // a capture starts a new history
    const Position next = pos.with_move(m);
    // Cheap test first: two earlier occurrences since the last capture, same side to move.
    // Index n is `next`; move n - 1 is m (no capture), the rest come from the history.
    const std::size_t n = positions_.size();
    auto capture_at = [&](std::size_t i) {
        return i + 1 < n && positions_[i].at(moves_[i].to()) != Piece::None;
    };
    std::size_t window = n;
    int seen = 0;
    for (std::size_t i = n; i >= 2 && seen < 2; i -= 2) {
        if (capture_at(i - 1) || capture_at(i - 2)) break;
        window = i - 2;
        if (positions_[window].hash() == next.hash()) ++seen;
    }
    if (seen < 2) return std::nullopt;
    std::vector<Position> positions(positions_.begin() + static_cast<std::ptrdiff_t>(window),
                                    positions_.end());
    std::vector<Move> moves(moves_.begin() + static_cast<std::ptrdiff_t>(window), moves_.end());
    positions.push_back(next);
    moves.push_back(m);
    return judge_repetition(positions, moves, policy_, static_cast<int>(window));
}

std::optional<BannedMove> Game::ban_for(Move m) const {
    if (is_over() || !is_legal(position(), m)) return std::nullopt;
    const auto verdict = cycle_after(m);
    const Color us = position().side_to_move();
    if (!verdict || verdict->offender != us) return std::nullopt;
    return BannedMove{m, verdict->reason,
                      side_name(us) + " may not play " + to_iccs(m) +
                          ": it would repeat the position a third time with " + verdict->detail + "."};
}

std::vector<BannedMove> Game::banned_moves() const {
    std::vector<BannedMove> banned;
    if (is_over()) return banned;
    for (Move m : legal_moves(position()))
        if (auto b = ban_for(m)) banned.push_back(std::move(*b));
    return banned;
}

std::expected<void, PlayError> Game::resign(Color loser) {
    if (auto ok = require_ongoing(); !ok) return ok;
    end(loss_for(loser), Reason::Resignation, side_name(loser) + " resigns: " + side_name(~loser) + " wins.");
    return {};
}

std::expected<void, PlayError> Game::agree_draw() {
    if (auto ok = require_ongoing(); !ok) return ok;
    end(Result::Draw, Reason::Agreement, "Draw by agreement.");
    return {};
}

std::expected<void, PlayError> Game::abandon(Color absent, bool draw) {
    if (auto ok = require_ongoing(); !ok) return ok;
    if (draw)
        end(Result::Draw, Reason::Abandonment, "Draw: " + side_name(absent) + " left the game and " +
                                                   side_name(~absent) + " claimed a draw.");
    else
        end(loss_for(absent), Reason::Abandonment,
            side_name(absent) + " left the game: " + side_name(~absent) + " wins.");
    return {};
}

std::expected<void, PlayError> Game::flag(Color loser) {
    if (auto ok = require_ongoing(); !ok) return ok;
    if (!has_mating_material(position(), ~loser))
        end(Result::Draw, Reason::Timeout,
            "Draw: " + side_name(loser) + " ran out of time, but " + side_name(~loser) +
                " has nothing left to mate with.");
    else
        end(loss_for(loser), Reason::Timeout,
            side_name(~loser) + " wins on time: " + side_name(loser) + "'s clock ran out.");
    return {};
}

std::expected<void, PlayError> Game::takeback(int plies) {
    if (plies < 1 || plies > ply_count())
        return fail(PlayErrorCode::InvalidTakeback, "cannot take back " + std::to_string(plies) + " of " +
                                                        std::to_string(ply_count()) + " plies");
    const auto keep = moves_.size() - static_cast<std::size_t>(plies);
    moves_.resize(keep);
    positions_.resize(keep + 1);
    states_.resize(keep + 1);
    outcome_ = {};
    material_ = material_draw_level(position());
    judge_position();
    return {};
}

}  // namespace xq
