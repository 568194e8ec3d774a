// The live game's PGN as the page writes it against the rules library's writer (xq-tool pgn export,
// xqbase style, Chinese moves), from the start and from a position with Black to move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replay } from '../src/position';
import { writePgn } from '../src/pgn';

const tool = process.env.XQ_TOOL ?? '';
const tags = [{ name: 'Event', value: 'Online game 7' }, { name: 'Site', value: 'xq.example:9000' },
  { name: 'Red', value: 'alice "the red"' }, { name: 'Black', value: '黑方' }, { name: 'TimeControl', value: '5+3' }];

function expected(fen: string, moves: string[], result: string): string {
  const args = ['pgn', 'export', '--fen', fen, '--moves', moves.join(' '), '--style', 'xqbase', '--notation', 'chinese',
    '--result', result, ...tags.flatMap((t) => ['--tag', `${t.name}=${t.value}`])];
  return execFileSync(tool, args, { encoding: 'utf8' });
}

test('the page writes the PGN the rules library writes', () => {
  assert.ok(tool, 'XQ_TOOL must be set (CTest does)');
  const rows = readFileSync(join(process.env.XQ_TEST_DATA ?? '', 'games', 'games.tsv'), 'utf8').trim().split('\n').slice(1, 40);
  for (const row of rows) {
    const moves = (row.split('\t')[3] ?? '').split(' ').slice(0, 61);  // an odd count: Red's move ends it
    const g = replay('', moves);
    assert.equal(writePgn('', g.positions, g.moves, tags, '*'), expected('startpos', moves, '*'), row.slice(0, 30));
  }
  const fen = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1';
  const moves = ['h9g7', 'h0g2', 'i9h9', 'i0h0'];
  const g = replay(fen, moves);
  assert.equal(writePgn(fen, g.positions, g.moves, tags, '1-0'), expected(fen, moves, '1-0'));
});
