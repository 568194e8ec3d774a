// The repetition scenarios R1-R13 of rules-spec.md section 6, each judged through the public API:
// played move by move in a Game (which must end on the last move with the spec's verdict) and,
// for R7, through judge_final_position(). Then cycles in which answering a check must not count
// as a chase (issue 21), and what chased_pieces() keeps for a side in check.

#include <gtest/gtest.h>

#include <sstream>

#include "common/chase.h"
#include "common/fen.h"
#include "common/game.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "common/repetition.h"

namespace xq {
namespace {

enum class Expect { Draw, SideToMoveWins, SideToMoveLoses };

struct Scenario {
    const char* id;
    const char* fen;  // nullptr: the start position
    const char* prefix;
    const char* cycle;  // played twice
    Expect expect;
    Reason reason;
};

std::vector<Move> parse_moves(const std::string& text) {
    std::vector<Move> moves;
    std::istringstream in(text);
    for (std::string word; in >> word;) {
        const auto m = parse_iccs(word);
        EXPECT_TRUE(m) << word;
        if (m) moves.push_back(*m);
    }
    return moves;
}

std::vector<Move> scenario_moves(const Scenario& s) {
    return parse_moves(std::string(s.prefix) + " " + s.cycle + " " + s.cycle);
}

Position scenario_start(const Scenario& s) {
    if (!s.fen) return Position::start();
    const auto pos = parse_fen(s.fen);
    EXPECT_TRUE(pos) << s.fen;
    return pos ? *pos : Position::start();
}

Result expected_result(Expect e, Color to_move) {
    switch (e) {
        case Expect::Draw:
            return Result::Draw;
        case Expect::SideToMoveWins:
            return loss_for(~to_move);
        case Expect::SideToMoveLoses:
            return loss_for(to_move);
    }
    return Result::Ongoing;
}

// Plays every move; the game must stay open until the last one and end there as expected.
Game play_scenario(const Scenario& s, RulesPolicy policy = {}) {
    Game game(scenario_start(s), policy);
    const auto moves = scenario_moves(s);
    for (std::size_t i = 0; i < moves.size(); ++i) {
        EXPECT_FALSE(game.is_over()) << s.id << ": ended early at ply " << i << ": "
                                     << game.outcome().explanation;
        const auto played = game.play(moves[i]);
        EXPECT_TRUE(played) << s.id << " ply " << i + 1 << ": " << (played ? "" : played.error().message);
    }
    EXPECT_TRUE(game.is_over()) << s.id;
    EXPECT_EQ(game.result(), expected_result(s.expect, game.position().side_to_move()))
        << s.id << ": " << game.outcome().explanation;
    EXPECT_EQ(game.outcome().reason, s.reason) << s.id << ": " << game.outcome().explanation;
    return game;
}

const Scenario kR1{"R1", nullptr, "", "b0c2 b9c7 c2b0 c7b9", Expect::Draw, Reason::Repetition};
const Scenario kR2{"R2",
                   "9/9/3k5/R8/3P5/9/9/9/9/4K4 w - - 0 1",
                   "a6a7",
                   "d7d8 a7a8 d8d7 a8a7",
                   Expect::SideToMoveWins,
                   Reason::PerpetualCheck};
const Scenario kR3{"R3",
                   "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
                   "",
                   "d6e6 e4d4 e6d6 d4e4",
                   Expect::SideToMoveWins,
                   Reason::PerpetualCheck};
const Scenario kR4{"R4",
                   "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1",
                   "",
                   "f1e1 f2e2 e1f1 e2f2",
                   Expect::SideToMoveWins,
                   Reason::PerpetualCheck};
const Scenario kR5{"R5",         "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
                   "",           "e3d3 d6e6 d3e3 e6d6",
                   Expect::Draw, Reason::Repetition};
const Scenario kR6{"R6",
                   "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
                   "c2a2",
                   "a7b7 a2b2 b7a7 b2a2",
                   Expect::SideToMoveWins,
                   Reason::PerpetualChase};
const Scenario kR8{"R8",         "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1",
                   "a4a5",       "a6b6 a5b5 b6a6 b5a5",
                   Expect::Draw, Reason::Repetition};
const Scenario kR9{"R9",         "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1",
                   "f6h6",       "h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6",
                   Expect::Draw, Reason::Repetition};
const Scenario kR10a{"R10a",       "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
                     "",           "d0c2 d3c3 c2d0 c3d3",
                     Expect::Draw, Reason::Repetition};
const Scenario kR10b{"R10b",
                     "3k5/9/9/9/9/9/3r5/9/9/3NK4 w - - 0 1",
                     "",
                     "d0c2 d3c3 c2d0 c3d3",
                     Expect::SideToMoveWins,
                     Reason::PerpetualChase};
const Scenario kR11{"R11",
                    "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1",
                    "",
                    "b4c4 b3c3 c4b4 c3b3",
                    Expect::SideToMoveWins,
                    Reason::PerpetualChase};
const Scenario kR12{"R12",        "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
                    "",           "f4d4 f5d5 d4f4 d5f5",
                    Expect::Draw, Reason::Repetition};
const Scenario kR13{"R13",        "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1",
                    "",           "e1f0 h3h1 f0e1 h1h3",
                    Expect::Draw, Reason::Repetition};

TEST(Repetition, R1PlainRepetitionDraws) { play_scenario(kR1); }
TEST(Repetition, R2PerpetualCheckByChariotLoses) { play_scenario(kR2); }
TEST(Repetition, R3IntermittentCheckIsNotPerpetual) { play_scenario(kR3); }
TEST(Repetition, R4SoldierChecksCount) { play_scenario(kR4); }
TEST(Repetition, R5MutualPerpetualCheckDraws) { play_scenario(kR5); }
TEST(Repetition, R6CannonChasingChariotLoses) { play_scenario(kR6); }
TEST(Repetition, R8SoldierMayChase) { play_scenario(kR8); }
TEST(Repetition, R9MutualChaseDraws) { play_scenario(kR9); }
TEST(Repetition, R10aRealRootProtects) { play_scenario(kR10a); }
TEST(Repetition, R10bFacingGeneralsMakeAFakeRoot) { play_scenario(kR10b); }
TEST(Repetition, R11CannonWithoutScreenIsAFakeRoot) { play_scenario(kR11); }

TEST(Repetition, R7ChaserToMoveLoses) {
    // The Game ends at R6's third occurrence, so the three extra plies are refused there; the
    // final position of the longer list is judged on its own, as Pikafish's rule_judge does.
    Game game = play_scenario(kR6);
    const auto extra = parse_moves("a7b7 a2b2 b7a7");
    const auto refused = game.play(extra[0]);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, PlayErrorCode::GameOver);

