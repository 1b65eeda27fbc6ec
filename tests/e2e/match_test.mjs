// Browser end-to-end tests of the match screen against the built page and the local OpenRouter
// mock: a real click on "Start match" starts engine vs engine; an LLM game runs to its end through
// an illegal-move retry and a 429; a reload restores the game; the exported PGN parses back in
// chess.js; a refused key stops the game with a clear message; Rematch keeps the players; the
// history keeps finished games (filters, a review beside a live game, PGN export, delete).
// usage: node match_test.mjs SITE_DIR SCREENSHOT_DIR CHAIBA_BINARY
import fs from 'node:fs';
import path from 'node:path';
import { Chess } from 'chess.js';
import { startStaticServer, startMock, launchBrowser, waitForFrames, runTests, clickItem, clickUntil, waitOrExplain, openPage as openPageAt } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
const chaiba = path.resolve(process.argv[4] || 'build/native/chaiba');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const mockServer = await startMock(chaiba);
const mock = { baseUrl: mockServer.baseUrl, key: mockServer.key };
const browser = await launchBrowser();
const state = (page) => page.evaluate(() => window.chaiba.state());

const openPage = (context) => openPageAt(context, server.url);

// The PGN must parse in chess.js and replay to the same moves and final position.
function checkPgn(pgn, st) {
  const chess = new Chess();
  chess.loadPgn(pgn);
  const sans = chess.history();
  if (JSON.stringify(sans) !== JSON.stringify(st.moves))
    throw new Error(`PGN moves differ:\n${sans.join(' ')}\n${st.moves.join(' ')}`);
  if (chess.fen().split(' ').slice(0, 4).join(' ') !== st.fen.split(' ').slice(0, 4).join(' '))
    throw new Error(`PGN ends in ${chess.fen()}, the game in ${st.fen}`);
}

