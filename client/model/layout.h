#pragma once
// How a window of a given size is shared out: the board on the left, the panel on the right. The
// view draws into these rectangles; tests use them to click on points without a window.

#include <algorithm>

#include "client/model/board_geometry.h"

namespace xq::client {

struct GameLayout {
    Rect board;  // BoardGeometry fits the board (with its margin) into this
    Rect panel;  // names, clocks, moves, buttons, chat
};

inline GameLayout game_layout(float width, float height) {
    // The board takes the height it needs for square cells, leaving the panel at least 360 pixels.
    const float board_w = std::max(200.0f, std::min(width - 360.0f, height * 10.0f / 11.0f));
    return {{0, 0, board_w, height}, {board_w, 0, width - board_w, height}};
}

}  // namespace xq::client
