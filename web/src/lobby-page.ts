// "/": the games live now, each a small board with its players, clocks and spectators, and the
// finished public games below, searchable by player. The server lists no private game. Each live
// game's summary carries its position, last move and clocks (as its spectators see them), so the
// lobby draws from ListGames alone: it never watches a game, and counts as nobody's spectator.
import { Connection, Status } from './connection';
import { ClockState, formatClock } from './clock';
import { drawBoard } from './board-svg';
import { generalInCheck } from './check';
import { el, replaceChildren } from './dom';
import { ratingText, resultScore, timeControlText } from './format';
import { Position, parseIccs } from './position';
import type { ArchiveEntry, GameSummary } from './proto';
import { showStatus } from './status-banner';

const REFRESH_MS = 3_000;     // the server pushes no lobby changes: list again this often
const ARCHIVE_PAGE = 20;

interface Card { summary: GameSummary; clock: ClockState; node: HTMLElement }

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
      onOpen: () => { this.refresh(); this.loadArchive(false); },
      onMessage: () => {},  // nothing is pushed to a page that watches no game
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
    if (!reply.gameList) return;  // offline: the banner says so, the cards keep ticking
    const now = performance.now();
    const live = reply.gameList.live ?? [];
    const ids = new Set(live.map((g) => Number(g.gameId)));
    for (const [id, card] of this.cards) {
      if (ids.has(id)) continue;
      card.node.remove();
      this.cards.delete(id);
    }
    for (const summary of live) {
      const id = Number(summary.gameId);
      let card = this.cards.get(id);
      if (!card) {
        card = { summary, clock: ClockState.none(), node: el('a', { class: 'game-card', href: `/g/${id}`, 'data-game': String(id) }) };
        this.cards.set(id, card);
      }
      card.summary = summary;
      card.clock = ClockState.from(summary.clock, now);
      this.live.appendChild(card.node);  // in the server's order
      this.draw(card);
    }
    if (live.length === 0) replaceChildren(this.live, el('p', { class: 'empty' }, 'No game is being played right now.'));
    else this.live.querySelector('.empty')?.remove();
  }

  private draw(card: Card): void {
    const s = card.summary, clock = card.clock;
    const now = performance.now();
    const player = (side: 'red' | 'black') => el('div', { class: `player ${side}` },
      el('span', { class: 'name' }, (side === 'red' ? s.red : s.black) || '?'),
      el('span', { class: 'rating' }, ratingText(side === 'red' ? s.redRating : s.blackRating)),
      el('span', { class: `clock${clock.running === side ? ' running' : ''}`, 'data-side': side },
        s.clock ? formatClock(clock.remaining(side, now)) : ''));
    replaceChildren(card.node, smallBoard(s), player('black'), player('red'),
      el('div', { class: 'meta' }, `${timeControlText(s.timeControl)} · move ${Math.ceil((s.plies ?? 0) / 2)} · `,
        el('span', { class: 'spectators' }, `${s.spectators ?? 0} watching`)));
  }

  // Only the running clock changes between listings: it counts down from the listing's reading.
  private tick(): void {
    const now = performance.now();
    for (const card of this.cards.values()) {
      if (!card.summary.clock || !card.clock.running) continue;
      card.node.querySelectorAll<HTMLElement>('.clock').forEach((c) => {
        c.textContent = formatClock(card.clock.remaining(c.dataset.side === 'black' ? 'black' : 'red', now));
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

// The summary's position with its last move and check marked; a server too old to send positions
// gets the plain wooden placeholder.
function smallBoard(s: GameSummary): Element {
  let pos: Position;
  try {
    pos = Position.fromFen(s.fen ?? '');
  } catch {
    return el('div', { class: 'board-placeholder' });
  }
  return drawBoard(pos, false, { lastMove: parseIccs(s.lastMove ?? ''), check: generalInCheck(pos) });
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
