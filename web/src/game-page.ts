// "/g/<id>": one game as a spectator follows it. WatchGame gives a Snapshot and then every room
// event; a dropped socket reconnects and watches again, and the new Snapshot catches the page up
// (the desktop client's way). A game the server no longer holds is replayed from the archive; a
// private or unknown one gets the same "no such game", so a guessed link tells nothing.
import { Connection, Status } from './connection';
import { formatClock } from './clock';
import { drawBoard } from './board-svg';
import { generalInCheck } from './check';
import { el, replaceChildren } from './dom';
import { GameState } from './game-state';
import { drawMoveList } from './move-list';
import { ratingText, resultHeadline, resultScore, timeControlText } from './format';
import { writePgn } from './pgn';
import type { Color } from './position';
import type { ServerMessage } from './proto';
import { showStatus } from './status-banner';

export class GamePage {
  private readonly conn: Connection;
  private readonly game = new GameState();
  private loaded = false;
  private missing = false;
  private archivedPgn = '';
  private shown: number | null = null;  // the ply browsed to; null follows the live game
  private flipped = false;

  private readonly title = el('h1', { class: 'game-title' });
  private readonly spectators = el('span', { class: 'spectators', id: 'spectators' });
  private readonly top = el('div', { class: 'player-strip top' });
  private readonly bottom = el('div', { class: 'player-strip bottom' });
  private readonly boardBox = el('div', { class: 'board-box', id: 'board' });
  private readonly result = el('div', { class: 'result', id: 'result', hidden: '' });
  private readonly moves = el('table', { class: 'moves', id: 'moves' });
  private readonly chat = el('ol', { class: 'chat', id: 'chat' });
  private readonly live = el('button', { type: 'button', id: 'to-live', class: 'live-button', hidden: '' }, 'Back to live »');

