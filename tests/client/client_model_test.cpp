// The client model without a display: board geometry (pixels to points, flipped or not), selection
// and highlights against the rules library, pending and refused moves, clocks and notation.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "client/model/board_geometry.h"
#include "client/model/clock_model.h"
#include "client/model/frame_schedule.h"
#include "client/model/game_model.h"
#include "client/model/layout.h"
#include "client/model/hotseat_game.h"
#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"
#include "support/test_data.h"

namespace xq::client {
namespace {

// The lobby's time-control picker as it starts: its height places the forms under it.
const TimeControlPicker kLobbyPicker{false, kLobbyDefaultControl};

Move mv(std::string_view text) { return *parse_iccs(text); }
Square sq(std::string_view text) { return *parse_square(text); }

std::vector<Move> moves_of(const std::string& text) {
    std::vector<Move> out;
    for (const auto& w : test::split_words(text)) out.push_back(mv(w));
    return out;
}

TEST(BoardGeometry, EveryPointMapsBackToItsSquare) {
    for (bool flipped : {false, true}) {
        const BoardGeometry g({10, 20, 500, 600}, flipped);
        for (Square s = 0; s < kSquares; ++s) {
            const Point c = g.center(s);
            EXPECT_EQ(g.square_at(c), s);
            EXPECT_EQ(g.square_at({c.x + 0.4f * g.cell(), c.y}), s);  // anywhere on the disc
        }
    }
}

TEST(BoardGeometry, RedAtTheBottomUnlessFlipped) {
    const BoardGeometry normal({0, 0, 500, 550}, false);
    const BoardGeometry flipped({0, 0, 500, 550}, true);
    EXPECT_EQ(normal.cell(), 50.0f);
    // a0 (Red's left corner) is bottom left; flipped, it is top right.
    EXPECT_FLOAT_EQ(normal.center(sq("a0")).x, 50);
    EXPECT_FLOAT_EQ(normal.center(sq("a0")).y, 500);
    EXPECT_FLOAT_EQ(flipped.center(sq("a0")).x, 450);
    EXPECT_FLOAT_EQ(flipped.center(sq("a0")).y, 50);
    EXPECT_EQ(flipped.square_at({450, 50}), sq("a0"));
    EXPECT_EQ(normal.square_at({450, 50}), sq("i9"));
}

TEST(BoardGeometry, PointsBetweenIntersectionsAndOffTheBoardAreNoSquare) {
    const BoardGeometry g({0, 0, 500, 550}, false);
    EXPECT_EQ(g.square_at({75, 75}), std::nullopt);  // the middle of a cell
    EXPECT_EQ(g.square_at({2, 2}), std::nullopt);    // the margin
    EXPECT_EQ(g.square_at({-300, 100}), std::nullopt);
    EXPECT_EQ(g.square_at({100, 5000}), std::nullopt);
}

// The river's words once lay under the pieces standing on ranks 4 and 5: now no disc on those
// ranks touches any of them, at any board size.
TEST(BoardGeometry, NoPieceOnTheRiverCoversItsWords) {
    for (float size : {200.0f, 317.0f, 480.0f, 999.0f, 2400.0f}) {
        const BoardGeometry g({0, 0, size, size * 1.1f}, false);
        const float radius = BoardGeometry::kPieceRadius * g.cell();
        for (const Rect& word : g.river_words()) {
            EXPECT_GT(word.w, 0.35f * g.cell()) << "a word too small to read at size " << size;
            for (int file = 0; file < 9; ++file)
                for (int rank : {4, 5}) {
                    const Point p = g.center(make_square(file, rank));
                    // The distance from the point to the nearest point of the word's square.
                    const float dx = std::max({word.x - p.x, 0.0f, p.x - (word.x + word.w)});
                    const float dy = std::max({word.y - p.y, 0.0f, p.y - (word.y + word.h)});
                    EXPECT_GE(std::sqrt(dx * dx + dy * dy), radius) << "size " << size << " file " << file;
                }
        }
    }
}

TEST(BoardGeometry, KeepsCellsSquareInAnyWindowShape) {
    const BoardGeometry wide({0, 0, 1000, 220}, false);
    EXPECT_FLOAT_EQ(wide.cell(), 20);
    EXPECT_FLOAT_EQ(wide.outer().x, 400);  // centred
    const BoardGeometry tall({0, 0, 100, 1000}, false);
    EXPECT_FLOAT_EQ(tall.cell(), 10);
}

std::set<Square> destinations(const GameModel& m) {
    std::set<Square> out;
    for (const auto& h : m.highlights()) out.insert(h.to);
    return out;
}

// Selecting each piece of the side to move highlights exactly its legal destinations, with
// captures marked, in positions from real games.
bool inside(const Rect& inner, const Rect& outer) {
    return inner.x >= outer.x - 0.5f && inner.y >= outer.y - 0.5f && inner.x + inner.w <= outer.x + outer.w + 0.5f &&
           inner.y + inner.h <= outer.y + outer.h + 0.5f;
}
bool overlap(const Rect& a, const Rect& b) {
    return a.x < b.x + b.w - 0.5f && b.x < a.x + a.w - 0.5f && a.y < b.y + b.h - 0.5f && b.y < a.y + a.h - 0.5f;
}

// Issue 17: at 790 x 520 the lobby's right column was cut off. From the least size up, and in wide
// and tall windows, every part of every screen lies inside the window and apart from the others.
TEST(Layout, EveryPartFitsFromTheLeastWindowUp) {
    const std::pair<float, float> sizes[] = {{640, 480}, {790, 520}, {1000, 700}, {1180, 780}, {1920, 1080},
                                             {640, 1000}, {2400, 600}};
    for (const auto& [w, h] : sizes) {
        const Rect window{0, 0, w, h};
        const GameLayout game = game_layout(w, h);
        EXPECT_TRUE(inside(game.board, window) && inside(game.panel, window)) << w << "x" << h;
        EXPECT_FALSE(overlap(game.board, game.panel)) << w << "x" << h;
        // The board's cells stay big enough to hit a piece with the mouse.
        EXPECT_GE(BoardGeometry(game.board, false).cell(), 30.0f) << w << "x" << h;
        for (bool chat : {false, true})
            for (int offers : {0, 1, 2}) {
                const PanelLayout p = panel_layout(game.panel, chat, offers);
                const Rect parts[] = {p.top_player, p.moves, p.bottom_player, p.status, p.offers, p.buttons, p.chat, p.footer};
                for (std::size_t i = 0; i < std::size(parts); ++i) {
                    EXPECT_TRUE(inside(parts[i], game.panel)) << w << "x" << h << " part " << i << " offers " << offers;
                    for (std::size_t j = i + 1; j < std::size(parts); ++j) {
                        if (parts[i].h > 0 && parts[j].h > 0) {
                            EXPECT_FALSE(overlap(parts[i], parts[j])) << w << "x" << h << " parts " << i << ", " << j;
                        }
                    }
                }
                EXPECT_GE(p.moves.h, 44.0f);
                EXPECT_TRUE(inside(p.button(3, 3), p.buttons));
                if (chat) {
                    EXPECT_TRUE(inside(p.chat_input(), p.chat));
                }
            }
        const LobbyLayout lobby = lobby_layout(w, h);
        const Rect parts[] = {lobby.header, lobby.lists, lobby.forms, lobby.bar, lobby.status};
        for (std::size_t i = 0; i < std::size(parts); ++i) {
            EXPECT_TRUE(inside(parts[i], window)) << w << "x" << h << " lobby part " << i;
            for (std::size_t j = i + 1; j < std::size(parts); ++j)
                EXPECT_FALSE(overlap(parts[i], parts[j])) << w << "x" << h << " lobby parts " << i << ", " << j;
        }
        for (const Rect& tab : lobby.tabs()) EXPECT_TRUE(inside(tab, lobby.lists));
        // The forms scroll: their parts need only fit the column's width.
        const LobbyForms forms = lobby_forms(lobby.forms, lobby.forms.y, kLobbyPicker, false);
        for (const Rect& r : {forms.game_field, forms.code_field, forms.join_button}) {
            EXPECT_TRUE(inside(r, forms.private_join)) << w << "x" << h;
            EXPECT_GE(r.w, 80.0f) << w << "x" << h;
        }
    }
}

TEST(GameModel, HighlightsAreTheLegalDestinations) {
    const auto games = test::load_games(test::data_path("games/games.tsv"));
    ASSERT_GT(games.size(), 40u);
    int positions = 0;
    for (std::size_t g = 0; g < 40; ++g) {
        GameModel model;
        ASSERT_TRUE(model.reset(Position::start(), {}, Role::Hotseat));
        for (std::size_t ply = 0; ply < games[g].iccs.size() && ply < 60; ply += 1) {
            const Position pos = model.shown_position();
            if (ply % 7 == 0) {
                ++positions;
                for (Square s = 0; s < kSquares; ++s) {
                    const Piece p = pos.at(s);
                    if (p == Piece::None || color_of(p) != pos.side_to_move()) continue;
                    EXPECT_EQ(model.click(s), std::nullopt);
                    ASSERT_EQ(model.selected(), s);
                    std::set<Square> want;
                    for (Move m : legal_moves_from(pos, s)) want.insert(m.to());
                    EXPECT_EQ(destinations(model), want) << to_fen(pos) << " " << square_name(s);
                    for (const auto& h : model.highlights())
                        EXPECT_EQ(h.kind == HighlightKind::Capture, pos.at(h.to) != Piece::None);
                    model.deselect();
                }
            }
            if (!model.play_local(mv(games[g].iccs[ply]))) break;
            if (model.result()) break;
        }
    }
    EXPECT_GT(positions, 200);
}

TEST(GameModel, ClicksSelectReselectDeselectAndMove) {
    GameModel m;
    ASSERT_TRUE(m.reset(Position::start(), {}, Role::Red));
    EXPECT_EQ(m.click(sq("h9")), std::nullopt);  // Black's horse: not ours
    EXPECT_EQ(m.selected(), std::nullopt);
    EXPECT_EQ(m.click(sq("h2")), std::nullopt);
    EXPECT_EQ(m.selected(), sq("h2"));
    EXPECT_EQ(m.click(sq("b2")), std::nullopt);  // another own piece: reselect
    EXPECT_EQ(m.selected(), sq("b2"));
    EXPECT_EQ(m.click(sq("b2")), std::nullopt);  // the same piece again: put it down
    EXPECT_EQ(m.selected(), std::nullopt);
    m.click(sq("h2"));
    EXPECT_EQ(m.click(sq("d5")), std::nullopt);  // not a destination: deselects, and says why
    EXPECT_EQ(m.selected(), std::nullopt);
    EXPECT_EQ(m.notice(), "The cannon cannot move there.");
    EXPECT_EQ(m.take_cues().back(), SoundCue::Refused);
    m.click(sq("h2"));
    EXPECT_EQ(m.click(sq("e2")), mv("h2e2"));
    EXPECT_TRUE(m.highlights().empty());
}

TEST(GameModel, OnlyTheSideToMoveMovesAndSpectatorsNever) {
    GameModel black;
    ASSERT_TRUE(black.reset(Position::start(), {}, Role::Black));
    EXPECT_FALSE(black.can_move());
    EXPECT_EQ(black.click(sq("h9")), std::nullopt);  // out of turn: picked up for a premove at most
    EXPECT_EQ(black.click(sq("g7")), std::nullopt);
    ASSERT_TRUE(black.apply_move(1, mv("h2e2")));
    EXPECT_TRUE(black.can_move());

    GameModel watcher;
    ASSERT_TRUE(watcher.reset(Position::start(), {}, Role::Spectator));
    EXPECT_FALSE(watcher.can_move());
    EXPECT_FALSE(watcher.begin_drag(sq("h2")));
}

// A click on the board while looking at an earlier move returns to the game and counts there.
TEST(GameModel, AClickWhileBrowsingReturnsToTheGameAndCounts) {
    GameModel m;
    ASSERT_TRUE(m.reset(Position::start(), {}, Role::Red));
    ASSERT_TRUE(m.apply_move(1, mv("h2e2")));
    ASSERT_TRUE(m.apply_move(2, mv("h9g7")));
    m.step(-2);
    EXPECT_FALSE(m.following_live());
    EXPECT_EQ(m.click(sq("h0")), std::nullopt);
    EXPECT_TRUE(m.following_live());
    EXPECT_EQ(m.selected(), sq("h0"));
    EXPECT_EQ(m.click(sq("g2")), mv("h0g2"));
}

TEST(GameModel, PendingMoveShowsAtOnceAndTheServerConfirmsIt) {
    GameModel m;
    ASSERT_TRUE(m.reset(Position::start(), {}, Role::Red));
    m.begin_pending(mv("h2e2"), 7);
    ASSERT_TRUE(m.pending());
    EXPECT_EQ(m.pending()->ply, 0);
    EXPECT_TRUE(m.showing_pending());
    EXPECT_EQ(m.shown_position().at(sq("e2")), make_piece(Color::Red, PieceType::Cannon));
    EXPECT_EQ(m.last_move_shown(), mv("h2e2"));
    EXPECT_FALSE(m.can_move());  // one move at a time
    EXPECT_EQ(m.ply_count(), 0);
    ASSERT_TRUE(m.apply_move(1, mv("h2e2")));  // the server's MoveMade
    EXPECT_FALSE(m.pending());
    EXPECT_EQ(m.ply_count(), 1);
    EXPECT_EQ(m.shown_position().at(sq("e2")), make_piece(Color::Red, PieceType::Cannon));
    const auto cues = m.take_cues();
    EXPECT_EQ(cues, std::vector<SoundCue>{SoundCue::Move});  // one sound: when it was played
}

TEST(GameModel, RefusedMoveReturnsTheBoardAndSaysWhy) {
    GameModel m;
    ASSERT_TRUE(m.reset(Position::start(), {}, Role::Red));
    m.begin_pending(mv("h2e2"), 1);
    m.refuse_pending("the game is at ply 1, not 0");
    EXPECT_FALSE(m.pending());
    EXPECT_EQ(m.shown_position(), Position::start());
    EXPECT_EQ(m.notice(), "the game is at ply 1, not 0");
    EXPECT_TRUE(m.can_move());
}

TEST(GameModel, ServerMovesInOrderGapsAndContradictionsAreErrors) {
    GameModel m;
    ASSERT_TRUE(m.reset(Position::start(), {}, Role::Spectator));
    ASSERT_TRUE(m.apply_move(1, mv("h2e2")));
    EXPECT_TRUE(m.apply_move(1, mv("h2e2")));   // a repeat is harmless
    EXPECT_FALSE(m.apply_move(1, mv("b2e2")));  // a different first move: contradiction
    EXPECT_FALSE(m.apply_move(3, mv("h0g2")));  // move 2 missing
    EXPECT_FALSE(m.apply_move(2, mv("a0a5")));  // not legal
    EXPECT_EQ(m.ply_count(), 1);
}

TEST(GameModel, DropOnALegalPointMovesAnIllegalDropSnapsBack) {
    GameModel m;
    ASSERT_TRUE(m.reset(Position::start(), {}, Role::Hotseat));
    ASSERT_TRUE(m.begin_drag(sq("b0")));
    EXPECT_EQ(m.dragging(), sq("b0"));
    EXPECT_EQ(m.drop(sq("b5")), std::nullopt);  // a horse cannot go there
    EXPECT_EQ(m.selected(), std::nullopt);
    EXPECT_EQ(m.dragging(), std::nullopt);
    ASSERT_TRUE(m.begin_drag(sq("b0")));
    EXPECT_EQ(m.drop(sq("c2")), mv("b0c2"));
    ASSERT_TRUE(m.begin_drag(sq("h0")));
    EXPECT_EQ(m.drop(std::nullopt), std::nullopt);  // dropped off the board
}

TEST(GameModel, MovesBannedByRepetitionAreGreyedWithTheReason) {
    GameModel m;
    ASSERT_TRUE(m.reset(*parse_fen("9/9/3k5/R8/3P5/9/9/9/9/4K4 w - - 0 1"),
                        moves_of("a6a7 d7d8 a7a8 d8d7 a8a7 d7d8 a7a8 d8d7"), Role::Red));
    m.click(sq("a8"));
    const auto it = std::find_if(m.highlights().begin(), m.highlights().end(),
                                 [](const Highlight& h) { return h.to == sq("a7"); });
    ASSERT_NE(it, m.highlights().end());
    EXPECT_EQ(it->kind, HighlightKind::Banned);
    EXPECT_NE(it->reason.find("perpetual check"), std::string::npos);
    EXPECT_EQ(m.click(sq("a7")), std::nullopt);  // a banned point plays nothing
    EXPECT_EQ(m.notice(), it->reason);
}

TEST(GameModel, SteppingBackStopsFollowingUntilTheEnd) {
    GameModel m;
    ASSERT_TRUE(m.reset(Position::start(), moves_of("h2e2 h9g7 h0g2"), Role::Spectator));
    EXPECT_EQ(m.view_ply(), 3);
    m.step(-2);
    EXPECT_EQ(m.view_ply(), 1);
    EXPECT_FALSE(m.following_live());
    EXPECT_EQ(m.last_move_shown(), mv("h2e2"));
    ASSERT_TRUE(m.apply_move(4, mv("i9h9")));
    EXPECT_EQ(m.view_ply(), 1);  // not pulled to the live position
    m.step(-5);
    EXPECT_EQ(m.view_ply(), 0);
    EXPECT_EQ(m.last_move_shown(), std::nullopt);
    m.go_live();
    EXPECT_EQ(m.view_ply(), 4);
    ASSERT_TRUE(m.apply_move(5, mv("g3g4")));
    EXPECT_EQ(m.view_ply(), 5);  // following again
}

TEST(GameModel, CheckCapturesAndSounds) {
    GameModel m;
    // The five-ply mate: b2b4 a6a5 b4c4 f9e8 c4c9.
    ASSERT_TRUE(m.reset(Position::start(), {}, Role::Hotseat));
    for (const char* t : {"b2b4", "a6a5", "b4c4", "f9e8"}) ASSERT_TRUE(m.play_local(mv(t)));
    m.take_cues();
    ASSERT_TRUE(m.play_local(mv("c4c9")));
    EXPECT_EQ(m.general_in_check(), sq("e9"));
    EXPECT_EQ(m.take_cues(), (std::vector<SoundCue>{SoundCue::Check, SoundCue::GameEnd}));
    ASSERT_TRUE(m.result());
    EXPECT_EQ(m.result()->result, Result::RedWins);
    EXPECT_EQ(m.result()->reason, "checkmate");
    EXPECT_FALSE(m.result()->explanation.empty());
    EXPECT_EQ(m.captured(Color::Black), std::vector<Piece>{make_piece(Color::Black, PieceType::Elephant)});
    EXPECT_TRUE(m.captured(Color::Red).empty());
    EXPECT_FALSE(m.can_move());
}

TEST(GameModel, NotationSwitchRendersEveryMoveAgain) {
    GameModel m;
    ASSERT_TRUE(m.reset(Position::start(), moves_of("h2e2 h9g7"), Role::Spectator));
    // Traditional by default: the board draws its pieces in the same glyphs (馬, not 马).
    EXPECT_EQ(m.move_texts(), (std::vector<std::string>{"炮二平五", "馬8進7"}));
    m.set_notation(Notation::Chinese);
    EXPECT_EQ(m.move_texts(), (std::vector<std::string>{"炮二平五", "马8进7"}));
    m.set_notation(Notation::Wxf);
    EXPECT_EQ(m.move_texts(), (std::vector<std::string>{"C2=5", "H8+7"}));
    ASSERT_TRUE(m.apply_move(3, mv("h0g2")));
    EXPECT_EQ(m.move_texts().back(), "H2+3");
    m.set_notation(Notation::Iccs);
    EXPECT_EQ(m.move_texts(), (std::vector<std::string>{"h2e2", "h9g7", "h0g2"}));
}

// The move list and the board's pieces read alike: every move's text holds the glyph of the piece
// moved, as chinese_glyph gives it to the board, in either Chinese set.
TEST(GameModel, TheMoveListWritesTheGlyphsTheBoardDraws) {
    GameModel m;
    ASSERT_TRUE(m.reset(Position::start(), moves_of("h0g2 h9g7 a0a1 a9a8 b2e2 b7e7 g3g4 c6c5 f0e1 d9e8 g0i2 g9i7 "
                                                    "e0f0 e9d9"),
                        Role::Spectator));
    for (Notation n : {Notation::ChineseTraditional, Notation::Chinese}) {
        m.set_notation(n);
        for (int ply = 0; ply < m.ply_count(); ++ply) {
            const Move move = m.moves()[static_cast<std::size_t>(ply)];
            const Piece piece = m.position_at(ply).at(move.from());
            const std::string& text = m.move_texts()[static_cast<std::size_t>(ply)];
            EXPECT_NE(text.find(chinese_glyph(piece, n)), std::string::npos) << text << " in " << to_string(n);
        }
    }
}

TEST(GameModel, TakebackAndOffersLapseOnAMove) {
    GameModel m;
    ASSERT_TRUE(m.reset(Position::start(), moves_of("h2e2 h9g7"), Role::Red));
    m.set_offer(OfferType::Draw, Color::Black);
    EXPECT_EQ(m.offer_by(OfferType::Draw), Color::Black);
    ASSERT_TRUE(m.apply_move(3, mv("h0g2")));
    EXPECT_EQ(m.offer_by(OfferType::Draw), std::nullopt);
    ASSERT_TRUE(m.take_back(2));
    EXPECT_EQ(m.ply_count(), 1);
    EXPECT_FALSE(m.take_back(5));
}

TEST(HotseatGame, ResignDrawAndTakeback) {
    GameModel m;
    HotseatGame hotseat(m);
    hotseat.move(mv("h2e2"));
    hotseat.offer(OfferType::Takeback);
    EXPECT_EQ(m.ply_count(), 0);
    hotseat.move(mv("h2e2"));
    hotseat.resign();  // Black to move resigns
    ASSERT_TRUE(m.result());
    EXPECT_EQ(m.result()->result, Result::RedWins);
    hotseat.new_game();
    EXPECT_FALSE(m.result());
    hotseat.offer(OfferType::Draw);
    EXPECT_EQ(m.result()->result, Result::Draw);
}

TEST(ClockModel, CountsDownTheRunningSideOnly) {
    ClockModel c;
    const TimePoint t0 = SteadyClock::now();
    c.set({300'000, 200'000, Color::Red, std::nullopt}, t0);
    EXPECT_EQ(c.remaining(Color::Red, t0 + std::chrono::seconds(3)), 297'000);
    EXPECT_EQ(c.remaining(Color::Black, t0 + std::chrono::seconds(3)), 200'000);
    EXPECT_EQ(c.remaining(Color::Red, t0 + std::chrono::hours(1)), 0);  // never negative
    EXPECT_FALSE(c.low(Color::Red, t0));
    EXPECT_TRUE(c.low(Color::Red, t0 + std::chrono::milliseconds(285'000)));
    // A server update replaces the local count.
    c.set({290'000, 200'000, Color::Black, std::nullopt}, t0 + std::chrono::seconds(10));
    EXPECT_EQ(c.remaining(Color::Red, t0 + std::chrono::seconds(20)), 290'000);
    EXPECT_EQ(c.remaining(Color::Black, t0 + std::chrono::seconds(20)), 190'000);
}

TEST(ClockModel, PerMoveCapWarnsWhenItRunsLow) {
    ClockModel c;
    const TimePoint t0 = SteadyClock::now();
    c.set({600'000, 600'000, Color::Black, 30'000}, t0);
    EXPECT_EQ(c.move_cap_left(t0 + std::chrono::seconds(5)), 25'000);
    EXPECT_FALSE(c.low(Color::Black, t0 + std::chrono::seconds(5)));
    EXPECT_TRUE(c.low(Color::Black, t0 + std::chrono::seconds(25)));
}

TEST(ClockModel, FirstMoveAllowanceCountsDownWhileNoClockRuns) {
    ClockModel c;
    const TimePoint t0 = SteadyClock::now();
    c.set({300'000, 300'000, std::nullopt, std::nullopt, 30'000}, t0);
    EXPECT_EQ(c.first_move_left(t0 + std::chrono::seconds(12)), 18'000);
    EXPECT_EQ(c.first_move_left(t0 + std::chrono::minutes(1)), 0);  // never negative
    EXPECT_EQ(c.remaining(Color::Red, t0 + std::chrono::seconds(12)), 300'000);  // no clock runs
    // Once both sides have moved the server sends running clocks and no allowance.
    c.set({300'000, 300'000, Color::Red, std::nullopt}, t0 + std::chrono::seconds(20));
    EXPECT_FALSE(c.first_move_left(t0 + std::chrono::seconds(21)));
    c.stop();
    EXPECT_FALSE(c.first_move_left(t0 + std::chrono::seconds(21)));
}

// A disconnected opponent's grace counts down locally from the server's figure, so the countdown
// moves and the claim becomes possible at zero without another message.
TEST(GameModelSeats, GraceCountsDownFromWhenItArrived) {
    GameModel m;
    const TimePoint t0 = SteadyClock::now();
    m.set_seat(Color::Black, {"bob", false, 60'000}, t0);
    EXPECT_EQ(m.grace_left(Color::Black, t0 + std::chrono::seconds(15)), 45'000);
    EXPECT_EQ(m.grace_left(Color::Black, t0 + std::chrono::seconds(61)), 0);  // may be claimed
    EXPECT_FALSE(m.grace_left(Color::Red, t0));                                // connected
    m.set_seat(Color::Black, {"bob", true, std::nullopt}, t0 + std::chrono::seconds(5));
    EXPECT_FALSE(m.grace_left(Color::Black, t0 + std::chrono::seconds(61)));  // came back
}

TEST(ClockFormat, MinutesSecondsTenthsAndHours) {
    EXPECT_EQ(format_clock(300'000), "5:00");
    EXPECT_EQ(format_clock(59'001), "1:00");  // whole seconds round up
    EXPECT_EQ(format_clock(42'000), "0:42");
    EXPECT_EQ(format_clock(10'000), "0:10");
    EXPECT_EQ(format_clock(9'450), "9.4");
    EXPECT_EQ(format_clock(0), "0.0");
    EXPECT_EQ(format_clock(-5), "0.0");
    EXPECT_EQ(format_clock(3'723'000), "1:02:03");
}

// The frame schedule follows what format_clock draws: for every value, the text changes exactly
// when until_shown_change says, not a millisecond earlier or later.
TEST(ClockFormat, TheNextChangeIsWhereTheTextChanges) {
    const auto check = [](Millis ms) {
        const auto wait = until_shown_change(ms);
        if (ms < 100) {
            EXPECT_FALSE(wait) << ms;  // "0.0" to the end
            return;
        }
        ASSERT_TRUE(wait) << ms;
        EXPECT_GT(*wait, 0) << ms;
        EXPECT_NE(format_clock(ms - *wait), format_clock(ms)) << ms;
        EXPECT_EQ(format_clock(ms - *wait + 1), format_clock(ms)) << ms;
    };
    for (Millis ms = 0; ms <= 70'000; ++ms) check(ms);
    for (Millis ms = 3'590'000; ms <= 3'610'000; ms += 7) check(ms);  // across "1:00:00"
    EXPECT_EQ(until_shown_change(35'000), 1'000);
    EXPECT_EQ(until_shown_change(10'000), 1);  // "0:10" becomes "9.9"
    EXPECT_EQ(until_shown_change(9'450), 51);  // "9.4" becomes "9.3" under 9.4 s
    // A threshold (the low-time colour) is a change too, and so is reaching it from above.
    EXPECT_EQ(until_shown_change(20'400, 20'000), 400);
    EXPECT_EQ(until_shown_change(20'000, 20'000), 1);
    EXPECT_EQ(until_shown_change(50, 1), 50);  // "0.0" becomes "may be claimed" at 0
    EXPECT_FALSE(until_shown_change(0, 1));
}

TEST(FrameSchedule, NothingChangedNoFrame) {
    FrameSchedule s;
    const TimePoint t0 = SteadyClock::now();
    EXPECT_TRUE(s.due(t0));  // the first frame
    s.drawn();
    EXPECT_FALSE(s.due(t0 + std::chrono::hours(1)));
    EXPECT_FALSE(s.next());
    EXPECT_EQ(s.sleep(t0, std::chrono::milliseconds(20)), std::chrono::milliseconds(20));  // only polls
    s.request_at(std::nullopt);  // a model with nothing counting down
    EXPECT_FALSE(s.due(t0 + std::chrono::hours(1)));
}

TEST(FrameSchedule, AnEventIsAFrameNow) {
    FrameSchedule s;
    const TimePoint t0 = SteadyClock::now();
    s.drawn();
    s.request_at(t0 + std::chrono::seconds(1));
    s.request();  // a click, a resize, a server message, the engine's move
    EXPECT_TRUE(s.due(t0));
    EXPECT_EQ(s.sleep(t0, std::chrono::milliseconds(20)), std::chrono::milliseconds(0));
    s.drawn();
    EXPECT_FALSE(s.due(t0));
}

// A running clock with 35 s left: the next frame when it shows 0:34, a second later; none before.
TEST(FrameSchedule, ARunningClockTicksOnceASecond) {
    GameModel game;
    const TimePoint t0 = SteadyClock::now();
    game.set_clock({35'000, 300'000, Color::Red, std::nullopt}, t0);
    FrameSchedule s;
    s.drawn();
    s.request_at(game.next_change(t0));
    EXPECT_EQ(s.next(), t0 + std::chrono::seconds(1));
    EXPECT_FALSE(s.due(t0 + std::chrono::milliseconds(999)));
    EXPECT_TRUE(s.due(t0 + std::chrono::seconds(1)));
    EXPECT_EQ(format_clock(game.clock().remaining(Color::Red, t0 + std::chrono::seconds(1))), "0:34");
    EXPECT_EQ(s.sleep(t0, std::chrono::milliseconds(25)), std::chrono::milliseconds(25));
    EXPECT_EQ(s.sleep(t0 + std::chrono::milliseconds(990), std::chrono::milliseconds(25)),
              std::chrono::milliseconds(10));
    // Drawn 300 ms into a second (34.7 s left): the next frame 700 ms later, at 0:34.
    s.drawn();
    const TimePoint late = t0 + std::chrono::milliseconds(300);
    s.request_at(game.next_change(late));
    EXPECT_EQ(s.next(), late + std::chrono::milliseconds(700));
    // The clock stopped (the game ended): nothing counts down, no frame.
    game.finish({Result::RedWins, "resignation", "Black resigned."});
    EXPECT_FALSE(game.next_change(late));
}

// Under ten seconds the clock shows tenths: a frame each tenth. The low-time colour at 20 s is a
// frame of its own.
TEST(FrameSchedule, TenthsUnderTenSecondsAndTheLowTimeColour) {
    GameModel game;
    const TimePoint t0 = SteadyClock::now();
    game.set_clock({300'000, 9'450, Color::Black, std::nullopt}, t0);
    EXPECT_EQ(game.next_change(t0), t0 + std::chrono::milliseconds(51));
    EXPECT_EQ(game.next_change(t0 + std::chrono::milliseconds(51)), t0 + std::chrono::milliseconds(151));
    game.set_clock({300'000, 20'300, Color::Black, std::nullopt}, t0);
    EXPECT_EQ(game.next_change(t0), t0 + std::chrono::milliseconds(300));  // "0:20", now drawn as low
    EXPECT_EQ(game.next_change(t0 + std::chrono::milliseconds(300)), t0 + std::chrono::milliseconds(301));
    // A per-move cap and the first-move allowance count down on screen too.
    game.set_clock({300'000, 300'000, Color::Red, 12'500}, t0);
    EXPECT_EQ(game.next_change(t0), t0 + std::chrono::milliseconds(500));
    game.set_clock({300'000, 300'000, std::nullopt, std::nullopt, 25'250}, t0);
    EXPECT_EQ(game.next_change(t0), t0 + std::chrono::milliseconds(250));
}

// A disconnected player's grace counts down on screen, and its end brings the claim buttons.
TEST(FrameSchedule, GraceCountsDownToTheClaim) {
    GameModel game;
    const TimePoint t0 = SteadyClock::now();
    game.set_seat(Color::Black, {"bob", false, 30'600}, t0);
    EXPECT_EQ(game.next_change(t0), t0 + std::chrono::milliseconds(600));
    game.set_seat(Color::Black, {"bob", false, 80}, t0);
    EXPECT_EQ(game.next_change(t0), t0 + std::chrono::milliseconds(80));
    EXPECT_FALSE(game.next_change(t0 + std::chrono::milliseconds(80)));  // claimable: nothing more
}

}  // namespace
}  // namespace xq::client
