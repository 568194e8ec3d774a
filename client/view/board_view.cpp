#include "board_view.h"

#include <cmath>

#include "client/view/ui.h"

namespace xq::client {

namespace {

const sf::Color kWood(233, 196, 140);
const sf::Color kWoodEdge(150, 104, 58);
const sf::Color kLine(92, 58, 30);
const sf::Color kPieceFace(247, 234, 205);
const sf::Color kPieceRed(178, 28, 28);
const sf::Color kPieceBlack(28, 28, 28);

void line(sf::RenderTarget& target, Point a, Point b, float width, sf::Color c) {
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float length = std::sqrt(dx * dx + dy * dy);
    sf::RectangleShape shape({length, width});
    shape.setOrigin(0, width / 2);
    shape.setPosition(a.x, a.y);
    shape.setRotation(std::atan2(dy, dx) * 180.0f / static_cast<float>(M_PI));
    shape.setFillColor(c);
    target.draw(shape);
}

void circle(sf::RenderTarget& target, Point c, float r, sf::Color fill, sf::Color outline = sf::Color::Transparent,
            float thickness = 0) {
    sf::CircleShape shape(r, 48);
    shape.setOrigin(r, r);
    shape.setPosition(c.x, c.y);
    shape.setFillColor(fill);
    shape.setOutlineColor(outline);
    shape.setOutlineThickness(thickness);
    target.draw(shape);
}

// Draws one glyph with its ink centred in `box` and as large as fits there.
void glyph_in(sf::RenderTarget& target, const sf::Font& font, const char* glyph, const Rect& box, sf::Color color) {
    sf::Text t(ui::utf8(glyph), font, static_cast<unsigned>(std::max(4.0f, box.h)));
    sf::FloatRect ink = t.getLocalBounds();
    const float fit = std::min(box.w / std::max(1.0f, ink.width), box.h / std::max(1.0f, ink.height));
    t.setCharacterSize(static_cast<unsigned>(std::max(4.0f, std::floor(box.h * std::min(1.0f, fit)))));
    ink = t.getLocalBounds();
    t.setOrigin(ink.left + ink.width / 2, ink.top + ink.height / 2);
    t.setPosition(box.x + box.w / 2, box.y + box.h / 2);
    t.setFillColor(color);
    target.draw(t);
}

const char* kRedNumbers[] = {"九", "八", "七", "六", "五", "四", "三", "二", "一"};

}  // namespace

std::string piece_glyph(Piece piece, Notation notation) { return std::string(chinese_glyph(piece, notation)); }

void BoardView::draw_grid(sf::RenderTarget& target, const BoardGeometry& g) const {
    const float c = g.cell();
    const Rect outer = g.outer();
    ui::box(target, outer, kWood, kWoodEdge, std::max(2.0f, c * 0.06f));
    const Rect l = g.lines();
    const float thin = std::max(1.0f, c * 0.028f);
    const auto at = [&](int column, int row) {
        return Point{l.x + static_cast<float>(column) * c, l.y + static_cast<float>(row) * c};
    };
    // A heavier frame a little outside the outer lines, as printed boards have.
    const float gap = c * 0.1f;
    sf::RectangleShape frame({l.w + 2 * gap, l.h + 2 * gap});
    frame.setPosition(l.x - gap, l.y - gap);
    frame.setFillColor(sf::Color::Transparent);
    frame.setOutlineColor(kLine);
    frame.setOutlineThickness(thin * 1.6f);
    target.draw(frame);
    for (int row = 0; row < 10; ++row) line(target, at(0, row), at(8, row), thin, kLine);
    for (int column = 0; column < 9; ++column) {
        if (column == 0 || column == 8) {
            line(target, at(column, 0), at(column, 9), thin, kLine);
        } else {  // the river cuts the inner files
            line(target, at(column, 0), at(column, 4), thin, kLine);
            line(target, at(column, 5), at(column, 9), thin, kLine);
        }
    }
    // Palace diagonals.
    for (int top : {0, 7}) {
        line(target, at(3, top), at(5, top + 2), thin, kLine);
        line(target, at(5, top), at(3, top + 2), thin, kLine);
    }
    // Position marks where the cannons and soldiers start: small corners around the point.
    const float m = c * 0.08f, len = c * 0.18f;
    const auto mark = [&](int column, int row) {
        const Point p = at(column, row);
        for (int sx : {-1, 1}) {
            if ((column == 0 && sx < 0) || (column == 8 && sx > 0)) continue;
            for (int sy : {-1, 1}) {
                const Point corner{p.x + static_cast<float>(sx) * m, p.y + static_cast<float>(sy) * m};
                line(target, corner, {corner.x + static_cast<float>(sx) * len, corner.y}, thin, kLine);
                line(target, corner, {corner.x, corner.y + static_cast<float>(sy) * len}, thin, kLine);
            }
        }
    };
    for (int row : {2, 7}) {
        mark(1, row);
        mark(7, row);
    }
    for (int row : {3, 6})
        for (int column = 0; column < 9; column += 2) mark(column, row);
    // The river's words, each half read from its own side, each in a square no piece covers.
    const bool f = g.flipped();
    const char* words[] = {"楚", "河", "漢", "界"};
    const auto boxes = g.river_words();
    for (std::size_t i = 0; i < boxes.size(); ++i) glyph_in(target, font_, words[f ? (i + 2) % 4 : i], boxes[i], kLine);
    // File numbers: Red's 九…一 from its left on its side, Black's 1…9 from its right on its side.
    const auto number_size = static_cast<unsigned>(c * 0.3f);
    // In the margin, clear of the pieces on the outer ranks (their discs reach 0.44 cell out).
    const float top_y = l.y - c * 0.5f - static_cast<float>(number_size) * 1.25f;
    const float bottom_y = l.y + l.h + c * 0.5f;
    for (int column = 0; column < 9; ++column) {
        const int file = f ? 8 - column : column;
        const std::string red = kRedNumbers[file];
        const std::string black = std::to_string(file + 1);
        const float x = l.x + static_cast<float>(column) * c;
        ui::text(target, font_, f ? red : black, {x, top_y}, number_size, kLine, ui::Align::Center);
        ui::text(target, font_, f ? black : red, {x, bottom_y}, number_size, kLine, ui::Align::Center);
    }
}

void BoardView::refresh_cache(const BoardGeometry& g, Notation glyphs) {
    const Rect outer = g.outer();
    const std::string glyph_set = piece_glyph(make_piece(Color::Red, PieceType::Horse), glyphs);
    if (g.cell() == cached_cell_ && g.flipped() == cached_flip_ && outer.x == cached_outer_.x &&
        outer.y == cached_outer_.y && glyph_set == cached_glyphs_)
        return;
    cached_glyphs_ = glyph_set;
    cached_cell_ = g.cell();
    cached_flip_ = g.flipped();
    cached_outer_ = outer;
    sf::ContextSettings smooth;
    smooth.antialiasingLevel = 4;
    // The grid, painted with the board's outer corner at the texture's origin.
    sf::RenderTexture canvas;
    canvas.create(static_cast<unsigned>(std::ceil(outer.w)), static_cast<unsigned>(std::ceil(outer.h)), smooth);
    canvas.clear(kWood);
    canvas.setView(sf::View(sf::FloatRect(outer.x, outer.y, std::ceil(outer.w), std::ceil(outer.h))));
    draw_grid(canvas, g);
    canvas.display();
    grid_.loadFromImage(canvas.getTexture().copyToImage());
    // The fourteen pieces side by side, each on a square a little over one cell wide.
    const float c = g.cell();
    piece_side_ = std::ceil(c * 1.1f);
    sf::RenderTexture pieces;
    pieces.create(static_cast<unsigned>(piece_side_ * 16), static_cast<unsigned>(piece_side_), smooth);
    pieces.clear(sf::Color::Transparent);
    for (Color color : {Color::Red, Color::Black})
        for (int t = 1; t <= 7; ++t) {
            const Piece p = make_piece(color, static_cast<PieceType>(t));
            paint_piece(pieces, {piece_side_ * static_cast<float>(index_of(p)) + c * 0.5f, c * 0.5f}, c, p, glyphs);
        }
    pieces.display();
    atlas_.loadFromImage(pieces.getTexture().copyToImage());
    atlas_.setSmooth(false);  // drawn 1:1 at whole pixels: nearest sampling is exact and cheaper
}

void BoardView::add_piece(sf::VertexArray& quads, Point center, Piece piece, sf::Uint8 alpha) const {
    const float half = cached_cell_ * 0.5f;
    const float x = std::round(center.x - half), y = std::round(center.y - half);
    const float u = piece_side_ * static_cast<float>(index_of(piece));
    const sf::Color tint(255, 255, 255, alpha);
    quads.append(sf::Vertex({x, y}, tint, {u, 0}));
    quads.append(sf::Vertex({x + piece_side_, y}, tint, {u + piece_side_, 0}));
    quads.append(sf::Vertex({x + piece_side_, y + piece_side_}, tint, {u + piece_side_, piece_side_}));
    quads.append(sf::Vertex({x, y + piece_side_}, tint, {u, piece_side_}));
}

void BoardView::paint_piece(sf::RenderTarget& target, Point center, float cell, Piece piece, Notation glyphs) const {
    const float r = cell * BoardGeometry::kPieceRadius;
    const sf::Color ink = color_of(piece) == Color::Red ? kPieceRed : kPieceBlack;
    circle(target, {center.x + cell * 0.03f, center.y + cell * 0.05f}, r, sf::Color(60, 35, 10, 90));  // shadow
    circle(target, center, r, kPieceFace, sf::Color(120, 84, 40), std::max(1.0f, cell * 0.03f));
    circle(target, center, r * 0.82f, sf::Color::Transparent, ink, std::max(1.0f, cell * 0.025f));
    const auto size = static_cast<unsigned>(cell * 0.5f);
    ui::text(target, font_, piece_glyph(piece, glyphs), {center.x, center.y - static_cast<float>(size) * 0.68f}, size, ink,
             ui::Align::Center);
}

void BoardView::draw(sf::RenderTarget& target, const BoardGeometry& g, const GameModel& model, Point mouse,
                     std::optional<Move> hint) {
    refresh_cache(g, model.notation());
    sf::Sprite grid(grid_);
    grid.setPosition(std::round(g.outer().x), std::round(g.outer().y));
    target.draw(grid, sf::RenderStates(sf::BlendNone));  // opaque: no blending needed
    const float c = g.cell();
    const Position& pos = model.shown_position();

    if (const auto last = model.last_move_shown()) {  // the last move: both its points tinted
        for (Square s : {last->from(), last->to()}) {
            const Point p = g.center(s);
            ui::box(target, {p.x - c * 0.46f, p.y - c * 0.46f, c * 0.92f, c * 0.92f}, sf::Color(60, 140, 220, 70));
        }
    }
    if (const auto& premove = model.premove(); premove && model.following_live()) {
        // A queued premove: violet, unlike the blue of the last move, with a line from where to where.
        for (Square s : {premove->from(), premove->to()}) {
            const Point p = g.center(s);
            ui::box(target, {p.x - c * 0.46f, p.y - c * 0.46f, c * 0.92f, c * 0.92f}, sf::Color(150, 70, 200, 120),
                    sf::Color(190, 120, 240, 220), 2);
        }
        line(target, g.center(premove->from()), g.center(premove->to()), c * 0.07f, sf::Color(170, 90, 230, 200));
    }
    if (const auto check = model.general_in_check()) {
        const Point p = g.center(*check);
        circle(target, p, c * 0.56f, sf::Color(230, 40, 30, 120));
        circle(target, p, c * 0.5f, sf::Color(255, 60, 40, 160));
    }
    const auto selected = model.selected();
    const auto dragging = model.dragging();
    sf::VertexArray quads(sf::Quads);
    std::optional<Point> pending_mark;
    for (Square s = 0; s < kSquares; ++s) {
        const Piece piece = pos.at(s);
        if (piece == Piece::None) continue;
        const Point p = g.center(s);
        if (selected == s) circle(target, p, c * 0.5f, sf::Color(250, 200, 60, 200));
        if (dragging == s) {
            add_piece(quads, p, piece, 70);  // where it came from, faint
            continue;
        }
        const bool pending_piece = model.showing_pending() && model.pending()->move.to() == s;
        add_piece(quads, p, piece, pending_piece ? 150 : 255);
        if (pending_piece) pending_mark = p;
    }
    target.draw(quads, &atlas_);
    if (pending_mark)
        ui::text(target, font_, "…", {pending_mark->x, pending_mark->y + c * 0.18f}, static_cast<unsigned>(c * 0.3f),
                 kPieceBlack, ui::Align::Center);
    const Highlight* hovered_ban = nullptr;
    for (const auto& h : model.highlights()) {
        const Point p = g.center(h.to);
        switch (h.kind) {
            case HighlightKind::Quiet:
                circle(target, p, c * 0.15f, sf::Color(40, 150, 60, 210), sf::Color(255, 255, 255, 160), 1.5f);
                break;
            case HighlightKind::Capture:
                circle(target, p, c * 0.47f, sf::Color::Transparent, sf::Color(225, 60, 30, 230), c * 0.07f);
                break;
            case HighlightKind::Banned: {
                circle(target, p, c * 0.17f, sf::Color(110, 110, 110, 200));
                const float k = c * 0.1f;
                line(target, {p.x - k, p.y - k}, {p.x + k, p.y + k}, 2, sf::Color(240, 240, 240));
                line(target, {p.x - k, p.y + k}, {p.x + k, p.y - k}, 2, sf::Color(240, 240, 240));
                if (g.square_at(mouse) == h.to) hovered_ban = &h;
                break;
            }
        }
    }
    if (hint) {  // the engine's move: a green line from origin to destination, ringed at both ends
        const Point a = g.center(hint->from()), b = g.center(hint->to());
        line(target, a, b, c * 0.08f, sf::Color(40, 170, 90, 200));
        circle(target, a, c * 0.47f, sf::Color::Transparent, sf::Color(40, 170, 90, 220), c * 0.06f);
        circle(target, b, c * 0.2f, sf::Color(40, 170, 90, 220));
    }
    if (dragging) {
        sf::VertexArray held(sf::Quads);
        add_piece(held, mouse, pos.at(*dragging));
        target.draw(held, &atlas_);
    }
    if (hovered_ban) {  // the reason a point is banned, next to the pointer
        const auto lines = ui::wrap(font_, hovered_ban->reason, 14, 300);
        const float h = static_cast<float>(lines.size()) * 18 + 10;
        const Rect tip{std::min(mouse.x + 14, g.outer().x + g.outer().w - 316), mouse.y + 16, 316, h};
        ui::box(target, tip, sf::Color(30, 28, 26, 235), ui::color::kAccent, 1);
        float y = tip.y + 4;
        for (const auto& text : lines) {
            ui::text(target, font_, text, {tip.x + 8, y}, 14, ui::color::kText);
            y += 18;
        }
    }
}

}  // namespace xq::client
