// The connection's state for people: a banner while the page is offline or reconnecting, so that
// nobody mistakes a frozen board for a quiet game.
import type { Status } from './connection';

export function showStatus(s: Status): void {
  const banner = document.getElementById('status');
  if (!banner) return;
  banner.dataset.status = s;
  banner.textContent = s === 'online' ? '' : s === 'offline' ? 'Offline: reconnecting…' : 'Connecting…';
  banner.hidden = s === 'online';
}