    auto moves = scenario_moves(kR6);
    moves.insert(moves.end(), extra.begin(), extra.end());
    const Position start = scenario_start(kR6);
    const auto verdict = judge_final_position(start, moves);
    ASSERT_TRUE(verdict);
    EXPECT_EQ(verdict->reason, Reason::PerpetualChase);
    EXPECT_EQ(verdict->offender, Color::Red);  // Red is to move after b7a7: the side to move loses
    EXPECT_EQ(verdict->result, Result::BlackWins);
    EXPECT_EQ(verdict->explanation, "Red loses: perpetual chase of the black chariot, moves 3\u20136.");
}

TEST(Repetition, FinalPositionJudgeAgreesWithGameOnR1ToR11) {
    for (const Scenario& s : {kR1, kR2, kR3, kR4, kR5, kR6, kR8, kR9, kR10a, kR10b, kR11}) {
        const Position start = scenario_start(s);
        const auto moves = scenario_moves(s);
        const auto verdict = judge_final_position(start, moves);
        ASSERT_TRUE(verdict) << s.id;
        Position last = start;
        for (Move m : moves) last.play(m);
        EXPECT_EQ(verdict->result, expected_result(s.expect, last.side_to_move())) << s.id;
        EXPECT_EQ(verdict->reason, s.reason) << s.id;
    }
}

TEST(Repetition, NoVerdictBeforeTheThirdOccurrence) {
    const auto moves = parse_moves("b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0");
    EXPECT_FALSE(judge_final_position(Position::start(), moves));
}

TEST(Repetition, R12CheckAndChaseDrawsByDefault) { play_scenario(kR12); }

TEST(Repetition, R12CheckAndChaseLosesUnderTheStrictPolicy) {
    RulesPolicy policy;
    policy.check_and_chase = RulesPolicy::CheckAndChase::Chase;
    Scenario strict = kR12;
    strict.expect = Expect::SideToMoveLoses;
    strict.reason = Reason::PerpetualChase;
    const Game game = play_scenario(strict, policy);
    EXPECT_EQ(game.outcome().explanation, "Red loses: perpetual chase of the black soldier, moves 1\u20134.");
    play_scenario(strict, RulesPolicy::strict());
}

TEST(Repetition, R13PinnedChariotDrawsByDefault) { play_scenario(kR13); }

TEST(Repetition, R13PinnedPiecesNeverChaseUnderTheStrictPolicy) {
    RulesPolicy policy;
    policy.pinned_attacker = RulesPolicy::PinnedAttacker::NeverChases;
    Scenario strict = kR13;
    strict.expect = Expect::SideToMoveWins;
    strict.reason = Reason::PerpetualChase;
    const Game game = play_scenario(strict, policy);
    EXPECT_EQ(game.outcome().explanation, "Black loses: perpetual chase of the red chariot, moves 1\u20134.");
    play_scenario(strict, RulesPolicy::strict());
}

TEST(Repetition, HardScenariosHoldUnderTheStrictPolicyToo) {
    for (const Scenario& s : {kR1, kR2, kR3, kR4, kR5, kR6, kR8, kR9, kR10a, kR10b, kR11})
        play_scenario(s, RulesPolicy::strict());
}

// Answering a check makes no new attack (rules-spec section 3): an attack that stood before the
// answer, and could not be played only because the side was in check, is no chase. In each cycle
// Red's cannon checks along rank 9 on every other move (a9, the black advisor on d9 its screen)
// and otherwise protects a red piece over the advisor on e8; the advisor's step e8d9 unprotects
// that piece (a real chase), the block d9e8 only lets Black play a capture it already had.
// Red's checks are intermittent and Black chases on half its moves, so every policy draws.
const char* const kAnswerCycle = "a9a8 e8d9 a8a9 d9e8";
// CCPD game 654, moves 89-93: the black horse on e6 and the red horse on f8 (pinned on the open
// f-file, so it cannot strike back).
const Scenario kCheckAnswerGame654{"game 654",   "C4k3/4aN3/3a4b/4n4/9/8P/9/9/4AK3/9 w - - 5 89",
                                   "",           kAnswerCycle,
                                   Expect::Draw, Reason::Repetition};
// A black chariot on h8 attacks the same horse along rank 8.
const Scenario kCheckAnswerChariot{"chariot",    "C4k3/4aN1r1/3a4b/9/9/8P/9/9/4AK3/9 w - - 0 1",
                                   "",           kAnswerCycle,
                                   Expect::Draw, Reason::Repetition};
// A black cannon on f6 attacks it over the advisor on f7.
const Scenario kCheckAnswerCannon{"cannon",     "C4k3/4aN3/5a2b/5c3/9/8P/9/9/4AK3/9 w - - 0 1",
                                  "",           kAnswerCycle,
                                  Expect::Draw, Reason::Repetition};
// The piece attacked is a crossed red soldier on g8, by a black horse on h6.
const Scenario kCheckAnswerSoldier{"soldier",    "C4k3/4a1P2/5a2b/7n1/9/8P/9/9/4AK3/9 w - - 0 1",
                                   "",           kAnswerCycle,
                                   Expect::Draw, Reason::Repetition};

// The strict policy and check-and-chase alone (pinned pieces chasing as in Pikafish).
const RulesPolicy kCheckAndChaseOnly{RulesPolicy::CheckAndChase::Chase,
                                     RulesPolicy::PinnedAttacker::ChasesPinner};

TEST(Repetition, AnsweringACheckIsNoChaseInGame654) {
    for (const RulesPolicy policy : {RulesPolicy::pikafish(), RulesPolicy::strict(), kCheckAndChaseOnly})
        play_scenario(kCheckAnswerGame654, policy);
}

TEST(Repetition, Game654TheForcedBlockIsNotBanned) {
    // The position: Black in check, d9e8 its only legal move, which must stay playable.
    for (const RulesPolicy policy : {RulesPolicy::pikafish(), RulesPolicy::strict()}) {
        Game game(scenario_start(kCheckAnswerGame654), policy);
        for (Move m : parse_moves("a9a8 e8d9 a8a9 d9e8 a9a8 e8d9 a8a9")) ASSERT_TRUE(game.play(m));
        EXPECT_FALSE(game.is_over()) << game.outcome().explanation;
        EXPECT_EQ(legal_moves(game.position()).size(), 1u);
        EXPECT_TRUE(game.banned_moves().empty());
    }
}

TEST(Repetition, AnsweringACheckIsNoChaseForAChariotACannonOrOnASoldier) {
    for (const Scenario& s : {kCheckAnswerChariot, kCheckAnswerCannon, kCheckAnswerSoldier})
        for (const RulesPolicy policy : {RulesPolicy::pikafish(), RulesPolicy::strict(), kCheckAndChaseOnly})
            play_scenario(s, policy);
}

// Is the piece on `target` among those `attacker` chases in this position?
bool chases(const char* fen, Color attacker, const char* target, const RulesPolicy& policy) {
    const auto pos = parse_fen(fen);
    EXPECT_TRUE(pos) << fen;
    const auto square = parse_square(target);
    if (!pos || !square) return false;
    const IdBoard ids = number_pieces(pos->board());
    return (chased_pieces(pos->board(), ids, attacker, policy) >> ids[static_cast<std::size_t>(*square)]) & 1;
}

TEST(Repetition, ASideInCheckKeepsTheAttacksOnlyTheCheckHoldsBack) {
    // Game 654 after a8a9: the horse's capture e6f8 leaves the cannon's check as it was.
    const char* game654 = "C2a1k3/5N3/3a4b/4n4/9/8P/9/9/4AK3/9 b - - 0 92";
    EXPECT_TRUE(chases(game654, Color::Black, "f8", RulesPolicy::pikafish()));
    EXPECT_TRUE(chases(game654, Color::Black, "f8", RulesPolicy::strict()));
    // The red chariot on e5 checks; the black chariot on f8 is the leg the red horse on f7 would
    // check through. Its capture of the cannon on c8 would add that check, so it is no attack even
    // in check. Its capture of the horse, its pinner, leaves only the chariot's check: an attack
    // under Pikafish's policy, none under the strict one (a pinned piece chases nothing).
    const char* pinned = "4k4/2C2r3/5N3/9/4R4/9/9/9/9/3K5 b - - 0 1";
    EXPECT_FALSE(chases(pinned, Color::Black, "c8", RulesPolicy::pikafish()));
    EXPECT_FALSE(chases(pinned, Color::Black, "c8", RulesPolicy::strict()));
    EXPECT_TRUE(chases(pinned, Color::Black, "f7", RulesPolicy::pikafish()));
    EXPECT_FALSE(chases(pinned, Color::Black, "f7", RulesPolicy::strict()));
}

}  // namespace
}  // namespace xq
