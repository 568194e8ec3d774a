// Where the board's points are: client/model/board_geometry.cpp's maths, for the SVG board.
// test/geometry.test.ts checks both give the same points (tests/web/geometry_dump prints the C++).
import { fileOf, makeSquare, rankOf } from './position';

export interface Point { x: number; y: number }
export interface Rect { x: number; y: number; w: number; h: number }

// A piece's disc, in cells: what the board paints and what the river's words stay clear of.
export const PIECE_RADIUS = 0.44;

export class BoardGeometry {
  readonly cell: number;
  private readonly left: number;
  private readonly top: number;

  // Fits the board, with a margin of one cell around the outer lines, into `area`, centred.
  constructor(area: Rect, readonly flipped: boolean) {
    // 8 x 9 cells between the outer lines plus one cell of margin on every side: 10 x 11.
    this.cell = Math.max(1, Math.min(area.w / 10, area.h / 11));
    this.left = area.x + (area.w - 10 * this.cell) / 2 + this.cell;
    this.top = area.y + (area.h - 11 * this.cell) / 2 + this.cell;
  }

  // The rectangle spanned by the outer lines (8 by 9 cells), and the board with its margin.
  lines(): Rect { return { x: this.left, y: this.top, w: 8 * this.cell, h: 9 * this.cell }; }
  outer(): Rect { return { x: this.left - this.cell, y: this.top - this.cell, w: 10 * this.cell, h: 11 * this.cell }; }

  columnOf(s: number): number { return this.flipped ? 8 - fileOf(s) : fileOf(s); }
  rowOf(s: number): number { return this.flipped ? rankOf(s) : 9 - rankOf(s); }
  squareAtCell(column: number, row: number): number {
    return this.flipped ? makeSquare(8 - column, row) : makeSquare(column, 9 - row);
  }
  // A point given in cells from the outer lines' top-left corner.
  at(column: number, row: number): Point { return { x: this.left + column * this.cell, y: this.top + row * this.cell }; }
  center(s: number): Point { return this.at(this.columnOf(s), this.rowOf(s)); }

  // The squares of the river's four words, left to right: each centred in a river cell and as large
  // as it can be while clear of any piece standing on the river's ranks.
  riverWords(): Rect[] {
    // A square centred between four points keeps its corners clear of their discs while the
    // corner's distance to the point, (0.5 - half) * sqrt(2) cells, is at least the radius.
    const half = (0.5 - PIECE_RADIUS / Math.SQRT2) * this.cell * 0.98;
    return [1.5, 2.5, 5.5, 6.5].map((column) => {
      const x = this.left + column * this.cell, y = this.top + 4.5 * this.cell;
      return { x: x - half, y: y - half, w: 2 * half, h: 2 * half };
    });
  }
}
