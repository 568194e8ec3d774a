#pragma once
// Draws the board and its pieces from a GameModel it does not own: lines, river, palaces, position
// marks, file numbers for both sides, pieces as discs with their Chinese glyphs, and the marks of
// play (selection, destinations, captures, banned points, last move, check, a pending move).

#include <SFML/Graphics.hpp>
#include <array>
#include <optional>

#include "client/model/board_geometry.h"
#include "client/model/game_model.h"

namespace xq::client {

class BoardView {
public:
    explicit BoardView(const sf::Font& font) : font_(font) {}
    // `mouse` places a dragged piece and finds the banned point under the pointer (for its reason).
    // `hint`, if any, is the engine's suggestion, marked from its origin to its destination.
    void draw(sf::RenderTarget& target, const BoardGeometry& g, const GameModel& model, Point mouse,
              std::optional<Move> hint = std::nullopt);

private:
    void draw_grid(sf::RenderTarget& target, const BoardGeometry& g) const;
    void paint_piece(sf::RenderTarget& target, Point center, float cell, Piece piece, Notation glyphs) const;
    // Adds a piece's quad to `quads`, centred on `center`.
    void add_piece(sf::VertexArray& quads, Point center, Piece piece, sf::Uint8 alpha = 255) const;
    // The board without pieces and each piece are painted once per size into textures and then
    // drawn as sprites: a frame costs a few dozen draws instead of hundreds of shapes and glyphs.
    void refresh_cache(const BoardGeometry& g, Notation glyphs);

    const sf::Font& font_;
    // Painted in render textures, then kept as plain textures: software renderers (Xvfb) sample
    // those at half the cost. All pieces share one atlas, so they go out in one draw call.
    sf::Texture grid_;
    sf::Texture atlas_;
    float piece_side_ = 0;  // one piece's square in the atlas
    float cached_cell_ = 0;
    Rect cached_outer_{};
    bool cached_flip_ = false;
    std::string cached_glyphs_;  // Red Horse's glyph: which set the atlas holds
};

// The glyph players read on a piece: the one the move list writes in `notation` (traditional,
// 帥仕相馬車炮兵 and 將士象馬車炮卒, unless it is simplified Chinese), so board and list agree.
std::string piece_glyph(Piece piece, Notation notation);

}  // namespace xq::client
