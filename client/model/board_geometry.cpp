#include "board_geometry.h"

#include <algorithm>
#include <cmath>

namespace xq::client {

BoardGeometry::BoardGeometry(Rect area, bool flipped) : flipped_(flipped) {
    // 8 x 9 cells between the outer lines plus one cell of margin on every side: 10 x 11.
    cell_ = std::max(1.0f, std::min(area.w / 10.0f, area.h / 11.0f));
    left_ = area.x + (area.w - 10 * cell_) / 2 + cell_;
    top_ = area.y + (area.h - 11 * cell_) / 2 + cell_;
}

Point BoardGeometry::center(Square s) const {
    return {left_ + static_cast<float>(column_of(s)) * cell_, top_ + static_cast<float>(row_of(s)) * cell_};
}

std::optional<Square> BoardGeometry::square_at(Point p) const {
    const float fx = (p.x - left_) / cell_;
    const float fy = (p.y - top_) / cell_;
    const int column = static_cast<int>(std::lround(fx));
    const int row = static_cast<int>(std::lround(fy));
    if (column < 0 || column > 8 || row < 0 || row > 9) return std::nullopt;
    const float dx = fx - static_cast<float>(column);
    const float dy = fy - static_cast<float>(row);
    if (dx * dx + dy * dy > 0.48f * 0.48f) return std::nullopt;
    return square_at_cell(column, row);
}

}  // namespace xq::client
