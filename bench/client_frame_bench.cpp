// The client's cost (./xq bench client). First at rest (client_idle.h): the CPU of a real client
// in a lobby listing a live game and watching a game nobody moves in, each against its target.
// Then the frame time of the game screen: a full middlegame board, a piece selected with its
// destinations, the move list, and a ticking clock, drawn and displayed frame after frame without
// a frame-rate cap. The reference, in the same run and window, is a frame that only clears and
// displays: the floor this display imposes on any frame.
//
// usage: client_frame_bench [FRAMES] [--idle-seconds S] [--client PATH] [--idle-only --max-fps F]
// --client measures another build's client at rest (an A/B); --idle-only --max-fps F is the smoke
// test: it fails when a client at rest drew more than F frames a second over its life.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "client_idle.h"

#include "client/net/discovery_browser.h"
#include "client/online/online_client.h"
#include "client/view/game_screen.h"
#include "common/iccs.h"

using namespace xq;
using namespace xq::client;
using Clock = std::chrono::steady_clock;

namespace {

struct Stats {
    double median_ms, p99_ms, max_ms;
};

Stats stats(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size())))]; };
    return {at(0.5), at(0.99), ms.back()};
}

// The idle rows: each figure beside its target, and whether the frame rate stayed under `max_fps`.
bool idle_rows(const bench::IdleRun& run, std::optional<double> max_fps) {
    const auto rows = bench::measure_idle(run);
    if (!rows) {
        std::fprintf(stderr, "client at rest: %s\n", rows.error().c_str());
        return false;
    }
    bool ok = true;
    for (const auto& r : *rows) {
        std::printf("client at rest, %s (%.0f s): CPU %.2f%% of a core; target < %.0f%%: ratio %.3f, %s", r.what.c_str(),
                    run.seconds, r.cpu_percent, r.target_percent, r.cpu_percent / r.target_percent,
                    r.cpu_percent < r.target_percent ? "met" : "NOT met");
        if (r.frames) {
            const double fps = static_cast<double>(*r.frames) / r.frames_over_seconds;
            std::printf("; %ld frames in its %.1f s (%.2f a second)\n", *r.frames, r.frames_over_seconds, fps);
            if (max_fps && fps > *max_fps) {
                std::printf("  more than %.1f frames a second at rest\n", *max_fps);
                ok = false;
            }
        } else {
            std::printf("; frames not counted (this client has no --frame-count)\n");
            if (max_fps) ok = false;
        }
    }
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    int frames = 600;
    bench::IdleRun run{XQ_SERVER_BIN, XQ_CLIENT_BIN};
    bool idle_only = false;
    std::optional<double> max_fps;
    for (int i = 1; i < argc; ++i) {
        const bool has_value = i + 1 < argc;
        if (!std::strcmp(argv[i], "--idle-seconds") && has_value) run.seconds = std::max(1.0, std::atof(argv[++i]));
        else if (!std::strcmp(argv[i], "--client") && has_value) run.client = argv[++i];
        else if (!std::strcmp(argv[i], "--idle-only")) idle_only = true;
        else if (!std::strcmp(argv[i], "--max-fps") && has_value) max_fps = std::atof(argv[++i]);
        else if (std::atoi(argv[i]) > 0) frames = std::max(50, std::atoi(argv[i]));
        else {
            std::fprintf(stderr, "client_frame_bench: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!std::getenv("DISPLAY")) {
        std::fprintf(stderr, "client_frame_bench: needs an X display (./xq bench client runs it under Xvfb)\n");
        return 77;  // skipped, for CTest
    }
    const bool idle_ok = idle_rows(run, max_fps);
    if (idle_only) return idle_ok ? 0 : 1;

    sf::RenderWindow window(sf::VideoMode(1180, 780), "xiangqi frame bench");
    window.setFramerateLimit(0);
    window.setVerticalSyncEnabled(false);
    Resources resources(true);
    GameModel game;
    LobbyModel lobby;
    OnlineClient online(game, lobby);
    DiscoveryBrowser discovery;
    ScreenContext ctx(resources, game, lobby, online, discovery);
    ctx.status = "connected to bench";
    GameScreen screen(ctx);
    // A middlegame of 24 plies, Red to move, a chariot picked up, both clocks known and Red's running.
    std::vector<Move> moves;
    for (const char* m : {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5", "c3c4", "c5c4",
                          "e2e6", "a9a8", "g3g4", "a8d8", "b2b6", "d8d6", "e6e5", "c7d5", "c2d4", "h7h3",
                          "h0h3", "h9h3"})
        moves.push_back(*parse_iccs(m));
    if (auto ok = game.reset(Position::start(), moves, Role::Red); !ok) {
        std::fprintf(stderr, "bench position: %s\n", ok.error().c_str());
        return 1;
    }
    game.set_seat(Color::Red, {"Red player", true, std::nullopt});
    game.set_seat(Color::Black, {"Black player", true, std::nullopt});
    game.set_clock({287'000, 301'000, Color::Red, std::nullopt}, SteadyClock::now());
    for (Square s = 0; s < kSquares; ++s)  // pick up the piece with the most destinations
        if (game.shown_position().at(s) != Piece::None && color_of(game.shown_position().at(s)) == Color::Red) {
            game.click(s);
            if (game.highlights().size() >= 6) break;
            game.deselect();
        }

    const auto measure = [&](bool full) {
        std::vector<double> ms;
        for (int i = 0; i < frames; ++i) {
            const auto t0 = Clock::now();
            sf::Event event;
            while (window.pollEvent(event)) {
            }
            window.clear(ui::color::kBackground);
            if (full) {
                ui::Input in;
                in.mouse = {300, 300};
                screen.draw(window, in, SteadyClock::now());
            }
            window.display();
            ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        return ms;
    };
    measure(true);  // warm-up: glyphs rasterised into the font's texture
    const Stats reference = stats(measure(false));
    const Stats full = stats(measure(true));
    std::printf("reference (clear + display): median %.2f ms  p99 %.2f ms  max %.2f ms\n", reference.median_ms,
                reference.p99_ms, reference.max_ms);
    std::printf("game screen (%d frames, %zu highlights, clock ticking): median %.2f ms  p99 %.2f ms  max %.2f ms\n",
                frames, game.highlights().size(), full.median_ms, full.p99_ms, full.max_ms);
    std::printf("ratio median/reference %.2fx; target median <= 8 ms: %s; no frame over 33 ms: %s\n",
                full.median_ms / std::max(0.001, reference.median_ms), full.median_ms <= 8 ? "met" : "NOT met",
                full.max_ms <= 33 ? "met" : "NOT met");
    return idle_ok ? 0 : 1;
}
