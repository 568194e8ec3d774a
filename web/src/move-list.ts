// The move list: one row per move pair, each move in Chinese and in WXF side by side. A click on a
// move shows the board after it.
import { el, replaceChildren } from './dom';
import { toChinese, toWxf } from './notation';
import type { GameState } from './game-state';

export function drawMoveList(list: HTMLElement, game: GameState, shown: number, onPick: (ply: number) => void): void {
  const rows: HTMLElement[] = [];
  const start = game.positions[0]!;
  let row: HTMLElement | null = null;
  let number = start.fullmove;
  game.parsed.forEach((m, i) => {
    const pos = game.positions[i]!;
    if (!row || pos.toMove === 'red') {
      row = el('tr', {}, el('th', { scope: 'row' }, `${number}.`));
      if (pos.toMove === 'black') row.appendChild(el('td', { colspan: '2' }));  // a Black first move
      rows.push(row);
    }
    const ply = i + 1;
    const attrs: Record<string, string> = { class: ply === shown ? 'move shown' : 'move', 'data-ply': String(ply) };
    const chinese = el('td', { ...attrs, lang: 'zh' }, toChinese(pos, m));
    const wxf = el('td', { ...attrs, class: `${attrs.class} wxf` }, toWxf(pos, m));
    for (const cell of [chinese, wxf]) cell.addEventListener('click', () => onPick(ply));
    row.append(chinese, wxf);
    if (pos.toMove === 'black') number++;
  });
  replaceChildren(list,
    el('thead', {}, el('tr', {}, el('th', {}), el('th', { colspan: '2' }, 'Red 红'), el('th', { colspan: '2' }, 'Black 黑'))),
    el('tbody', {}, ...rows));
  list.querySelector('.shown')?.scrollIntoView({ block: 'nearest' });
}
