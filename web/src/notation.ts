// Move text for people, from the ICCS the server sends: WXF ("C2=5") and Chinese ("炮二平五"), as
// common/notation.cpp renders them (test/notation.test.ts compares the two on real games).
import { Color, Move, PieceType, Position, fileOf, makeSquare, rankOf } from './position';

const NUMERALS = '一二三四五六七八九';
const WXF_LETTER: Record<PieceType, string> = {
  general: 'K', advisor: 'A', elephant: 'E', horse: 'H', chariot: 'R', cannon: 'C', soldier: 'P',
};
// Simplified glyphs, as the desktop client's default: the board draws the same characters.
export function glyph(color: Color, type: PieceType): string {
  const red = color === 'red';
  switch (type) {
    case 'general': return red ? '帅' : '将';
    case 'advisor': return red ? '仕' : '士';
    case 'elephant': return red ? '相' : '象';
    case 'horse': return '马';
    case 'chariot': return '车';
    case 'cannon': return '炮';
    case 'soldier': return red ? '兵' : '卒';
  }
}

// Files counted 1-9 from each side's own right: Red's 1 is file i, Black's 1 is file a.
const ownFile = (c: Color, file: number) => (c === 'red' ? 9 - file : file + 1);
const boardFile = (c: Color, own: number) => (c === 'red' ? 9 - own : own - 1);
// Is rank a nearer the enemy than rank b, for colour c?
const ahead = (c: Color, a: number, b: number) => (c === 'red' ? a > b : a < b);
const movesStraight = (t: PieceType) => t === 'general' || t === 'chariot' || t === 'cannon' || t === 'soldier';
const takesTandemMark = (t: PieceType) => t === 'chariot' || t === 'horse' || t === 'cannon';

type Direction = 'forward' | 'backward' | 'sideways';
interface Parts { color: Color; type: PieceType; file: number; direction: Direction; target: number }
interface Twins { onFile: number; place: number; groupSize: number; groupPlace: number; crowdedFiles: number; mostOnAFile: number }

function describe(pos: Position, m: Move): Parts {
  const p = pos.at(m.from);
  if (!p) throw new Error(`no piece on the move's origin square ${m.from}`);
  const parts: Parts = { color: p.color, type: p.type, file: ownFile(p.color, fileOf(m.from)), direction: 'sideways',
    target: ownFile(p.color, fileOf(m.to)) };
  const dr = rankOf(m.to) - rankOf(m.from);
  if (dr === 0) return parts;
  parts.direction = ahead(p.color, rankOf(m.to), rankOf(m.from)) ? 'forward' : 'backward';
  // Straight movers count steps forward and back; every other move names its destination file.
  if (movesStraight(p.type)) parts.target = Math.abs(dr);
  return parts;
}

// Where a piece stands among its own kind: on its file, and (soldiers) among the crowded files.
function twinsOf(pos: Position, sq: number): Twins {
  const p = pos.at(sq)!;
  const same = (s: number) => { const q = pos.at(s); return q !== null && q.color === p.color && q.type === p.type; };
  const t: Twins = { onFile: 0, place: 0, groupSize: 0, groupPlace: -1, crowdedFiles: 0, mostOnAFile: 0 };
  for (let rank = 0; rank < 10; rank++) {
    if (!same(makeSquare(fileOf(sq), rank))) continue;
    t.onFile++;
    if (ahead(p.color, rank, rankOf(sq))) t.place++;
  }
  if (p.type !== 'soldier') return t;
  // xqbase orders the soldiers that share files from the mover's right file to its left.
  for (let own = 1; own <= 9; own++) {
    const file = boardFile(p.color, own);
    let n = 0;
    for (let rank = 0; rank < 10; rank++) if (same(makeSquare(file, rank))) n++;
    t.mostOnAFile = Math.max(t.mostOnAFile, n);
    if (n < 2) continue;
    t.crowdedFiles++;
    if (file === fileOf(sq)) t.groupPlace = t.groupSize + t.place;
    t.groupSize += n;
  }
  return t;
}

export function toWxf(pos: Position, m: Move): string {
  const parts = describe(pos, m);
  const twins = twinsOf(pos, m.from);
  let out: string;
  if (parts.type === 'soldier' && twins.onFile >= 2 && (twins.mostOnAFile >= 3 || twins.crowdedFiles >= 2)) {
    out = `${twins.place + 1}${parts.file}`;  // Fairy-Stockfish's "15=6" for crowded soldiers
  } else if ((takesTandemMark(parts.type) || parts.type === 'soldier') && twins.onFile === 2) {
    out = WXF_LETTER[parts.type] + (twins.place === 0 ? '+' : '-');
  } else {
    out = WXF_LETTER[parts.type] + parts.file;
  }
  return out + (parts.direction === 'forward' ? '+' : parts.direction === 'backward' ? '-' : '=') + parts.target;
}

// Red writes Chinese numerals, Black ASCII digits (strict xqbase).
const number = (c: Color, n: number) => (c === 'red' ? NUMERALS[n - 1]! : String(n));

export function toChinese(pos: Position, m: Move): string {
  const parts = describe(pos, m);
  const twins = twinsOf(pos, m.from);
  const g = glyph(parts.color, parts.type);
  let out: string;
  if (parts.type === 'soldier' && twins.onFile >= 2) {
    // Groups of 2 or 3 always sit on one file, so the place on the file is the group place.
    if (twins.groupSize === 2) out = twins.place === 0 ? '前' : '后';
    else if (twins.groupSize === 3) out = ['前', '中', '后'][twins.place]!;
    else out = number(parts.color, twins.groupPlace + 1);
    out += g;
  } else if (takesTandemMark(parts.type) && twins.onFile === 2) {
    out = (twins.place === 0 ? '前' : '后') + g;
  } else {
    out = g + number(parts.color, parts.file);
  }
  out += parts.direction === 'forward' ? '进' : parts.direction === 'backward' ? '退' : '平';
  return out + number(parts.color, parts.target);
}
