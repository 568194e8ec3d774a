// The watch page in Debian's Chromium (headless, through puppeteer-core) against a real
// xiangqi-server, plain or TLS (XQ_WEB_TLS), where two players of this test play a real game: the
// lobby lists it (and never a private game), the page shows each move as it is made with the check
// marked, both clocks tick, flip and browse work, the PGN downloads, a cut connection says so and
// catches up, and the result comes with its explanation. Screenshots go to XQ_SCREENSHOT_DIR.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { Browser, Page } from 'puppeteer-core';
import { pb } from '../src/proto';
import { CutProxy } from './support/cut-proxy';
import { FramedClient } from './support/framed-client';
import { ServerProcess } from './support/server-process';

const useTls = process.env.XQ_WEB_TLS === '1';
const shots = process.env.XQ_SCREENSHOT_DIR ?? '';
const WAIT = { timeout: 20_000 };
// A real opening (tests/data ccpd-0026): its fifth move, 炮五进四, gives check.
const OPENING = ['c3c4', 'b7c7', 'h2e2', 'c9e7', 'e2e6', 'd9e8', 'c0e2', 'b9d8', 'e6e5', 'a9b9', 'b0d1', 'i9i8'];

async function textOf(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (e) => e.textContent ?? '');
}

// Waits for a file Chromium has finished downloading (it writes NAME.crdownload first).
async function downloaded(dir: string, name: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (!existsSync(join(dir, name))) {
    if (Date.now() > deadline) throw new Error(`no ${name} in ${dir}: ${readdirSync(dir).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return readFileSync(join(dir, name), 'utf8');
}

async function shot(page: Page, name: string, width: number, height: number): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.setViewport({ width, height });
  await page.screenshot({ path: join(shots, name) as `${string}.png` });
}

test(`a watcher follows a real game in Chromium (${useTls ? 'TLS' : 'plain'})`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'xq-web-'));
  const downloads = join(dir, 'downloads');
  mkdirSync(downloads);
  const server = await ServerProcess.start(process.env.XQ_SERVER_BIN ?? '', dir, process.env.XQ_WEB_ROOT ?? '', useTls);
  const proxy = await CutProxy.start(server.port);
  const clients: FramedClient[] = [];
  let browser: Browser | null = null;
  try {
    const connect = async (name: string) => { const c = await FramedClient.connect(server.port, useTls, name); clients.push(c); return c; };
    const [alice, bob, carol, dave, erin] = await Promise.all(['alice', 'bob', 'carol', 'dave', 'erin'].map(connect));
    const create = async (host: FramedClient, guest: FramedClient, isPrivate: boolean) => {
      const seated = (await host.request({ createGame: { timeControl: { baseMinutes: 5, incrementSeconds: 2 },
        color: pb.ColorChoice.COLOR_CHOICE_RED, isPrivate } }, 'seated')).seated!;
      await guest.request({ joinGame: { gameId: seated.gameId, joinCode: seated.joinCode } }, 'seated');
      await host.next((m) => m.body === 'gameStarted');
      return Number(seated.gameId);
    };
    const id = await create(alice!, bob!, false);
    const hidden = await create(carol!, dave!, true);
    let ply = 0;
    const play = async () => {
      const mover = ply % 2 === 0 ? alice! : bob!;
      await mover.request({ makeMove: { gameId: id, move: OPENING[ply], moveId: ply + 1, ply } }, 'moveMade');
      ply++;
    };

    browser = await puppeteer.launch({
      executablePath: process.env.XQ_CHROMIUM ?? '/usr/bin/chromium', headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars',
        ...(useTls ? [`--ignore-certificate-errors-spki-list=${ServerProcess.spkiHash(dir)}`] : [])],
    });
    const cdp = await browser.target().createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    const base = `${useTls ? 'https' : 'http'}://127.0.0.1:${proxy.port}`;

    // The lobby lists the public game with its players, never the private one. It draws the board
    // from the list alone and follows a move at its next listing, watching nothing: the game's
    // spectator count stays 0 while only the lobby is open.
    const lobby = await browser.newPage();
    lobby.setDefaultTimeout(20_000);
    await lobby.goto(`${base}/`);
    await lobby.waitForSelector(`.game-card[data-game="${id}"] svg.board`);
    const card = await textOf(lobby, `.game-card[data-game="${id}"]`);
    assert.match(card, /alice/); assert.match(card, /bob/); assert.match(card, /5\+2/);
    assert.equal(await lobby.$(`.game-card[data-game="${hidden}"]`), null, 'the private game is listed');
    assert.equal((await lobby.$$(`.game-card[data-game="${id}"] .piece`)).length, 32);
    await play();  // 兵七进一: c3c4, squares 29 -> 38
    await lobby.waitForSelector(`.game-card[data-game="${id}"] .piece[data-square="38"]`, WAIT);
    assert.deepEqual(await lobby.$$eval(`.game-card[data-game="${id}"] .last-move`,
      (r) => r.map((e) => e.getAttribute('data-square'))), ['29', '38']);
    assert.equal(await lobby.$(`.game-card[data-game="${id}"] .piece[data-square="29"]`), null);
    assert.match(await textOf(lobby, `.game-card[data-game="${id}"] .clock[data-side="black"]`), /^[45]:\d\d$/);
    const listed = (await erin!.request({ listGames: {} }, 'gameList')).gameList!.live!.find((g) => Number(g.gameId) === id);
    assert.ok(listed, 'the live game is not listed');
    assert.equal(listed.spectators ?? 0, 0, 'the lobby page counts as a spectator');
    assert.match(await textOf(lobby, `.game-card[data-game="${id}"] .spectators`), /^0 watching$/);
    await lobby.close();

    // The game page: the snapshot, then each move as it is made.
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${base}/g/${id}`);
    await page.waitForSelector('#board svg.board');
    assert.match(await textOf(page, '.game-title'), /alice – bob · 5\+2/);
    assert.equal((await page.$$('#board .piece')).length, 32);
    while (ply < 5) {
      await play();
      await page.waitForSelector(`#moves td[data-ply="${ply}"]`, WAIT);
    }
    assert.deepEqual(await page.$$eval('#moves td.move', (tds) => tds.map((t) => t.textContent)),
      ['兵七进一', 'P7+1', '炮2平3', 'C2=3', '炮二平五', 'C2=5', '象3进5', 'E3+5', '炮五进四', 'C5+4']);
    // 炮五进四 checks: the general on e9 (square 85) is marked, the move's two points too.
    await page.waitForSelector('#board .check[data-square="85"]', WAIT);
    assert.deepEqual(await page.$$eval('#board .last-move', (r) => r.map((e) => e.getAttribute('data-square'))), ['22', '58']);
    assert.equal(await page.$eval('#board .piece[data-square="58"]', (e) => e.getAttribute('data-piece')), 'red-cannon');

    // Both clocks have started (after each side's first move): the running one ticks down.
    const running = await page.waitForSelector('.player-strip .clock.running', WAIT);
    assert.equal(await running!.evaluate((e) => (e as HTMLElement).dataset.side), 'black');
    const before = await running!.evaluate((e) => e.textContent);
    await page.waitForFunction((was) => document.querySelector('.player-strip .clock.running')?.textContent !== was, WAIT, before);

    // The spectators' chat, read-only on the page: a desktop spectator's line and a player's.
    await erin!.request({ watchGame: { gameId: id } }, 'snapshot');
    await erin!.request({ sendChat: { gameId: id, channel: pb.ChatChannel.CHAT_CHANNEL_SPECTATORS, text: '好棋 nice check' } }, 'chatLine');
    await page.waitForFunction(() => document.querySelector('#chat')?.textContent?.includes('好棋 nice check'), WAIT);
    await page.waitForFunction(() => /[1-9] watching/.test(document.querySelector('#spectators')?.textContent ?? ''), WAIT);
    await shot(page, 'watch-desktop.png', 1280, 800);

    // Flip: Red at the top; browse back to the start while a move arrives, then return to live.
    await page.click('#flip');
    await page.waitForSelector('svg.board[data-flipped="true"]');
    assert.equal(await page.$eval('.player-strip.top', (e) => (e as HTMLElement).dataset.side), 'red');
    await page.click('#first');
    await page.waitForSelector('#board[data-ply="0"]');
    await play();
    await page.waitForSelector(`#moves td[data-ply="${ply}"]`, WAIT);
    assert.equal(await page.$eval('#board', (e) => (e as HTMLElement).dataset.ply), '0', 'browsing jumped to live');
    await page.click('#next');
    await page.waitForSelector('#board[data-ply="1"]');
    await page.click('#to-live');
    await page.waitForSelector(`#board[data-ply="${ply}"]`);
    await page.click('#flip');

    // The PGN of the live game.
    await page.click('#pgn');
    const live = await downloaded(downloads, `xiangqi-${id}.pgn`);
    assert.match(live, /\[Result "\*"\]/);
    assert.match(live, /1\. 兵七进一 炮2平3\n2\. 炮二平五 象3进5\n3\. 炮五进四 /);
    rmSync(join(downloads, `xiangqi-${id}.pgn`));

    // The connection drops: the page says so, the game goes on, and the page catches up.
    proxy.cutAll();
    await page.waitForSelector('#status:not([hidden])', WAIT);
    assert.match(await textOf(page, '#status'), /Offline/);
    await play();
    await play();
    proxy.restore();
    await page.waitForSelector('#status[hidden]', WAIT);
    await page.waitForSelector(`#moves td[data-ply="${ply}"]`, WAIT);
    assert.equal(await page.$$eval('#moves td.move', (t) => t.length), 2 * ply);

    // A phone upright, then a projector: the same page, laid out for each.
    await shot(page, 'watch-phone.png', 390, 844);
    await shot(page, 'watch-projector.png', 1920, 1080);
    await page.setViewport({ width: 1280, height: 800 });

    // Black resigns: the result with the server's explanation; the clocks stop.
    await bob!.request({ resign: { gameId: id } }, 'gameEnded');
    await page.waitForSelector('#result:not([hidden])', WAIT);
    assert.match(await textOf(page, '#result'), /1-0/);
    assert.match(await textOf(page, '#result'), /Black resigns: Red wins\./);
    assert.equal(await page.$('.player-strip .clock.running'), null);
    await page.click('#pgn');
    const final = await downloaded(downloads, `xiangqi-${id}.pgn`);
    assert.match(final, /\[Result "1-0"\]/);
    assert.match(final, /\[Red "alice/);

    // Guessed links: the private game and one that does not exist look alike.
    for (const other of [hidden, 999_999]) {
      const guess = await browser.newPage();
      await guess.goto(`${base}/g/${other}`);
      await guess.waitForFunction(() => document.querySelector('.game-title')?.textContent === 'No such game', WAIT);
      await guess.close();
    }

    // The lobby again: the finished game below, found by its player's name and not by another's.
    const again = await browser.newPage();
    again.setDefaultTimeout(20_000);
    await again.setViewport({ width: 1280, height: 800 });
    await again.goto(`${base}/`);
    await again.waitForSelector(`#archive li[data-game="${id}"]`);
    await again.type('#player-search', 'nobody');
    await again.click('.search button');
    await again.waitForFunction(() => document.querySelector('#archive .empty') !== null, WAIT);
    await again.click('#player-search', { clickCount: 3 });
    await again.type('#player-search', 'alice');
    await again.click('.search button');
    await again.waitForSelector(`#archive li[data-game="${id}"]`);
    if (shots) {  // a second game under way, for the lobby's picture
      const next = await create(bob!, alice!, false);
      for (const [i, move] of ['h2e2', 'h9g7', 'h0g2', 'i9h9'].entries())
        await (i % 2 === 0 ? bob! : alice!).request({ makeMove: { gameId: next, move, moveId: i + 1, ply: i } }, 'moveMade');
      await again.goto(`${base}/`);
      await again.waitForSelector(`.game-card[data-game="${next}"] .piece`);
      await again.waitForSelector(`#archive li[data-game="${id}"]`);
      await shot(again, 'watch-lobby.png', 1280, 800);
    }
  } catch (e) {
    console.log(`# server log:\n${server.log()}`);
    throw e;
  } finally {
    await browser?.close();
    clients.forEach((c) => c.close());
    proxy.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
