// A watched game as the page knows it, followed from the server's Snapshot and room events by
// version, as client/mirror does for the desktop client: an event already seen is skipped, and an
// event after a gap asks for a fresh Snapshot (the caller sends WatchGame again).
import { ClockState } from './clock';
import { Move, Position, START_FEN, parseIccs } from './position';
import { pb } from './proto';
import type { ArchivedGame, ChatLine, Outcome, PlayerInfo, PlayerRating, ServerMessage, Snapshot, TimeControl } from './proto';

export interface Player { name: string; rating: PlayerRating | null; connected: boolean; computer: boolean }
export interface Chat { from: string; text: string; players: boolean }
export type Applied = 'applied' | 'ignored' | 'resync';

const player = (p: PlayerInfo | null | undefined): Player => ({
  name: p?.name ?? '', rating: p?.rating ?? null, connected: p?.connected ?? true, computer: p?.computer ?? false,
});

export class GameState {
  gameId = 0;
  version = 0;
  startFen = START_FEN;
  moves: string[] = [];
  positions: Position[] = [Position.fromFen(START_FEN)];
  parsed: Move[] = [];
  clock = ClockState.none();
  red: Player = player(null);
  black: Player = player(null);
  spectators = 0;
  timeControl: TimeControl | null = null;
  outcome: Outcome | null = null;  // set once finished
  aborted: string | null = null;   // the explanation, once aborted
  chat: Chat[] = [];
  rematchGameId = 0;
  finishedAtLoad = false;          // loaded from the archive: a replay, nothing live

  get position(): Position { return this.positions[this.positions.length - 1]!; }
  get over(): boolean { return this.outcome !== null || this.aborted !== null; }

  loadSnapshot(s: Snapshot, now: number): void {
    this.gameId = Number(s.gameId ?? 0);
    this.version = Number(s.version ?? 0);
    this.setMoves(s.startFen || START_FEN, s.moves ?? []);
    this.clock = ClockState.from(s.clock, now);
    this.red = player(s.red);
    this.black = player(s.black);
    this.spectators = s.spectators ?? 0;
    this.timeControl = s.timeControl ?? null;
    const finished = s.status === pb.GameStatus.GAME_STATUS_FINISHED && s.outcome;
    this.outcome = finished ? s.outcome! : null;
    this.aborted = s.status === pb.GameStatus.GAME_STATUS_ABORTED ? 'The game was aborted.' : null;
    this.chat = (s.chat ?? []).map(toChat);
    this.rematchGameId = Number(s.rematchGameId ?? 0);
    this.finishedAtLoad = false;
  }

  // A finished game from the archive (GetArchived): the same link replays it.
  loadArchived(a: ArchivedGame): void {
    const e = a.entry;
    this.gameId = Number(e?.gameId ?? 0);
    this.setMoves(a.startFen || START_FEN, a.moves ?? []);
    this.red = { ...player(null), name: e?.red ?? '' };
    this.black = { ...player(null), name: e?.black ?? '' };
    this.timeControl = e?.timeControl ?? null;
    this.outcome = e?.outcome ?? null;
    this.clock = ClockState.none();
    this.finishedAtLoad = true;
  }

  // One pushed message of the watched game; 'resync' when a versioned event skipped a version.
  apply(m: ServerMessage, now: number): Applied {
    switch (m.body) {
      case 'spectatorCount':
        this.spectators = m.spectatorCount!.count ?? 0;
        return 'applied';
      case 'playerConnection': {
        const pc = m.playerConnection!;
        const p = player(pc.player);
        if (pc.side === pb.Side.SIDE_RED) this.red = { ...this.red, connected: p.connected };
        if (pc.side === pb.Side.SIDE_BLACK) this.black = { ...this.black, connected: p.connected };
        return 'applied';
      }
      case 'chatLine':
        if (!m.chatLine!.version) { this.chat.push(toChat(m.chatLine!)); return 'applied'; }
        break;
    }
    const event = (m.body && (m as unknown as Record<string, { version?: number }>)[m.body]) || null;
    const version = Number(event?.version ?? 0);
    if (!event || !version) return 'ignored';
    if (version <= this.version) return 'ignored';        // seen already (a catch-up overlaps)
    if (version > this.version + 1) return 'resync';      // missed one: ask for a Snapshot
    this.version = version;
    switch (m.body) {
      case 'gameStarted': {
        const g = m.gameStarted!;
        this.setMoves(g.startFen || START_FEN, []);
        this.red = { ...this.red, name: g.red ?? '', rating: g.redRating ?? null };
        this.black = { ...this.black, name: g.black ?? '', rating: g.blackRating ?? null };
        this.timeControl = g.timeControl ?? null;
        this.clock = ClockState.from(g.clock, now);
        break;
      }
      case 'moveMade': {
        const mm = m.moveMade!;
        const move = parseIccs(mm.move ?? '');
        if (!move || (mm.ply ?? 0) !== this.moves.length + 1) return 'resync';
        this.moves.push(mm.move!);
        this.parsed.push(move);
        this.positions.push(this.position.play(move));
        this.clock = ClockState.from(mm.clock, now);
        break;
      }
      case 'takebackApplied': {
        const t = m.takebackApplied!;
        const keep = t.ply ?? 0;
        this.moves.length = keep; this.parsed.length = keep; this.positions.length = keep + 1;
        this.clock = ClockState.from(t.clock, now);
        break;
      }
      case 'gameEnded':
        this.outcome = m.gameEnded!.outcome ?? null;
        this.clock = ClockState.from(m.gameEnded!.clock, now);
        break;
      case 'gameAborted':
        this.aborted = m.gameAborted!.explanation || 'The game was aborted.';
        this.clock = this.clock.stopped(now);
        break;
      case 'chatLine':
        this.chat.push(toChat(m.chatLine!));
        break;
      case 'rematchStarted':
        this.rematchGameId = Number(m.rematchStarted!.newGameId ?? 0);
        break;
    }
    return 'applied';
  }

  private setMoves(startFen: string, moves: readonly string[]): void {
    this.startFen = startFen;
    this.positions = [Position.fromFen(startFen)];
    this.moves = [];
    this.parsed = [];
    for (const text of moves) {
      const m = parseIccs(text);
      if (!m) throw new Error(`the server sent "${text}", which is not an ICCS move`);
      this.moves.push(text);
      this.parsed.push(m);
      this.positions.push(this.position.play(m));
    }
  }
}

function toChat(c: ChatLine): Chat {
  return { from: c.from ?? '', text: c.text ?? '', players: c.channel === pb.ChatChannel.CHAT_CHANNEL_PLAYERS };
}
