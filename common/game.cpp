#include "game.h"

#include <algorithm>

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

// Calls visit(i) for i = from - 2, from - 4, ...: the positions with the same side to move as
// index `from`, back to the last capture, while visit returns true. `from` may be one past the
// history: the position after a quiet move not played yet.
template <class Visit>
void for_each_earlier(const std::vector<Position>& positions, const std::vector<Move>& moves, std::size_t from,
                      Visit visit) {
    auto capture_at = [&](std::size_t i) {
        return i < moves.size() && positions[i].at(moves[i].to()) != Piece::None;
    };
    for (std::size_t i = from; i >= 2; i -= 2) {
        if (capture_at(i - 1) || capture_at(i - 2) || !visit(i - 2)) return;
    }
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
    count_repeats();
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
    // judge_repetition walks the stretch again; count_repeats has already said whether it must.
    if (auto verdict = states_.back().repeats >= 2 ? judge_repetition(positions_, moves_, policy_) : std::nullopt) {
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
    if (dead) {
        end(Result::Draw, Reason::InsufficientMaterial, "Draw: neither side has the material to force mate.");
        return;
    }
    judge_banned_out();
}

void Game::count_repeats() {
    const std::size_t last = positions_.size() - 1;
    const std::uint64_t key = positions_[last].hash();
    State& s = states_[last];
    bool window_open = false;  // no capture between positions_[last - 2] and here
    for_each_earlier(positions_, moves_, last, [&](std::size_t i) {
        window_open |= i + 2 == last;
        s.repeats += positions_[i].hash() == key;
        return s.repeats < 2;
    });
    s.repeated = s.repeats > 0 || (window_open && states_[last - 2].repeated);
}

// A move can complete a third occurrence only if a position with the mover's opponent to move
// has occurred twice since the last capture: that needs a repeat in the stretch, kept per ply.
bool Game::repetition_possible() const {
    const std::size_t n = positions_.size();
    return n >= 2 && positions_[n - 2].at(moves_[n - 2].to()) == Piece::None && states_[n - 2].repeated;
}

// The side to move must change a move that the repetition rules forbid (ban_for); with no other
// legal move it cannot, and loses now rather than wait for its clock.
void Game::judge_banned_out() {
    if (!repetition_possible()) return;
    const Color us = position().side_to_move();
    std::vector<std::pair<Move, CycleVerdict>> bans;
    for (Move m : legal_moves(position())) {
        auto verdict = cycle_after(m);
        if (!verdict || verdict->offender != us) return;
        bans.emplace_back(m, std::move(*verdict));
    }
    // Check outranks chase, as in the verdicts themselves.
    const auto& worst = *std::ranges::max_element(bans, {}, [](const auto& ban) {
        return ban.second.reason == Reason::PerpetualCheck;
    });
    std::string why = side_name(~us) + " wins: ";
    if (bans.size() == 1) {
        why += side_name(us) + "'s only legal move, " + to_iccs(bans[0].first) +
               ", would repeat the position a third time with " + bans[0].second.detail + ".";
    } else {
        why += "every legal move " + side_name(us) + " has would repeat the position a third time: ";
        for (std::size_t i = 0; i < bans.size(); ++i)
            why += (i ? "; " : "") + to_iccs(bans[i].first) + " with " + bans[i].second.detail;
        why += ".";
    }
    end(loss_for(us), worst.second.reason, std::move(why), worst.second.plies);
}

void Game::end(Result r, Reason reason, std::string explanation, std::vector<int> plies) {
    outcome_ = GameOutcome{r, reason, std::move(explanation), std::move(plies), ply_count()};
}

std::optional<CycleVerdict> Game::cycle_after(Move m) const {
    const Position& pos = positions_.back();
    if (pos.at(m.to()) != Piece::None) return std::nullopt;  // a capture starts a new history
    if (!repetition_possible()) return std::nullopt;          // the usual case: no walk, no move
    const Position next = pos.with_move(m);
    // Cheap test first: two earlier occurrences since the last capture, same side to move.
    // Index n is `next`; move n - 1 is m (no capture), the rest come from the history.
    const std::size_t n = positions_.size();
    std::size_t window = n;
    int seen = 0;
    for_each_earlier(positions_, moves_, n, [&](std::size_t i) {
        window = i;
        seen += positions_[i].hash() == next.hash();
        return seen < 2;
    });
    if (seen < 2) return std::nullopt;
    std::vector<Position> positions(positions_.begin() + static_cast<std::ptrdiff_t>(window),
                                    positions_.end());
    std::vector<Move> moves(moves_.begin() + static_cast<std::ptrdiff_t>(window), moves_.end());
    positions.push_back(next);
    moves.push_back(m);
    return judge_repetition(positions, moves, policy_, static_cast<int>(window));
}

std::optional<BannedMove> Game::ban_for(Move m) const {
    // The cheap test first: a server asks this of every move it accepts.
    if (is_over() || !repetition_possible() || !is_legal(position(), m)) return std::nullopt;
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
