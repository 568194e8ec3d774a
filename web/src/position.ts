// The board as the page knows it: 90 squares (rank * 9 + file, as common/types.h: file 0 is 'a' on
// Red's left, rank 0 is Red's back rank), the side to move, and ICCS moves played without judging
// them: the server has judged every move it sends.

export type Color = 'red' | 'black';
export type PieceType = 'general' | 'advisor' | 'elephant' | 'horse' | 'chariot' | 'cannon' | 'soldier';
export interface Piece { color: Color; type: PieceType }
export interface Move { from: number; to: number }

export const FILES = 9;
export const RANKS = 10;
export const START_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

export const fileOf = (s: number): number => s % FILES;
export const rankOf = (s: number): number => Math.floor(s / FILES);
export const makeSquare = (file: number, rank: number): number => rank * FILES + file;
export const other = (c: Color): Color => (c === 'red' ? 'black' : 'red');

// Pikafish's letters, uppercase for Red: the FEN the server sends.
const LETTERS: Record<string, PieceType> = {
  k: 'general', a: 'advisor', b: 'elephant', n: 'horse', r: 'chariot', c: 'cannon', p: 'soldier',
};

export class Position {
  constructor(readonly squares: (Piece | null)[], readonly toMove: Color, readonly fullmove: number) {}

  static fromFen(fen: string): Position {
    const [placement = '', side = 'w', , , , move = '1'] = fen.trim().split(/\s+/);
    const rows = placement.split('/');
    if (rows.length !== RANKS) throw new Error(`FEN "${fen}": ${rows.length} ranks, not 10`);
    const squares: (Piece | null)[] = new Array(FILES * RANKS).fill(null);
    rows.forEach((row, i) => {
      const rank = RANKS - 1 - i;
      let file = 0;
      for (const ch of row) {
        if (ch >= '1' && ch <= '9') { file += Number(ch); continue; }
        const type = LETTERS[ch.toLowerCase()];
        if (!type || file >= FILES) throw new Error(`FEN "${fen}": bad rank "${row}"`);
        squares[makeSquare(file, rank)] = { color: ch === ch.toUpperCase() ? 'red' : 'black', type };
        file += 1;
      }
      if (file !== FILES) throw new Error(`FEN "${fen}": rank "${row}" is not 9 files`);
    });
    return new Position(squares, side === 'b' ? 'black' : 'red', Math.max(1, Number(move) || 1));
  }

  at(s: number): Piece | null { return this.squares[s] ?? null; }

  // The position after a move; the caller's move came from the server, so it is legal.
  play(m: Move): Position {
    const squares = this.squares.slice();
    squares[m.to] = squares[m.from] ?? null;
    squares[m.from] = null;
    return new Position(squares, other(this.toMove), this.fullmove + (this.toMove === 'black' ? 1 : 0));
  }

  find(color: Color, type: PieceType): number[] {
    const out: number[] = [];
    this.squares.forEach((p, s) => { if (p && p.color === color && p.type === type) out.push(s); });
    return out;
  }
}

// "h2e2" -> squares; null when the text is not ICCS.
export function parseIccs(text: string): Move | null {
  const m = /^([a-i])([0-9])([a-i])([0-9])$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const sq = (f: string, r: string) => makeSquare(f.charCodeAt(0) - 97, Number(r));
  return { from: sq(m[1]!, m[2]!), to: sq(m[3]!, m[4]!) };
}

// The positions of a game: positions[i] is the one before move i; the last is the current one.
export function replay(startFen: string, moves: readonly string[]): { positions: Position[]; moves: Move[] } {
  const positions = [Position.fromFen(startFen || START_FEN)];
  const parsed: Move[] = [];
  for (const text of moves) {
    const m = parseIccs(text);
    if (!m) throw new Error(`"${text}" is not an ICCS move`);
    parsed.push(m);
    positions.push(positions[positions.length - 1]!.play(m));
  }
  return { positions, moves: parsed };
}
