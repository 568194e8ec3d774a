#pragma once
// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", glicko.net/glicko/glicko2.pdf, 2022):
// a rating, its deviation and a volatility. As on lichess, each rated game is one rating period
// of its own, so a player's rating moves after every game.

#include <span>

namespace xq::ratings {

// A rating on the Glicko scale (the paper's r, RD and sigma).
struct Glicko {
    double rating = 1500.0;  // the paper's step 1 defaults for an unrated player
    double deviation = 350.0;
    double volatility = 0.06;
    friend bool operator==(const Glicko&, const Glicko&) = default;
};

// The system constants. tau constrains the change in volatility; the paper suggests 0.3 to 1.2
// and uses 0.5 in its example, as we do. epsilon is the paper's convergence tolerance (step 5).
struct GlickoSystem {
    double tau = 0.5;
    double epsilon = 0.000001;
};

// A deviation above this is provisional (shown with '?'), lichess's threshold.
inline constexpr double kProvisionalDeviation = 110.0;
inline bool is_provisional(const Glicko& g) { return g.deviation > kProvisionalDeviation; }

// One game of a rating period: the opponent's rating and the score (1 win, 0.5 draw, 0 loss).
struct GameScore {
    Glicko opponent;
    double score = 0.0;
};

// The player's rating after one rating period with these games (steps 2-8 of the paper; no games:
// only the deviation grows, step 6). Volatility by the Illinois algorithm of step 5.
Glicko rate(const Glicko& player, std::span<const GameScore> games, const GlickoSystem& system = {});

// Both sides of one game as its own rating period: red's score is 1, 0.5 or 0.
struct GlickoPair {
    Glicko red;
    Glicko black;
};
GlickoPair rate_game(const Glicko& red, const Glicko& black, double red_score, const GlickoSystem& system = {});

}  // namespace xq::ratings
