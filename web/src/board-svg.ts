// The board as SVG, drawn from the desktop client's geometry (geometry.ts) and its look
// (client/view/board_view.cpp: wood, lines, palace diagonals, position marks, river words, file
// numbers, discs with a ring and a glyph). Every piece is a <g class="piece"> naming its square and
// piece, so tests read the board as a spectator sees it.
import { BoardGeometry, PIECE_RADIUS, Point } from './geometry';
import { Move, Position } from './position';
import { glyph } from './notation';
import { svg } from './dom';

const CELL = 100;
const RED_NUMBERS = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];

export interface BoardMarks { lastMove: Move | null; check: number | null }

export function drawBoard(pos: Position, flipped: boolean, marks: BoardMarks): SVGElement {
  const g = new BoardGeometry({ x: 0, y: 0, w: 10 * CELL, h: 11 * CELL }, flipped);
  const o = g.outer();
  const root = svg('svg', { viewBox: `${o.x} ${o.y} ${o.w} ${o.h}`, class: 'board', role: 'img',
    'aria-label': 'xiangqi board', 'data-flipped': String(flipped) });
  root.appendChild(grid(g));
  const c = g.cell;
  if (marks.lastMove) {
    for (const s of [marks.lastMove.from, marks.lastMove.to]) {
      const p = g.center(s);
      root.appendChild(svg('rect', { class: 'last-move', 'data-square': s, x: p.x - c * 0.46, y: p.y - c * 0.46,
        width: c * 0.92, height: c * 0.92 }));
    }
  }
  if (marks.check !== null) {
    const p = g.center(marks.check);
    root.appendChild(svg('circle', { class: 'check', 'data-square': marks.check, cx: p.x, cy: p.y, r: c * 0.56 }));
  }
  pos.squares.forEach((piece, s) => {
    if (!piece) return;
    root.appendChild(pieceAt(g.center(s), c, piece.color, glyph(piece.color, piece.type), s, `${piece.color}-${piece.type}`));
  });
  return root;
}

function pieceAt(p: Point, c: number, color: string, text: string, square: number, name: string): SVGElement {
  const r = c * PIECE_RADIUS;
  return svg('g', { class: `piece ${color}`, 'data-square': square, 'data-piece': name },
    svg('circle', { class: 'shadow', cx: p.x + c * 0.03, cy: p.y + c * 0.05, r }),
    svg('circle', { class: 'face', cx: p.x, cy: p.y, r, 'stroke-width': c * 0.03 }),
    svg('circle', { class: 'ring', cx: p.x, cy: p.y, r: r * 0.82, 'stroke-width': c * 0.025 }),
    svg('text', { class: 'glyph', x: p.x, y: p.y, 'font-size': c * 0.5 }, text));
}

function grid(g: BoardGeometry): SVGElement {
  const c = g.cell, l = g.lines(), o = g.outer();
  const thin = c * 0.028;
  const group = svg('g', { class: 'grid', 'stroke-width': thin });
  const line = (a: Point, b: Point) => group.appendChild(svg('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
  group.appendChild(svg('rect', { class: 'wood', x: o.x, y: o.y, width: o.w, height: o.h, 'stroke-width': c * 0.06 }));
  // A heavier frame a little outside the outer lines, as printed boards have.
  const gap = c * 0.1;
  group.appendChild(svg('rect', { class: 'frame', x: l.x - gap, y: l.y - gap, width: l.w + 2 * gap, height: l.h + 2 * gap,
    'stroke-width': thin * 1.6 }));
  for (let row = 0; row < 10; row++) line(g.at(0, row), g.at(8, row));
  for (let column = 0; column < 9; column++) {
    if (column === 0 || column === 8) { line(g.at(column, 0), g.at(column, 9)); continue; }
    line(g.at(column, 0), g.at(column, 4));  // the river cuts the inner files
    line(g.at(column, 5), g.at(column, 9));
  }
  for (const top of [0, 7]) {  // the palaces' diagonals
    line(g.at(3, top), g.at(5, top + 2));
    line(g.at(5, top), g.at(3, top + 2));
  }
  // Position marks where the cannons and soldiers start: small corners around the point.
  const m = c * 0.08, len = c * 0.18;
  const mark = (column: number, row: number) => {
    const p = g.at(column, row);
    for (const sx of [-1, 1]) {
      if ((column === 0 && sx < 0) || (column === 8 && sx > 0)) continue;
      for (const sy of [-1, 1]) {
        const corner = { x: p.x + sx * m, y: p.y + sy * m };
        line(corner, { x: corner.x + sx * len, y: corner.y });
        line(corner, { x: corner.x, y: corner.y + sy * len });
      }
    }
  };
  for (const row of [2, 7]) { mark(1, row); mark(7, row); }
  for (const row of [3, 6]) for (let column = 0; column < 9; column += 2) mark(column, row);
  // The river's words, each half read from its own side, each in a square no piece covers.
  const words = ['楚', '河', '漢', '界'];
  g.riverWords().forEach((box, i) => {
    group.appendChild(svg('text', { class: 'river', x: box.x + box.w / 2, y: box.y + box.h / 2, 'font-size': box.h },
      words[g.flipped ? (i + 2) % 4 : i]!));
  });
  // File numbers: Red's 九…一 from its left on its side, Black's 1…9 from its right on its side.
  for (let column = 0; column < 9; column++) {
    const file = g.flipped ? 8 - column : column;
    const x = l.x + column * c;
    const red = RED_NUMBERS[file]!, black = String(file + 1);
    const size = c * 0.3;
    group.appendChild(svg('text', { class: 'file-number', x, y: l.y - c * 0.62, 'font-size': size }, g.flipped ? red : black));
    group.appendChild(svg('text', { class: 'file-number', x, y: l.y + l.h + c * 0.62, 'font-size': size }, g.flipped ? black : red));
  }
  return group;
}