  constructor(root: HTMLElement, private readonly gameId: number) {
    const button = (id: string, label: string, title: string, act: () => void) => {
      const b = el('button', { type: 'button', id, title, 'aria-label': title }, label);
      b.addEventListener('click', act);
      return b;
    };
    this.live.addEventListener('click', () => this.browse(null));
    const controls = el('div', { class: 'controls' },
      button('first', '«', 'first move', () => this.browse(0)),
      button('prev', '◀', 'previous move', () => this.browse(this.ply() - 1)),
      button('next', '▶', 'next move', () => this.browse(this.ply() + 1)),
      this.live,
      button('flip', '⇅', 'flip the board', () => { this.flipped = !this.flipped; this.draw(); }),
      button('pgn', 'PGN ↓', 'download the PGN', () => this.download()));
    replaceChildren(root, el('section', { class: 'game' },
      el('header', { class: 'game-head' }, el('a', { href: '/', class: 'back' }, '← All games'), this.title, this.spectators),
      el('div', { class: 'board-column' }, this.top, this.boardBox, this.bottom),
      el('aside', { class: 'side' }, this.result, controls,
        el('div', { class: 'moves-box' }, this.moves),
        el('h2', {}, 'Spectators\' chat'), this.chat)));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowLeft') this.browse(this.ply() - 1);
      else if (e.key === 'ArrowRight') this.browse(this.ply() + 1);
      else if (e.key === 'End') this.browse(null);
      else if (e.key === 'Home') this.browse(0);
    });
    this.conn = new Connection({
      onOpen: () => this.watch(),
      onMessage: (m) => this.onEvent(m),
      onStatus: (s: Status) => showStatus(s),
    });
    this.conn.start();
    setInterval(() => this.drawClocks(), 100);
  }

  // (Re)joins the room; the Snapshot carries everything missed while offline.
  private async watch(): Promise<void> {
    if (this.game.finishedAtLoad || this.missing) return;
    const reply = await this.conn.request({ watchGame: { gameId: this.gameId } });
    if (reply.snapshot) {
      this.game.loadSnapshot(reply.snapshot, performance.now());
      this.loaded = true;
    } else {
      await this.fromArchive();
    }
    this.draw();
  }

  private async fromArchive(): Promise<void> {
    const reply = await this.conn.request({ getArchived: { gameId: this.gameId } });
    if (reply.archivedGame) {
      this.game.loadArchived(reply.archivedGame);
      this.archivedPgn = reply.archivedGame.pgn ?? '';
      this.loaded = true;
    } else {
      this.missing = true;
    }
  }

  private onEvent(m: ServerMessage): void {
    const body = m.body ? (m as unknown as Record<string, { gameId?: number }>)[m.body] : null;
    if (Number(body?.gameId ?? 0) !== this.gameId || !this.loaded) return;
    if (this.game.apply(m, performance.now()) === 'resync') { this.watch(); return; }
    this.draw();
  }

  private ply(): number { return this.shown ?? this.game.moves.length; }

  private browse(ply: number | null): void {
    if (ply !== null && (ply < 0 || ply > this.game.moves.length)) return;
    this.shown = ply === null || ply === this.game.moves.length ? null : ply;
    this.draw();
  }

  private draw(): void {
    const g = this.game;
    if (this.missing) {
      this.title.textContent = 'No such game';
      replaceChildren(this.boardBox, el('p', { class: 'missing' }, `There is no public game ${this.gameId} on this server.`));
      return;
    }
    if (!this.loaded) return;
    const tc = timeControlText(g.timeControl);
    this.title.textContent = `${g.red.name || '?'} – ${g.black.name || '?'}${tc ? ` · ${tc}` : ''}`;
    document.title = `${this.title.textContent} · xiangqi`;
    this.spectators.textContent = g.finishedAtLoad ? 'replay' : `${g.spectators} watching`;
    const ply = this.ply();
    const pos = g.positions[ply]!;
    this.boardBox.dataset.ply = String(ply);
    replaceChildren(this.boardBox, drawBoard(pos, this.flipped, { lastMove: ply > 0 ? g.parsed[ply - 1]! : null, check: generalInCheck(pos) }));
    this.live.hidden = this.shown === null;
    this.drawPlayers();
    drawMoveList(this.moves, g, ply, (p) => this.browse(p));
    if (g.outcome || g.aborted) {
      this.result.hidden = false;
      replaceChildren(this.result, g.outcome
        ? el('div', {}, el('strong', { class: 'score' }, resultScore(g.outcome)), ' ', el('span', { class: 'headline' }, resultHeadline(g.outcome)),
          el('p', { class: 'explanation' }, g.outcome.explanation ?? ''))
        : el('p', { class: 'explanation' }, g.aborted ?? ''));
    }
    if (g.rematchGameId) this.result.appendChild(el('a', { href: `/g/${g.rematchGameId}`, class: 'rematch' }, 'Watch the rematch →'));
    replaceChildren(this.chat, ...g.chat.map((c) => el('li', { class: c.players ? 'players-line' : 'spectators-line' },
      el('b', {}, c.from), ' ', c.text)));
    if (!g.chat.length) this.chat.appendChild(el('li', { class: 'empty' }, 'No chat yet.'));
  }

  private drawPlayers(): void {
    const strip = (side: Color) => {
      const p = side === 'red' ? this.game.red : this.game.black;
      return [el('span', { class: `side-dot ${side}` }),
        el('span', { class: 'name' }, p.name || '?'),
        el('span', { class: 'rating' }, ratingText(p.rating)),
        p.connected ? null : el('span', { class: 'away' }, 'away'),
        el('span', { class: 'clock', 'data-side': side })];
    };
    const [up, down]: Color[] = this.flipped ? ['red', 'black'] : ['black', 'red'];
    replaceChildren(this.top, ...strip(up!));
    replaceChildren(this.bottom, ...strip(down!));
    this.top.dataset.side = up!;
    this.bottom.dataset.side = down!;
    this.drawClocks();
  }

  private drawClocks(): void {
    if (!this.loaded || this.game.finishedAtLoad) return;
    const now = performance.now(), clock = this.game.clock;
    document.querySelectorAll<HTMLElement>('.player-strip .clock').forEach((c) => {
      const side: Color = c.dataset.side === 'black' ? 'black' : 'red';
      c.textContent = formatClock(clock.remaining(side, now));
      c.classList.toggle('running', clock.running === side);
      c.classList.toggle('low', clock.running === side && clock.remaining(side, now) < 10_000);
    });
  }

  private async download(): Promise<void> {
    const g = this.game;
    let pgn = this.archivedPgn;
    if (!pgn && g.over) {  // ended while watched: the archive has the server's own record now
      const reply = await this.conn.request({ getArchived: { gameId: this.gameId } });
      pgn = this.archivedPgn = reply.archivedGame?.pgn ?? '';
    }
    if (!pgn) {
      pgn = writePgn(g.startFen, g.positions, g.parsed, [
        { name: 'Event', value: `Online game ${this.gameId}` }, { name: 'Site', value: location.host },
        { name: 'Red', value: g.red.name }, { name: 'Black', value: g.black.name },
        { name: 'TimeControl', value: timeControlText(g.timeControl) }], resultScore(g.outcome, true));
    }
    const a = el('a', { href: URL.createObjectURL(new Blob([pgn], { type: 'application/x-chess-pgn' })),
      download: `xiangqi-${this.gameId}.pgn` });
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
}
