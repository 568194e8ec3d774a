// The PGN of a game still being played, for the download button: finished games come with the
// server's own (GetArchived), but a live game has none until it ends, so the page writes what
// common/pgn_writer.cpp writes in xqbase style with Chinese moves (test/pgn.test.ts compares the two
// through xq-tool pgn export).
import { Position, START_FEN } from './position';
import { toChinese } from './notation';
import type { Move } from './position';

export interface PgnTag { name: string; value: string }

const tagLine = (name: string, value: string) =>
  `[${name} "${value.replace(/[\r\n]/g, ' ').replace(/["\\]/g, (c) => '\\' + c)}"]\n`;

export function writePgn(startFen: string, positions: readonly Position[], moves: readonly Move[],
                         tags: readonly PgnTag[], result: string): string {
  let out = tagLine('Game', 'Chinese Chess');
  for (const t of tags) if (t.name !== 'Result' && t.name !== 'FEN' && t.name !== 'Game') out += tagLine(t.name, t.value);
  out += tagLine('Result', result);
  const start = positions[0]!;
  if (startFen && normalFen(startFen) !== normalFen(START_FEN)) out += tagLine('FEN', startFen);
  out += '\n';
  // One move pair per line, as the xqbase archives; a Black first move is numbered "N...".
  let number = start.fullmove, line: string[] = [];
  moves.forEach((m, i) => {
    const pos = positions[i]!;
    if (pos.toMove === 'red') line.push(`${number}.`);
    else if (i === 0) line.push(`${number}...`);
    line.push(toChinese(pos, m));
    if (pos.toMove === 'black') { out += line.join(' ') + '\n'; line = []; number++; }
  });
  line.push(result);
  return out + line.join(' ') + '\n';
}

const normalFen = (fen: string) => fen.trim().split(/\s+/).join(' ');
