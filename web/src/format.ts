// Words and numbers as the page shows them: players with ratings, time controls, results.
import type { Outcome, PlayerRating, TimeControl } from './proto';
import { pb } from './proto';

export function ratingText(r: PlayerRating | null | undefined): string {
  if (!r || !r.rating) return '';
  return `${r.rating}${r.provisional ? '?' : ''}`;
}

export function timeControlText(tc: TimeControl | null | undefined): string {
  if (!tc) return '';
  const cap = tc.moveCapSeconds ? `, ${tc.moveCapSeconds} s a move` : '';
  return `${tc.baseMinutes ?? 0}+${tc.incrementSeconds ?? 0}${cap}`;
}

// "1-0", "0-1", "½-½" and the PGN's "1/2-1/2".
export function resultScore(o: Outcome | null | undefined, pgn = false): string {
  switch (o?.result) {
    case pb.GameResult.GAME_RESULT_RED_WINS: return '1-0';
    case pb.GameResult.GAME_RESULT_BLACK_WINS: return '0-1';
    case pb.GameResult.GAME_RESULT_DRAW: return pgn ? '1/2-1/2' : '½-½';
    default: return '*';
  }
}

export function resultHeadline(o: Outcome): string {
  const who = o.result === pb.GameResult.GAME_RESULT_RED_WINS ? 'Red wins'
    : o.result === pb.GameResult.GAME_RESULT_BLACK_WINS ? 'Black wins' : 'Draw';
  const reason = (o.reason ?? '').replace(/_/g, ' ');
  return reason ? `${who} by ${reason}` : who;
}
