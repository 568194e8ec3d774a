#pragma once
// Where the board's points are on screen. The board is 9 files by 10 ranks of intersections; Red
// sits at the bottom unless the board is flipped. All pixel maths of the client lives here so it
// can be tested without a window.

#include <array>
#include <optional>

#include "common/types.h"

namespace xq::client {

struct Point {
    float x = 0;
    float y = 0;
};

struct Rect {
    float x = 0;
    float y = 0;
    float w = 0;
    float h = 0;
    bool contains(Point p) const { return p.x >= x && p.x < x + w && p.y >= y && p.y < y + h; }
};

class BoardGeometry {
public:
    // A piece's disc, in cells: what the view paints and what the river's words must stay clear of.
    static constexpr float kPieceRadius = 0.44f;

    // Fits the board, with a margin of one cell around the outer lines for file numbers, into
    // `area`, centred, with square cells.
    BoardGeometry(Rect area, bool flipped);

    bool flipped() const { return flipped_; }
    float cell() const { return cell_; }
    // The rectangle spanned by the outer lines (8 by 9 cells).
    Rect lines() const { return {left_, top_, 8 * cell_, 9 * cell_}; }
    // The whole board including the margin: what a view paints as the wooden background.
    Rect outer() const { return {left_ - cell_, top_ - cell_, 10 * cell_, 11 * cell_}; }

    // Screen column (0 = left) and row (0 = top) of a square.
    int column_of(Square s) const { return flipped_ ? 8 - file_of(s) : file_of(s); }
    int row_of(Square s) const { return flipped_ ? rank_of(s) : 9 - rank_of(s); }
    Square square_at_cell(int column, int row) const {
        return flipped_ ? make_square(8 - column, row) : make_square(column, 9 - row);
    }

    Point center(Square s) const;
    // The squares of the river's four words, left to right on screen: each centred in a river cell
    // (files 1-2, 2-3, 5-6 and 6-7 from the left) and as large as it can be while clear of any
    // piece standing on the river's ranks, at any cell size.
    std::array<Rect, 4> river_words() const;
    // The square whose point is nearest to p, if p lies within 0.48 cell of it (a piece's disc).
    std::optional<Square> square_at(Point p) const;

private:
    float left_ = 0;
    float top_ = 0;
    float cell_ = 1;
    bool flipped_ = false;
};

}  // namespace xq::client
