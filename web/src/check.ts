// Whether the side to move's general is attacked: what the board marks red. Only attacks are
// needed (the server judges legality); the rules are those of common/attacks.h.
import { Color, Position, fileOf, makeSquare, other, rankOf } from './position';

const onBoard = (f: number, r: number) => f >= 0 && f < 9 && r >= 0 && r < 10;

// Is square `target` attacked by `by`'s pieces?
export function attacked(pos: Position, target: number, by: Color): boolean {
  const tf = fileOf(target), tr = rankOf(target);
  const is = (f: number, r: number, type: string) => {
    const p = onBoard(f, r) ? pos.at(makeSquare(f, r)) : null;
    return p !== null && p.color === by && p.type === type;
  };
  // Chariots, cannons and the facing general along the four lines.
  for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
    let screens = 0;
    for (let f = tf + df, r = tr + dr; onBoard(f, r); f += df, r += dr) {
      const p = pos.at(makeSquare(f, r));
      if (!p) continue;
      if (screens === 0 && p.color === by && (p.type === 'chariot' || (p.type === 'general' && df === 0))) return true;
      if (screens === 1 && p.color === by && p.type === 'cannon') return true;
      if (++screens > 1) break;
    }
  }
  // Horses: the leg is the point next to the horse, diagonal to the target's side (horse leg).
  for (const [df, dr] of [[1, 2], [-1, 2], [1, -2], [-1, -2], [2, 1], [-2, 1], [2, -1], [-2, -1]] as const) {
    const hf = tf + df, hr = tr + dr;
    if (!is(hf, hr, 'horse')) continue;
    const legF = hf - Math.sign(df) * (Math.abs(df) === 2 ? 1 : 0);
    const legR = hr - Math.sign(dr) * (Math.abs(dr) === 2 ? 1 : 0);
    if (!pos.at(makeSquare(legF, legR))) return true;
  }
  // Soldiers: from behind (toward their own side) and, once across the river, from the sides.
  const back = by === 'red' ? -1 : 1;
  if (is(tf, tr + back, 'soldier')) return true;
  for (const df of [-1, 1]) {
    const f = tf + df;
    const crossed = by === 'red' ? tr >= 5 : tr <= 4;
    if (crossed && is(f, tr, 'soldier')) return true;
  }
  return false;
}

// The square of the side to move's general when it stands in check, else null.
export function generalInCheck(pos: Position): number | null {
  const [general] = pos.find(pos.toMove, 'general');
  if (general === undefined) return null;
  return attacked(pos, general, other(pos.toMove)) ? general : null;
}
