// The page's WXF and Chinese move text against the rules library's, on every move of the 1,209 real
// games in tests/data: xq-tool rules prints each move in all three notations (common/notation.cpp);
// and the board's check mark against its in_check on each game's last position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replay } from '../src/position';
import { toChinese, toWxf } from '../src/notation';
import { generalInCheck } from '../src/check';

const tool = process.env.XQ_TOOL ?? '';
const data = process.env.XQ_TEST_DATA ?? '';

interface HistoryEntry { iccs: string; wxf: string; chinese: string }
interface Rules { history?: HistoryEntry[]; in_check?: boolean; error?: string; index?: number }

// xq-tool rules prints one line of JSON, and exits 2 (still printing JSON) on an error.
function rules(moves: string[]): Promise<Rules> {
  return new Promise((resolve, reject) => {
    execFile(tool, ['rules', '--fen', 'startpos', '--moves', moves.join(' ')], { encoding: 'utf8' }, (error, stdout) => {
      try { resolve(JSON.parse(stdout) as Rules); } catch { reject(error ?? new Error(`xq-tool printed no JSON: ${stdout}`)); }
    });
  });
}

test('every move of the real games reads as the rules library writes it', async () => {
  assert.ok(tool && data, 'XQ_TOOL and XQ_TEST_DATA must be set (CTest does)');
  const rows = readFileSync(join(data, 'games', 'games.tsv'), 'utf8').trim().split('\n').slice(1);
  assert.ok(rows.length > 1000, `only ${rows.length} games in games.tsv`);
  let plies = 0, checks = 0;
  // One xq-tool per game, as many at once as there are CPUs (a sanitized build's tool is slow).
  const check = async (row: string) => {
    const [id, , , iccs = ''] = row.split('\t');
    let moves = iccs.split(' ').filter(Boolean);
    let result = await rules(moves);
    // Some records play on past a ruling (a third repetition): compare the moves up to it.
    if (result.error === 'game_over' && result.index !== undefined) result = await rules((moves = moves.slice(0, result.index)));
    const history = result.history ?? [];
    assert.equal(history.length, moves.length, `${id}: xq-tool played ${history.length} of ${moves.length} moves`);
    const game = replay('', moves);
    history.forEach((h, i) => {
      const pos = game.positions[i]!, m = game.moves[i]!;
      assert.equal(toWxf(pos, m), h.wxf, `${id} ply ${i + 1} (${h.iccs}): WXF`);
      assert.equal(toChinese(pos, m), h.chinese, `${id} ply ${i + 1} (${h.iccs}): Chinese`);
    });
    // The board's check mark: the game's last position, often a mate or a check.
    assert.equal(generalInCheck(game.positions[moves.length]!) !== null, result.in_check, `${id}: in check at the end`);
    checks += result.in_check ? 1 : 0;
    plies += moves.length;
  };
  let next = 0;
  const worker = async () => { while (next < rows.length) await check(rows[next++]!); };
  await Promise.all(Array.from({ length: Math.max(1, cpus().length) }, worker));
  console.log(`# ${rows.length} games, ${plies} plies: WXF and Chinese match xq-tool; ${checks} final positions in check, as the board marks`);
});
