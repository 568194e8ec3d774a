// The watched game's model, fed real protobuf bytes (encoded and decoded by the generated code, as
// on the WebSocket): versions in order apply, repeats are skipped, a gap asks for a Snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GameState } from '../src/game-state';
import { decodeServer, encodeServer, pb } from '../src/proto';
import { formatClock } from '../src/clock';

const wire = (m: Parameters<typeof encodeServer>[0]) => decodeServer(encodeServer(m));
const RED = pb.Side.SIDE_RED, BLACK = pb.Side.SIDE_BLACK;

function watching(): GameState {
  const g = new GameState();
  g.loadSnapshot(wire({ snapshot: {
    gameId: 7, version: 3, status: pb.GameStatus.GAME_STATUS_PLAYING, moves: ['h2e2', 'h9g7'],
    clock: { redMs: 60_000, blackMs: 55_000, running: RED }, red: { name: 'alice', connected: true },
    black: { name: 'bob', connected: true, rating: { rating: 1650, deviation: 60 } }, spectators: 2,
    chat: [{ from: 'carol', text: 'hi', channel: pb.ChatChannel.CHAT_CHANNEL_SPECTATORS }],
  } }).snapshot!, 1000);
  return g;
}

test('a snapshot gives the moves, players, clocks and chat', () => {
  const g = watching();
  assert.deepEqual(g.moves, ['h2e2', 'h9g7']);
  assert.equal(g.version, 3);
  assert.equal(g.black.rating?.rating, 1650);
  assert.equal(g.position.toMove, 'red');
  assert.equal(g.clock.remaining('red', 3500), 57_500);   // Red's clock runs from receipt
  assert.equal(g.clock.remaining('black', 3500), 55_000);
  assert.equal(g.chat[0]?.text, 'hi');
});

test('the next version applies, a repeat is skipped, a gap asks for a snapshot', () => {
  const g = watching();
  const move = (version: number, ply: number, m: string) =>
    wire({ moveMade: { gameId: 7, version, ply, move: m, clock: { redMs: 58_000, blackMs: 55_000, running: BLACK } } });
  assert.equal(g.apply(move(4, 3, 'h0g2'), 2000), 'applied');
  assert.equal(g.apply(move(4, 3, 'h0g2'), 2000), 'ignored');
  assert.equal(g.moves.length, 3);
  assert.equal(g.apply(move(6, 5, 'b0c2'), 2000), 'resync');
  assert.equal(g.moves.length, 3);
  assert.equal(g.clock.running, 'black');
});

test('a takeback, a players\' line and the end', () => {
  const g = watching();
  assert.equal(g.apply(wire({ takebackApplied: { gameId: 7, version: 4, pliesRemoved: 1, ply: 1,
    clock: { redMs: 1, blackMs: 2, running: BLACK } } }), 0), 'applied');
  assert.deepEqual(g.moves, ['h2e2']);
  assert.equal(g.positions.length, 2);
  g.apply(wire({ chatLine: { gameId: 7, version: 5, from: 'alice', text: 'gg', channel: pb.ChatChannel.CHAT_CHANNEL_PLAYERS } }), 0);
  g.apply(wire({ chatLine: { gameId: 7, version: 0, from: 'dan', text: 'nice', channel: pb.ChatChannel.CHAT_CHANNEL_SPECTATORS } }), 0);
  assert.deepEqual(g.chat.map((c) => c.text), ['hi', 'gg', 'nice']);
  g.apply(wire({ spectatorCount: { gameId: 7, count: 9 } }), 0);
  assert.equal(g.spectators, 9);
  assert.equal(g.apply(wire({ gameEnded: { gameId: 7, version: 6, outcome: { result: pb.GameResult.GAME_RESULT_RED_WINS,
    reason: 'resignation', explanation: 'Black resigns: Red wins.', ply: 1 }, clock: { redMs: 1, blackMs: 2 } } }), 0), 'applied');
  assert.equal(g.outcome?.explanation, 'Black resigns: Red wins.');
  assert.equal(g.clock.running, null);
  assert.ok(g.over);
});

test('clock faces', () => {
  assert.equal(formatClock(303_000), '5:03');
  assert.equal(formatClock(9_450), '0:09.4');
  assert.equal(formatClock(3_723_000), '1:02:03');
  assert.equal(formatClock(-5), '0:00.0');
});
