#pragma once
// The two repetition questions the strongest engines answer differently (rules-spec.md, R12 and
// R13). Each is a switch; the defaults follow Pikafish, which the spec makes our reference.

namespace xq {

struct RulesPolicy {
    // R12: a side that checks on some moves of a cycle and chases one piece on all the others.
    enum class CheckAndChase {
        Draw,   // Pikafish, AXF #D12: any check in the cycle makes the chase verdict a draw
        Chase,  // Fairy-Stockfish, Chinese rules: the checks count as part of the chase, which loses
    };
    // R13: a pinned piece attacking the piece that pins it.
    enum class PinnedAttacker {
        ChasesPinner,  // Pikafish: its attack on its pinner is a chase like any other
        NeverChases,   // AXF #D39-41, Fairy-Stockfish: a pinned piece attacks nothing
    };

    CheckAndChase check_and_chase = CheckAndChase::Draw;
    PinnedAttacker pinned_attacker = PinnedAttacker::ChasesPinner;

    // Pikafish's verdicts on both questions (the default).
    static constexpr RulesPolicy pikafish() { return {}; }
    // The stricter reading: check plus chase loses, pinned pieces never chase (FSF's test.py).
    static constexpr RulesPolicy strict() { return {CheckAndChase::Chase, PinnedAttacker::NeverChases}; }

    friend constexpr bool operator==(const RulesPolicy&, const RulesPolicy&) = default;
};

}  // namespace xq
