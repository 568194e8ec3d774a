#pragma once
// How a window of a given size is shared out, for every screen, from the minimum 640 x 480 up. The
// views draw into these rectangles; tests use them to click on points without a window. Nothing
// here is a fixed pixel offset from a corner: parts shrink, stack or scroll as the window does.

#include <algorithm>
#include <array>

#include "client/model/board_geometry.h"
#include "client/model/time_control_picker.h"

namespace xq::client {

// The smallest window every screen is laid out for; the client refuses smaller.
inline constexpr unsigned kMinWidth = 640, kMinHeight = 480;

// `row` cut into `n` equal cells with `gap` between them.
template <std::size_t N>
std::array<Rect, N> row_cells(Rect row, float gap) {
    std::array<Rect, N> cells;
    const float w = (row.w - gap * static_cast<float>(N - 1)) / static_cast<float>(N);
    for (std::size_t i = 0; i < N; ++i) cells[i] = {row.x + static_cast<float>(i) * (w + gap), row.y, w, row.h};
    return cells;
}

struct GameLayout {
    Rect board;  // BoardGeometry fits the board (with its margin) into this
    Rect panel;  // names, clocks, moves, buttons, chat
};

// The panel beside the board or under it, whichever leaves the board larger: beside in a wide
// window, under in a tall one. The panel keeps the room its controls need either way.
inline GameLayout game_layout(float width, float height) {
    const float panel_w = std::clamp(width * 0.3f, 280.0f, 360.0f);
    const float board_w = std::max(200.0f, std::min(width - panel_w, height * 10.0f / 11.0f));
    const float panel_h = static_cast<float>(kMinHeight);  // under the board: the panel's least height
    const float board_h = std::max(220.0f, std::min(height - panel_h, width * 11.0f / 10.0f));
    const float cell_beside = std::min(board_w / 10.0f, height / 11.0f);
    const float cell_under = std::min(width / 10.0f, board_h / 11.0f);
    if (cell_under > cell_beside) return {{0, 0, width, board_h}, {0, board_h, width, height - board_h}};
    return {{0, 0, board_w, height}, {board_w, 0, width - board_w, height}};
}

// The parts of the game panel, top to bottom. When room is short the chat gives up its lines
// first (down to its title and input), then the move list (down to two rows), so that every
// control stays on screen at 640 x 480.
struct PanelLayout {
    Rect top_player;
    Rect moves;
    Rect bottom_player;
    Rect status;   // whose move, check, the result
    Rect offers;   // draw and takeback offers, a claim; empty when there is none
    Rect buttons;  // four rows of four: the game, browsing, the client, the engine
    Rect chat;     // empty where there is nobody to talk to
    Rect footer;   // the connection line
    float button_h = 32;
    float gap = 6;

