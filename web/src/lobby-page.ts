// "/": the games live now, each a small board with its players, clocks and spectators, and the
// finished public games below, searchable by player. The server lists no private game. A live game's
// board and clocks are not in GameList, so the lobby watches the first few live games itself.
import { Connection, Status } from './connection';
import { ClockState, formatClock } from './clock';
import { drawBoard } from './board-svg';
import { el, replaceChildren } from './dom';
import { GameState } from './game-state';
import { ratingText, resultScore, timeControlText } from './format';
import type { ArchiveEntry, GameSummary, ServerMessage } from './proto';
import { showStatus } from './status-banner';

const WATCHED_AT_MOST = 12;   // boards followed live; the rest of the list shows names and counts
const REFRESH_MS = 5_000;     // the server pushes no lobby changes: list again this often
const ARCHIVE_PAGE = 20;

interface Card { summary: GameSummary; state: GameState | null; node: HTMLElement }

export class LobbyPage {
  private readonly conn: Connection;
  private readonly live = el('div', { class: 'live-games', id: 'live-games' });
  private readonly archive = el('ol', { class: 'archive', id: 'archive' });
  private readonly search = el('input', { type: 'search', id: 'player-search', placeholder: 'player name',
    'aria-label': 'search finished games by player' });
  private readonly more = el('button', { type: 'button', id: 'archive-more', hidden: '' }, 'Older games');
  private readonly cards = new Map<number, Card>();
  private archiveNext = '';

  constructor(root: HTMLElement) {
    this.conn = new Connection({
      onOpen: () => { this.cards.forEach((c) => { c.state = null; }); this.refresh(); this.loadArchive(false); },
      onMessage: (m) => this.onEvent(m),
      onStatus: (s: Status) => showStatus(s),
    });
    const form = el('form', { class: 'search', role: 'search' }, this.search, el('button', { type: 'submit' }, 'Search'));
    form.addEventListener('submit', (e) => { e.preventDefault(); this.loadArchive(false); });
    this.more.addEventListener('click', () => this.loadArchive(true));
    replaceChildren(root, el('section', { class: 'lobby' },
      el('h2', {}, 'Live now'), this.live,
      el('h2', {}, 'Finished games'), form, this.archive, this.more));
    this.conn.start();
    setInterval(() => this.refresh(), REFRESH_MS);
    setInterval(() => this.tick(), 200);
  }

  private async refresh(): Promise<void> {
    const reply = await this.conn.request({ listGames: {} });
    const live = reply.gameList?.live ?? [];
    const ids = new Set(live.map((g) => Number(g.gameId)));
    for (const [id, card] of this.cards) {
      if (ids.has(id)) continue;
      if (card.state) this.conn.send({ leave: { gameId: id } });
      card.node.remove();
      this.cards.delete(id);
    }
    live.forEach((summary, i) => {
      const id = Number(summary.gameId);
      let card = this.cards.get(id);
      if (!card) {
        card = { summary, state: null, node: el('a', { class: 'game-card', href: `/g/${id}`, 'data-game': String(id) }) };
        this.cards.set(id, card);
      }
      card.summary = summary;
      if (!card.state && i < WATCHED_AT_MOST) this.watch(card);
      this.live.appendChild(card.node);  // in the server's order
      this.draw(card);
    });
    if (live.length === 0) replaceChildren(this.live, el('p', { class: 'empty' }, 'No game is being played right now.'));
    else this.live.querySelector('.empty')?.remove();
  }

  private async watch(card: Card): Promise<void> {
    const reply = await this.conn.request({ watchGame: { gameId: card.summary.gameId } });
    if (!reply.snapshot) return;  // gone meanwhile: the next listing drops it
    card.state = new GameState();
    card.state.loadSnapshot(reply.snapshot, performance.now());
    this.draw(card);
  }

  private onEvent(m: ServerMessage): void {
    const body = m.body ? (m as unknown as Record<string, { gameId?: number }>)[m.body] : null;
    const card = this.cards.get(Number(body?.gameId ?? 0));
    if (!card?.state) return;
    if (card.state.apply(m, performance.now()) === 'resync') { card.state = null; this.watch(card); return; }
    this.draw(card);
  }

  private draw(card: Card): void {
    const s = card.summary, st = card.state;
    const now = performance.now();
    const clock = st?.clock ?? ClockState.none();
    const player = (side: 'red' | 'black') => el('div', { class: `player ${side}` },
      el('span', { class: 'name' }, (side === 'red' ? s.red : s.black) || '?'),
      el('span', { class: 'rating' }, ratingText(side === 'red' ? s.redRating : s.blackRating)),
      el('span', { class: `clock${clock.running === side ? ' running' : ''}`, 'data-side': side },
        st ? formatClock(clock.remaining(side, now)) : ''));
    const board = st ? drawBoard(st.position, false, { lastMove: st.parsed[st.parsed.length - 1] ?? null, check: null })
      : el('div', { class: 'board-placeholder' });
    replaceChildren(card.node, board, player('black'), player('red'),
      el('div', { class: 'meta' }, `${timeControlText(s.timeControl)} · move ${Math.ceil((st?.moves.length ?? s.plies ?? 0) / 2)} · `,
        el('span', { class: 'spectators' }, `${st?.spectators ?? s.spectators ?? 0} watching`)));
  }

  private tick(): void {
    const now = performance.now();
    for (const card of this.cards.values()) {
      if (!card.state) continue;
      card.node.querySelectorAll<HTMLElement>('.clock').forEach((c) => {
        c.textContent = formatClock(card.state!.clock.remaining(c.dataset.side === 'black' ? 'black' : 'red', now));
      });
    }
  }

  private async loadArchive(more: boolean): Promise<void> {
    const player = this.search.value.trim();
    const reply = await this.conn.request({ listArchive: { limit: ARCHIVE_PAGE, player, after: more ? this.archiveNext : '' } });
    if (reply.error) { replaceChildren(this.archive, el('li', { class: 'error' }, reply.error.message ?? 'refused')); return; }
    const list = reply.archiveList;
    if (!more) replaceChildren(this.archive);
    for (const g of list?.games ?? []) this.archive.appendChild(archiveRow(g));
    if (!list?.games?.length && !more) this.archive.appendChild(el('li', { class: 'empty' }, player ? `No finished game of "${player}".` : 'No finished game yet.'));
    this.archiveNext = list?.next ?? '';
    this.more.hidden = !this.archiveNext;
  }
}

function archiveRow(g: ArchiveEntry): HTMLElement {
  const when = g.endedAtMs ? shortDate(new Date(Number(g.endedAtMs))) : '';
  return el('li', { 'data-game': String(g.gameId) },
    el('a', { href: `/g/${g.gameId}` },
      el('span', { class: 'players' }, `${g.red} – ${g.black}`),
      el('span', { class: 'score' }, resultScore(g.outcome)),
      el('span', { class: 'reason' }, (g.outcome?.reason ?? '').replace(/_/g, ' ')),
      el('span', { class: 'when' }, when)));
}

// "2026-11-27 08:33", the viewer's local time: short enough for a phone's row.
function shortDate(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
