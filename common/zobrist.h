#pragma once
// Zobrist keys for repetition detection: a 64-bit key per (piece, square) and one for Black to move.
// Generated at compile time from a fixed seed, so hashes are stable across runs and builds.

#include <array>
#include <cstdint>

#include "types.h"

namespace xq::zobrist {

struct Keys {
    std::array<std::array<std::uint64_t, kSquares>, 16> piece_square{};
    std::uint64_t black_to_move = 0;
};

namespace detail {

// SplitMix64: a tiny, well-mixed generator that runs in a constant expression.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

constexpr Keys make_keys() {
    Keys k{};
    std::uint64_t state = 0x5851f42d4c957f2dULL;
    for (auto& row : k.piece_square)
        for (auto& key : row) key = splitmix64(state);
    k.black_to_move = splitmix64(state);
    return k;
}

}  // namespace detail

inline constexpr Keys kKeys = detail::make_keys();

constexpr std::uint64_t key(Piece p, Square s) { return kKeys.piece_square[index_of(p)][s]; }

}  // namespace xq::zobrist
