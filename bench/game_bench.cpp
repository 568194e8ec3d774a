// Cost of Game::play per move, repetition bookkeeping included, against bare Position::play plus
// is_legal measured in the same run. Games: the longest real games of tests/data/games plus random
// games biased to quiet moves, which keep long capture-free stretches for the repetition scan.
// Each move is timed on its own; the medians and their ratio are printed. Moves that complete a
// 3-fold cycle (and run the full verdict) are reported apart.
//
// usage: game_bench [ROUNDS]   (default 5)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "common/game.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "support/test_data.h"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

double ns_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::nano>(b - a).count();
}

// Real games of at least min_plies plies.
std::vector<std::vector<xq::Move>> long_real_games(std::size_t min_plies) {
    std::vector<std::vector<xq::Move>> games;
    for (const auto& record : xq::test::load_games(xq::test::data_path("games/games.tsv"))) {
        if (record.iccs.size() < min_plies) continue;
        std::vector<xq::Move> moves;
        for (const auto& text : record.iccs) moves.push_back(*xq::parse_iccs(text));
        games.push_back(std::move(moves));
    }
    return games;
}

// Random games played through Game until it ends: quiet moves nine times out of ten.
std::vector<std::vector<xq::Move>> random_games(int count, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::vector<xq::Move>> games;
    for (int g = 0; g < count; ++g) {
        xq::Game game;
        while (!game.is_over() && game.ply_count() < 400) {
            const xq::MoveList list = xq::legal_moves(game.position());
            std::vector<xq::Move> quiet, captures;
            for (xq::Move m : list)
                (game.position().at(m.to()) == xq::Piece::None ? quiet : captures).push_back(m);
            const bool take = !captures.empty() && (quiet.empty() || rng() % 10 == 0);
            const auto& pool = take ? captures : quiet;
            (void)game.play(pool[rng() % pool.size()]);
        }
        games.push_back(game.moves());
    }
    return games;
}

struct Samples {
    std::vector<double> plain;  // moves that complete no cycle
    std::vector<double> cycle;  // moves that end the game by a repetition verdict
};

void time_game(const std::vector<xq::Move>& moves, Samples& out) {
    xq::Game game;
    for (xq::Move m : moves) {
        const auto t0 = Clock::now();
        const auto played = game.play(m);
        const auto t1 = Clock::now();
        if (!played) break;
        const xq::Reason r = game.outcome().reason;
        const bool cycle =
            r == xq::Reason::Repetition || r == xq::Reason::PerpetualCheck || r == xq::Reason::PerpetualChase;
        (cycle ? out.cycle : out.plain).push_back(ns_between(t0, t1));
    }
}

void time_reference(const std::vector<xq::Move>& moves, std::vector<double>& out, int& sink) {
    xq::Position pos = xq::Position::start();
    for (xq::Move m : moves) {
        const auto t0 = Clock::now();
        const bool ok = xq::is_legal(pos, m);
        pos.play(m);
        const auto t1 = Clock::now();
        sink += ok;
        out.push_back(ns_between(t0, t1));
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    auto games = long_real_games(120);
    const std::size_t real = games.size();
    auto random = random_games(200, 20240601);
    games.insert(games.end(), random.begin(), random.end());
    std::size_t plies = 0;
    for (const auto& g : games) plies += g.size();

    Samples ours;
    std::vector<double> reference, timer;
    int sink = 0;
    for (int r = 0; r < rounds; ++r) {
        // Alternate per game so machine load hits both measurements alike.
        for (const auto& g : games) {
            time_game(g, ours);
            time_reference(g, reference, sink);
        }
    }
    for (int i = 0; i < 100000; ++i) {
        const auto t0 = Clock::now();
        timer.push_back(ns_between(t0, Clock::now()));
    }
    const double game_ns = median(ours.plain), ref_ns = median(reference);
    std::printf("games: %zu real (>= 120 plies) + %zu random, %zu plies, %d rounds (check %d)\n", real,
                random.size(), plies, rounds, sink > 0);
    std::printf("timer overhead (median, included in both figures): %.0f ns\n", median(timer));
    std::printf("Game::play, move completing no cycle: median %.0f ns over %zu moves (target < 2000 ns)\n",
                game_ns, ours.plain.size());
    std::printf("Game::play, move completing a 3-fold cycle: median %.0f ns over %zu moves\n",
                median(ours.cycle), ours.cycle.size());
    std::printf("reference is_legal + Position::play: median %.0f ns\n", ref_ns);
    std::printf("ratio Game::play / reference: %.2fx\n", game_ns / ref_ns);
    return game_ns < 2000 ? 0 : 1;
}
