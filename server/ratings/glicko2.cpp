#include "glicko2.h"

#include <cmath>
#include <numbers>

namespace xq::ratings {
namespace {

// Step 2: the Glicko-2 scale is the Glicko scale shifted by 1500 and divided by 173.7178
// (400 / ln 10).
constexpr double kScale = 173.7178;
constexpr double kCenter = 1500.0;

double g_of(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi)); }

double expected(double mu, double mu_j, double phi_j) { return 1.0 / (1.0 + std::exp(-g_of(phi_j) * (mu - mu_j))); }

// Step 5: the new volatility, the root of f found by the Illinois variant of regula falsi.
double new_volatility(double sigma, double phi, double v, double delta, const GlickoSystem& system) {
    const double a = std::log(sigma * sigma);
    const double tau2 = system.tau * system.tau;
    const auto f = [&](double x) {
        const double ex = std::exp(x);
        const double d = phi * phi + v + ex;
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / tau2;
    };
    double lo = a;
    double hi;
    if (delta * delta > phi * phi + v) {
        hi = std::log(delta * delta - phi * phi - v);
    } else {
        double k = 1.0;
        while (f(a - k * system.tau) < 0.0) k += 1.0;
        hi = a - k * system.tau;
    }
    double f_lo = f(lo);
    double f_hi = f(hi);
    while (std::abs(hi - lo) > system.epsilon) {
        const double c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
        const double f_c = f(c);
        if (f_c * f_hi <= 0.0) {
            lo = hi;
            f_lo = f_hi;
        } else {
            f_lo /= 2.0;  // Illinois: halve the stale end's value so the bracket keeps shrinking
        }
        hi = c;
        f_hi = f_c;
    }
    return std::exp(lo / 2.0);
}

}  // namespace

Glicko rate(const Glicko& player, std::span<const GameScore> games, const GlickoSystem& system) {
    const double mu = (player.rating - kCenter) / kScale;
    const double phi = player.deviation / kScale;
    if (games.empty()) {
        // Step 6 alone: an idle period only widens the deviation.
        return {player.rating, std::sqrt(phi * phi + player.volatility * player.volatility) * kScale, player.volatility};
    }
    // Steps 3 and 4: the estimated variance v and improvement delta.
    double v_inverse = 0.0;
    double sum = 0.0;
    for (const GameScore& game : games) {
        const double mu_j = (game.opponent.rating - kCenter) / kScale;
        const double phi_j = game.opponent.deviation / kScale;
        const double g = g_of(phi_j);
        const double e = expected(mu, mu_j, phi_j);
        v_inverse += g * g * e * (1.0 - e);
        sum += g * (game.score - e);
    }
    const double v = 1.0 / v_inverse;
    const double delta = v * sum;
    // Steps 5 to 8.
    const double sigma = new_volatility(player.volatility, phi, v, delta, system);
    const double phi_star = std::sqrt(phi * phi + sigma * sigma);
    const double new_phi = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double new_mu = mu + new_phi * new_phi * sum;
    return {new_mu * kScale + kCenter, new_phi * kScale, sigma};
}

GlickoPair rate_game(const Glicko& red, const Glicko& black, double red_score, const GlickoSystem& system) {
    const GameScore for_red[] = {{black, red_score}};
    const GameScore for_black[] = {{red, 1.0 - red_score}};
    return {rate(red, for_red, system), rate(black, for_black, system)};
}

}  // namespace xq::ratings