    // The button at `row`, `column` of the grid of four by four.
    Rect button(int row, int column) const {
        const float w = (buttons.w - 3 * gap) / 4;
        return {buttons.x + static_cast<float>(column) * (w + gap), buttons.y + static_cast<float>(row) * (button_h + gap),
                w, button_h};
    }
    // The chat's text field at its foot.
    Rect chat_input() const { return {chat.x + 6, chat.y + chat.h - button_h - 4, chat.w - 12, button_h - 2}; }
};

inline PanelLayout panel_layout(Rect p, bool chat, int offers) {
    PanelLayout l;
    const bool compact = p.h < 640;
    l.button_h = compact ? 28 : 32;
    l.gap = compact ? 4 : 6;
    const float x = p.x + (compact ? 8 : 14), w = p.w - (compact ? 16 : 28);
    const float player_h = compact ? 54 : 76, status_h = compact ? 22 : 26, footer_h = 20;
    const float offers_h = static_cast<float>(offers) * (compact ? 38.0f : 46.0f);
    const float buttons_h = 4 * l.button_h + 3 * l.gap;
    float y = p.y + l.gap * 2;
    const float fixed = 2 * player_h + status_h + offers_h + buttons_h + footer_h + 6 * l.gap;
    const float room = p.y + p.h - y - fixed;  // for the moves and the chat
    const float chat_least = l.button_h + 30;  // its title and its input
    const float chat_wanted = chat ? std::clamp(p.h * 0.2f, compact ? 86.0f : 110.0f, 200.0f) : 0.0f;
    const float moves_least = 44;
    const float chat_h = chat ? std::clamp(room - moves_least, chat_least, chat_wanted) : 0.0f;
    const float moves_h = std::max(moves_least, room - chat_h);
    l.top_player = {x, y, w, player_h};
    y += player_h + l.gap;
    l.moves = {x, y, w, moves_h};
    y += moves_h + l.gap;
    l.bottom_player = {x, y, w, player_h};
    y += player_h + l.gap;
    l.status = {x, y, w, status_h};
    y += status_h;
    l.offers = {x, y, w, offers_h};
    y += offers_h;
    l.buttons = {x, y, w, buttons_h};
    y += buttons_h + l.gap;
    l.chat = {x, y, w, chat_h};
    l.footer = {x, p.y + p.h - footer_h, w, footer_h};
    return l;
}

// The lobby: a header, the game lists on the left, the forms on the right (scrolled when taller
// than their room), and a bar for playing on this machine and for leaving, always in view.
struct LobbyLayout {
    Rect header;  // the title and who is connected; its right end is free
    Rect lists;   // the tabs and the games
    Rect forms;   // new game, quick match, joining a private game
    Rect bar;     // hotseat, the computer's level, play the computer, disconnect
    Rect status;  // the connection line
    std::array<Rect, 4> bar_buttons() const { return row_cells<4>(bar, 8); }
    // The lists' tabs, Games and Archive, and Refresh at the right end.
    std::array<Rect, 3> tabs() const {
        const float tab_w = std::min(150.0f, (lists.w - 16) / 3.2f), refresh_w = std::min(110.0f, tab_w);
        return {Rect{lists.x, lists.y, tab_w, 32}, Rect{lists.x + tab_w + 6, lists.y, tab_w, 32},
                Rect{lists.x + lists.w - refresh_w, lists.y, refresh_w, 32}};
    }
};

inline LobbyLayout lobby_layout(float width, float height) {
    const float margin = width < 900 ? 12.0f : 24.0f, gap = 8;
    const float header_h = height < 600 ? 52.0f : 74.0f, bar_h = 36, status_h = 24;
    const float forms_w = std::clamp(width * 0.36f, 250.0f, 380.0f);
    const float body_h = height - header_h - bar_h - status_h - 2 * gap;
    LobbyLayout l;
    l.header = {margin, 0, width - 2 * margin, header_h};
    l.forms = {width - margin - forms_w, header_h, forms_w, body_h};
    l.lists = {margin, header_h, width - 3 * margin - forms_w, body_h};
    l.bar = {margin, header_h + body_h + gap, width - 2 * margin, bar_h};
    l.status = {margin, height - status_h, width - 2 * margin, status_h};
    return l;
}


// The forms' column from its top (`top`, once scrolled), each form a box of its own.
struct LobbyForms {
    Rect new_game;
    Rect picker;  // the time-control picker, inside new_game
    float label_w = 0;  // a wide column labels the rows below on the left; a narrow one does not
    Rect colour_row, privacy, create;  // under the picker: Random | Red | Black, Public/Private, Create
    Rect rated_row;  // Casual | Rated | spectator delay, between privacy and Create
    Rect quick_button;  // quick match's one button while nothing is sought
    Rect quick_match;
    Rect private_join;
    // Inside private_join: the game number, the join code and the button (under the two fields
    // when the column is narrow).
    Rect game_field, code_field, join_button;
    float bottom = 0;  // where the column's content ends
};

// The New game form grows with the time-control picker's rows (title, picker, colour and privacy
// rows, the button), the quick match form while a match is sought (what is sought, and Cancel).
inline LobbyForms lobby_forms(Rect column, float top, const TimeControlPicker& picker, bool seeking) {
    LobbyForms f;
    const float x = column.x, w = column.w, gap = 12;
    float y = top;
    f.picker = {x + 14, y + 40, w - 28, picker.height(w - 28)};
    const float new_game_h = 224 + f.picker.h, quick_match_h = seeking ? 106.0f : 62.0f;
    f.new_game = {x, y, w, new_game_h};
    f.label_w = w >= 330 ? 76 : 0;
    float row_y = f.picker.y + f.picker.h + 10;
    f.colour_row = {x + 14 + f.label_w, row_y, w - 28 - f.label_w, 32};
    row_y += 40;
    f.privacy = {f.colour_row.x, row_y, f.colour_row.w, 32};
    row_y += 40;
    f.rated_row = {f.colour_row.x, row_y, f.colour_row.w, 32};
    f.create = {x + 14, row_y + 44, w - 28, 38};
    y += new_game_h + gap;
    f.quick_match = {x, y, w, quick_match_h};
    f.quick_button = {x + 14, y + 12, w - 28, 38};
    y += f.quick_match.h + gap;
    const bool narrow = w < 330;
    f.private_join = {x, y, w, narrow ? 136.0f : 100.0f};
    const float fy = y + 44;
    f.game_field = {x + 14, fy, 90, 32};
    if (narrow) {
        f.code_field = {x + 112, fy, w - 126, 32};
        f.join_button = {x + 14, fy + 40, w - 28, 32};
    } else {
        f.code_field = {x + 112, fy, w - 222, 32};
        f.join_button = {x + w - 102, fy, 88, 32};
    }
    f.bottom = y + f.private_join.h;
    return f;
}

}  // namespace xq::client
