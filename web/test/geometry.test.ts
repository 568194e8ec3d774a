// The page's board geometry against the desktop client's (client/model/board_geometry.cpp), as
// tests/web/geometry_dump prints it: the same points, river words and piece size for the same areas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { BoardGeometry, PIECE_RADIUS } from '../src/geometry';

interface Case { area: number[]; flipped: boolean; cell: number; centers: number[][]; river_words: number[][] }

test('the SVG board puts every point where the desktop client does', () => {
  const dump = process.env.XQ_GEOMETRY_DUMP;
  assert.ok(dump, 'XQ_GEOMETRY_DUMP must be set (CTest does)');
  const cpp = JSON.parse(execFileSync(dump, { encoding: 'utf8' })) as { piece_radius: number; cases: Case[] };
  assert.ok(Math.abs(cpp.piece_radius - PIECE_RADIUS) < 1e-6);
  assert.equal(cpp.cases.length, 8);
  // The C++ computes in float: agree to a thousandth of a pixel per hundred pixels.
  const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-3 + Math.abs(b) * 1e-5, `${what}: ${a} vs ${b}`);
  for (const c of cpp.cases) {
    const [x = 0, y = 0, w = 0, h = 0] = c.area;
    const g = new BoardGeometry({ x, y, w, h }, c.flipped);
    const label = `area ${c.area.join(',')} flipped=${c.flipped}`;
    near(g.cell, c.cell, `${label} cell`);
    c.centers.forEach(([cx = 0, cy = 0], s) => {
      const p = g.center(s);
      near(p.x, cx, `${label} square ${s} x`);
      near(p.y, cy, `${label} square ${s} y`);
    });
    g.riverWords().forEach((r, i) => {
      const [rx = 0, ry = 0, rw = 0, rh = 0] = c.river_words[i]!;
      near(r.x, rx, `${label} river word ${i} x`); near(r.y, ry, `${label} river word ${i} y`);
      near(r.w, rw, `${label} river word ${i} w`); near(r.h, rh, `${label} river word ${i} h`);
    });
  }
});