await runTests([
  ['a real click on "Start match" starts a live engine game (no key)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    if ((await state(page)).status !== 'empty') throw new Error('a fresh page should have no game');
    await clickItem(page, 'match.start');
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 4, null, { timeout: 60000 });
    const st = await state(page);
    if (st.white !== 'engine:4' || st.black !== 'engine:2') throw new Error(`players: ${st.white} vs ${st.black}`);
    await page.screenshot({ path: path.join(shots, 'match-engines-1280x800.png') });
    errors.check();
    await context.close();
  }],

  ['Rematch after an engine game, with a key saved meanwhile, plays the same engines with colours swapped', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await clickItem(page, 'match.start');
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 1, null, { timeout: 60000 });
    // A key saved during the game changes what a fresh Start match plays, not the rematch.
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await page.waitForFunction(() => window.chaiba.state().next.white.startsWith('llm:'), null, { timeout: 10000 });
    await clickItem(page, 'match.resign');
    await page.waitForFunction(() => window.chaiba.state().status === 'finished', null, { timeout: 10000 });
    await clickItem(page, 'match.start');
    await page.waitForFunction(() => window.chaiba.state().status === 'running', null, { timeout: 10000 });
    const st = await state(page);
    if (st.white !== 'engine:2' || st.black !== 'engine:4') throw new Error(`Rematch played ${st.white} vs ${st.black}`);
    errors.check();
    await context.close();
  }],

  ['reload restores the game, paused, with every move', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await page.evaluate(() => window.chaiba.newMatch({ white: 'engine:1', black: 'random' }));
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 6, null, { timeout: 60000 });
    await page.evaluate(() => window.chaiba.pause());
    // A move in flight finishes, then the game holds.
    await page.waitForFunction(() => !window.chaiba.state().thinking, null, { timeout: 30000 });
    const before = await state(page);
    await page.reload();
    await waitForFrames(page, 3);
    const after = await state(page);
    if (after.fen !== before.fen || JSON.stringify(after.moves) !== JSON.stringify(before.moves))
      throw new Error(`after reload: ${after.fen} (${after.moves.length} moves), before: ${before.fen} (${before.moves.length})`);
    if (after.status !== 'paused') throw new Error(`status after reload: ${after.status}`);
    await page.evaluate(() => window.chaiba.start());
    await page.waitForFunction((n) => window.chaiba.state().moves.length > n, before.moves.length, { timeout: 60000 });
    errors.check();
    await context.close();
  }],

  ['LLM vs LLM against the mock: illegal-move retry, a 429, to the end; PGN parses back', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await page.evaluate(() => window.chaiba.newMatch({ white: 'llm:mock/illegal-once', black: 'llm:mock/ratelimit' }));
    // The 429's wait shows on Black's card as a wait with its reason (it said "thinking..").
    await page.waitForFunction(() => !!window.chaiba.ui()['card.black.retryWait'], null, { timeout: 60000 });
    await page.screenshot({ path: path.join(shots, 'match-llm-429-1280x800.png') });
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 2, null, { timeout: 60000 });
    await page.screenshot({ path: path.join(shots, 'match-llm-1280x800.png') });
    await page.waitForFunction(() => window.chaiba.state().status === 'finished', null, { timeout: 240000 });
    const st = await state(page);
    if (!['1-0', '0-1', '1/2-1/2'].includes(st.result)) throw new Error(`result ${st.result}: ${st.reason}`);
    if (st.attemptsBeyondFirst < 1) throw new Error('the illegal first move was not retried');
    if (!st.notes.some((n) => n.startsWith('black: retry'))) throw new Error(`no visible 429 retry: ${JSON.stringify(st.notes)}`);
    if (!(st.costUsd.white > 0 && st.costUsd.black > 0)) throw new Error(`costs not counted: ${JSON.stringify(st.costUsd)}`);
    const pgn = await page.evaluate(() => window.chaiba.pgn());
    if (pgn.includes(mock.key)) throw new Error('the API key leaked into the PGN');
    checkPgn(pgn, st);
    if (!/\[WhiteModel "mock\/illegal-once"\]/.test(pgn)) throw new Error('PGN lacks the model tags');
    await page.screenshot({ path: path.join(shots, 'match-llm-finished-1280x800.png') });
    // The browser logs the 429 response itself; anything else is an error.
    errors.errors.splice(0, errors.errors.length, ...errors.errors.filter((e) => !/status of 429/.test(e)));
    errors.check();
    await context.close();
  }],

  ['an LLM offers a draw with its move; the person sees Accept / Decline and accepts by a click', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await page.evaluate(() => window.chaiba.newMatch({ white: 'llm:mock/draw-offer', black: 'human' }));
    await page.waitForFunction(() => window.chaiba.state().drawOffer === 'white', null, { timeout: 30000 });
    await clickItem(page, 'match.acceptDraw');
    await page.waitForFunction(() => window.chaiba.state().status === 'finished', null, { timeout: 10000 });
    const st = await state(page);
    if (st.result !== '1/2-1/2' || st.reason !== 'draw agreed') throw new Error(`expected an agreed draw, got ${st.result}: ${st.reason}`);
    if (st.moves.length !== 1 || st.drawOffer !== null) throw new Error(`unexpected state ${JSON.stringify(st)}`);
    await page.screenshot({ path: path.join(shots, 'match-draw-agreed.png') });
    errors.check();
    await context.close();
  }],

  ['a refused key stops the game with a clear message, nothing is lost', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page } = await openPage(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: 'sk-wrong-key', baseUrl: m.baseUrl }), mock);
    await page.evaluate(() => window.chaiba.newMatch({ white: 'llm:mock/legal', black: 'engine:1' }));
    await page.waitForFunction(() => window.chaiba.state().status === 'stopped', null, { timeout: 30000 });
    const st = await state(page);
    if (st.result !== '*' || !/401|key/i.test(st.reason)) throw new Error(`expected a key error, got ${st.result}: ${st.reason}`);
    await page.screenshot({ path: path.join(shots, 'match-bad-key.png') });
    // Fix the key and retry: the game continues.
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key }), mock);
    await page.evaluate(() => window.chaiba.newMatch({ white: 'llm:mock/legal', black: 'engine:1' }));
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 2, null, { timeout: 30000 });
    await context.close();
  }],
  ['the history keeps every finished game: filters, a review beside a live game, PGN export, delete asked first', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const { page, errors } = await openPage(context);
    const explain = () => ({ status: window.chaiba.state().status, history: window.chaiba.state().history });
    // Two short games: the engine mates in one, and a person resigns at once against the random mover.
    await page.evaluate(() => window.chaiba.newMatch({ white: 'engine:1', black: 'random', fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' }));
    await waitOrExplain(page, () => window.chaiba.state().history.count === 1, explain, { timeout: 60000 });
    await page.evaluate(() => window.chaiba.newMatch({ white: 'human', black: 'random' }));
    await page.waitForFunction(() => window.chaiba.state().status !== 'empty' && window.chaiba.state().white === 'human', null, { timeout: 10000 });
    await clickItem(page, 'match.resign');
    await waitOrExplain(page, () => window.chaiba.state().history.count === 2, explain, { timeout: 10000 });
    let h = (await state(page)).history;
    const [resigned, mated] = h.games; // newest first
    if (mated.result !== '1-0' || mated.ending !== 'checkmate' || mated.plies !== 1 || mated.black !== 'Random mover')
      throw new Error(`the mate was kept as ${JSON.stringify(mated)}`);
    if (resigned.result !== '0-1' || resigned.ending !== 'resignation' || resigned.white !== 'Person')
      throw new Error(`the resignation was kept as ${JSON.stringify(resigned)}`);
    // A live game waits for the person while the history is looked at.
    await page.evaluate(() => window.chaiba.newMatch({ white: 'human', black: 'random' }));
    await page.waitForFunction(() => window.chaiba.state().status === 'running' && window.chaiba.state().moves.length === 0, null, { timeout: 10000 });
    const liveFen = (await state(page)).fen;
    await clickUntil(page, 'match.history', () => window.chaiba.state().history.open);
    // Filter by ending (real clicks on the shared filter bar), then by result through the API.
    await clickItem(page, 'match.history.ending');
    await clickItem(page, 'match.history.ending.checkmate');
    await waitOrExplain(page, (id) => JSON.stringify(window.chaiba.state().history.ids) === JSON.stringify([id]), explain, { arg: mated.id, timeout: 10000 });
    await page.evaluate(() => window.chaiba.match.historyFilter({ result: 2 }));
    await page.waitForFunction(() => window.chaiba.state().history.ids.length === 0, null, { timeout: 10000 });
    await page.evaluate(() => window.chaiba.match.historyFilter({ player: 'Person' }));
    await page.waitForFunction((id) => JSON.stringify(window.chaiba.state().history.ids) === JSON.stringify([id]), resigned.id, { timeout: 10000 });
    await page.evaluate(() => window.chaiba.match.historyFilter({}));
    await page.waitForFunction(() => window.chaiba.state().history.ids.length === 2, null, { timeout: 10000 });
    await page.screenshot({ path: path.join(shots, 'match-history-1280x800.png') });
    // A row opens the game in the review (eval bar, graph, accuracy); the live game is untouched.
    await clickUntil(page, `match.history.row.${mated.id}`, (id) => window.chaiba.state().history.reviewing === id, { arg: mated.id });
    await waitOrExplain(page, () => window.chaiba.state().history.review.complete, explain, { timeout: 60000 });
    h = (await state(page)).history;
    if (h.review.moves !== 1 || h.review.result !== '1-0' || !h.review.fen.startsWith('R5k1/'))
      throw new Error(`the review shows ${JSON.stringify(h.review)}`);
    if (h.review.evalsCp.length !== 2) throw new Error(`the review scored ${h.review.evalsCp.length} positions`);
    let live = await state(page);
    if (live.fen !== liveFen || live.white !== 'human' || live.status !== 'running') throw new Error(`the live game changed: ${live.status} ${live.fen}`);
    await page.screenshot({ path: path.join(shots, 'match-review-1280x800.png') });
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), clickItem(page, 'match.review.pgn')]);
    const pgn = fs.readFileSync(await download.path(), 'utf8');
    const chess = new Chess();
    chess.loadPgn(pgn);
    if (chess.history().join(' ') !== 'Ra8#' || !pgn.includes('[Result "1-0"]')) throw new Error(`exported PGN: ${pgn}`);
    await clickUntil(page, 'match.review.back', () => window.chaiba.state().history.reviewing === null);
    live = await state(page);
    if (live.fen !== liveFen || live.white !== 'human') throw new Error('Back to the live game did not show the live game');
    // Kept over a reload; Delete asks first, Cancel keeps the game, Delete removes it for good.
    await page.reload();
    await waitForFrames(page, 3);
    await page.waitForFunction(() => window.chaiba.state().history.count === 2, null, { timeout: 10000 });
    await page.evaluate((id) => window.chaiba.match.historyReview({ id }), resigned.id);
    await page.waitForFunction((id) => window.chaiba.state().history.reviewing === id, resigned.id, { timeout: 10000 });
    await clickUntil(page, 'match.review.delete', () => window.chaiba.state().history.confirmDelete !== null);
    await clickUntil(page, 'match.history.cancelDelete', () => window.chaiba.state().history.confirmDelete === null);
    if ((await state(page)).history.count !== 2) throw new Error('Cancel deleted the game');
    await clickUntil(page, 'match.review.delete', () => window.chaiba.state().history.confirmDelete !== null);
    await clickUntil(page, 'match.history.confirmDelete', () => window.chaiba.state().history.count === 1);
    h = (await state(page)).history;
    if (h.reviewing !== null || !h.open || h.games[0].id !== mated.id) throw new Error(`after Delete: ${JSON.stringify(h).slice(0, 300)}`);
    await page.reload();
    await waitForFrames(page, 3);
    await page.waitForFunction(() => window.chaiba.state().history.count === 1, null, { timeout: 10000 });
    errors.check();
    await context.close();
  }],
]);
await browser.close();
mockServer.close();
await server.close();
