// The watch page's one entry: the server answers "/" and "/g/<id>" with the same index.html, and
// the path says which page to show.
import { GamePage } from './game-page';
import { LobbyPage } from './lobby-page';
import { el, replaceChildren } from './dom';

const root = document.getElementById('app')!;
// Game ids are 48 bits (12 hex digits in the server): 15 decimal digits, exact as numbers.
const game = /^\/g\/(\d{1,15})\/?$/.exec(location.pathname);
if (game) new GamePage(root, Number(game[1]));
else if (location.pathname === '/' || location.pathname === '/index.html') new LobbyPage(root);
else replaceChildren(root, el('p', {}, 'Nothing here. ', el('a', { href: '/' }, 'All games')));
