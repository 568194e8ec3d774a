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

std::array<Rect, 4> BoardGeometry::river_words() const {
    // A square centred between four points keeps its corners clear of their discs while the
    // corner's distance to the point, (0.5 - half) * sqrt(2) cells, is at least the radius.
    const float half = (0.5f - kPieceRadius / std::sqrt(2.0f)) * cell_ * 0.98f;
    std::array<Rect, 4> words;
    const float columns[] = {1.5f, 2.5f, 5.5f, 6.5f};
    for (std::size_t i = 0; i < words.size(); ++i) {
        const float x = left_ + columns[i] * cell_, y = top_ + 4.5f * cell_;
        words[i] = {x - half, y - half, 2 * half, 2 * half};
    }
    return words;
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
