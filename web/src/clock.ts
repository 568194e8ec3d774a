// Both clocks as a spectator sees them tick: the server's Clock holds each side's time as of the
// moment it sent the message, and the running side counts down from when the page received it.
import type { Color } from './position';
import type { ClockMsg } from './proto';
import { pb } from './proto';

export class ClockState {
  constructor(
    readonly redMs: number, readonly blackMs: number, readonly running: Color | null,
    readonly receivedAt: number, readonly firstMoveMs: number | null = null) {}

  static none(): ClockState { return new ClockState(0, 0, null, 0); }

  static from(c: ClockMsg | null | undefined, now: number): ClockState {
    if (!c) return ClockState.none();
    const running = c.running === pb.Side.SIDE_RED ? 'red' : c.running === pb.Side.SIDE_BLACK ? 'black' : null;
    return new ClockState(Number(c.redMs ?? 0), Number(c.blackMs ?? 0), running, now,
      c.firstMoveMs === null || c.firstMoveMs === undefined ? null : Number(c.firstMoveMs));
  }

  // Milliseconds left for `side` at `now` (the same clock as receivedAt: performance.now()).
  remaining(side: Color, now: number): number {
    const base = side === 'red' ? this.redMs : this.blackMs;
    return this.running === side ? Math.max(0, base - (now - this.receivedAt)) : base;
  }

  stopped(now: number): ClockState {
    return new ClockState(this.remaining('red', now), this.remaining('black', now), null, now);
  }
}

// "5:03", "0:09.4" under ten seconds, "1:02:03" past an hour: what a clock face shows.
export function formatClock(ms: number): string {
  const total = Math.max(0, ms);
  if (total < 10_000) return `0:0${Math.floor(total / 1000)}.${Math.floor((total % 1000) / 100)}`;
  const s = Math.floor(total / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}
