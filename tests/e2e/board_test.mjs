// Browser tests of the board widget: a human move by drag-and-drop, by click-click, the
// promotion chooser, and that illegal drops change nothing; lichess's arrows and circles (right
// button), premoves while the engine thinks, Takeback and a Rematch that swaps the colours.
// usage: node board_test.mjs SITE_DIR SCREENSHOT_DIR
import fs from 'node:fs';
import path from 'node:path';
import { Chess } from 'chess.js';
import { startStaticServer, launchBrowser, collectErrors, waitForFrames, runTests, clickItem, decodePng } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const browser = await launchBrowser();

// A person against the level-1 engine, or two people; `engineMs`: the engine's pace of play.
async function openPage(white = 'human', black = 'human', engineMs = 700) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((ms) => localStorage.setItem('chaiba.settings', JSON.stringify({ engineMoveDelayMs: ms })), engineMs);
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(server.url);
  await waitForFrames(page, 3);
  await page.evaluate((p) => window.chaiba.newMatch(p), { white, black });
  await page.waitForFunction(() => window.chaiba.state().status === 'running');
  return { context, page, errors };
}

// Centre of a square ("e2") in page coordinates, from the board's rect and orientation.
async function squareCentre(page, name) {
  const [x, y, w] = (await page.evaluate(() => window.chaiba.ui())).board;
  const flipped = (await page.evaluate(() => window.chaiba.state())).flipped;
  const file = name.charCodeAt(0) - 97, rank = Number(name[1]) - 1;
  const col = flipped ? 7 - file : file, row = flipped ? rank : 7 - rank;
  return { x: x + (col + 0.5) * w / 8, y: y + (row + 0.5) * w / 8 };
}

async function drag(page, from, to) {
  const a = await squareCentre(page, from), b = await squareCentre(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  for (let i = 1; i <= 6; i++) await page.mouse.move(a.x + (b.x - a.x) * i / 6, a.y + (b.y - a.y) * i / 6);
  await page.mouse.up();
}

// A right-button drag (from === to: a right click), with modifier keys held.
async function rightDrag(page, from, to, keys = []) {
  const a = await squareCentre(page, from), b = await squareCentre(page, to);
  for (const k of keys) await page.keyboard.down(k);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down({ button: 'right' });
  await page.waitForTimeout(60); // a frame sees the press where it happened
  for (let i = 1; i <= 4; i++) await page.mouse.move(a.x + (b.x - a.x) * i / 4, a.y + (b.y - a.y) * i / 4);
  await page.mouse.up({ button: 'right' });
  for (const k of keys) await page.keyboard.up(k);
  await page.waitForTimeout(120);
}

// The board's arrows ("e2e4 green") and circles ("d5 green"), in the order drawn.
async function waitShapes(page, shapes) {
  const want = JSON.stringify(shapes);
  await page.waitForFunction((w) => JSON.stringify(window.chaiba.state().board.shapes) === w, want, { timeout: 5000 })
    .catch(async () => {
      throw new Error(`expected ${want}, the board has ${JSON.stringify(await page.evaluate(() => window.chaiba.state().board.shapes))}`);
    });
}

// The colour of the screenshot's pixel at a page point (the page is at device pixel ratio 1).
async function pixelAt(page, point) {
  const png = decodePng(await page.screenshot());
  const i = (Math.round(point.y) * png.width + Math.round(point.x)) * 4;
  return [png.pixels[i], png.pixels[i + 1], png.pixels[i + 2]];
}

async function click(page, square) {
  const c = await squareCentre(page, square);
  await page.mouse.click(c.x, c.y);
  await page.waitForTimeout(120);
}

const fenOf = (page) => page.evaluate(() => window.chaiba.state().fen);
async function waitFen(page, expected) {
  await page.waitForFunction((f) => window.chaiba.state().fen === f, expected, { timeout: 5000 })
    .catch(async () => { throw new Error(`expected ${expected}, board shows ${await fenOf(page)}`); });
}

await runTests([
  ['drag-and-drop e2-e4, then click-click e7-e5', async () => {
    const { context, page, errors } = await openPage();
    await drag(page, 'e2', 'e4');
    await waitFen(page, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    await click(page, 'e7');
    await click(page, 'e5');
    await waitFen(page, 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
    await page.screenshot({ path: path.join(shots, 'board-after-e4e5.png') });
    errors.check();
    await context.close();
  }],
  ['illegal drop and wrong-side clicks change nothing', async () => {
    const { context, page, errors } = await openPage();
    const before = await fenOf(page);
    await drag(page, 'e2', 'e5');   // a pawn cannot jump three squares
    await click(page, 'e7');        // black piece while white is to move
    await click(page, 'e5');
    await page.waitForTimeout(200);
    if (await fenOf(page) !== before) throw new Error(`position changed: ${await fenOf(page)}`);
    errors.check();
    await context.close();
  }],
  ['right-drag arrows and right-click circles, coloured by Shift and Alt; a left click or another position clears them', async () => {
    const { context, page, errors } = await openPage();
    await rightDrag(page, 'e2', 'e4');
    await rightDrag(page, 'd5', 'd5');
    await rightDrag(page, 'a3', 'a5', ['Shift']);
    await rightDrag(page, 'h3', 'h5', ['Alt']);
    await waitShapes(page, ['e2e4 green', 'd5 green', 'a3a5 red', 'h3h5 blue']);
    // Drawn over the board, translucent: the empty squares under the shafts take the brush's hue.
    const hue = async (square, name) => {
      const c = await pixelAt(page, await squareCentre(page, square));
      const [r, g, b] = c;
      const ok = name === 'green' ? g > r + 25 && g > b + 25 : name === 'red' ? r > g + 40 && r > b + 40 : b > r + 20 && b > g + 10;
      if (!ok) throw new Error(`the ${name} arrow over ${square} shows rgb(${c})`);
    };
    await hue('e3', 'green');
    await hue('a4', 'red');
    await hue('h4', 'blue');
    const sq = (await page.evaluate(() => window.chaiba.ui())).board[2] / 8;
    const d5 = await squareCentre(page, 'd5');
    const ring = await pixelAt(page, { x: d5.x + sq * 0.47, y: d5.y });
    if (!(ring[1] > ring[0] + 25 && ring[1] > ring[2] + 25)) throw new Error(`the circle on d5 shows rgb(${ring})`);
    await page.screenshot({ path: path.join(shots, 'board-arrows.png') });
    // The same arrow again removes it; on a flipped board the squares are still the right ones.
    await rightDrag(page, 'e2', 'e4');
    await clickItem(page, 'match.flip');
    await page.waitForFunction(() => window.chaiba.state().flipped === true);
    await rightDrag(page, 'g8', 'f6');
    await waitShapes(page, ['d5 green', 'a3a5 red', 'h3h5 blue', 'g8f6 green']);
    // The same squares in another colour: replaced.
    await rightDrag(page, 'd5', 'd5', ['Shift']);
    await waitShapes(page, ['a3a5 red', 'h3h5 blue', 'g8f6 green', 'd5 red']);
    // A left click anywhere on the board wipes them.
    await click(page, 'd4');
    await waitShapes(page, []);
    // They also go when the shown position changes (a move, or a step through the moves).
    await drag(page, 'e2', 'e4');
    await waitFen(page, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    await rightDrag(page, 'e7', 'e5');
    await waitShapes(page, ['e7e5 green']);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.chaiba.state().viewPly === 0);
    await waitShapes(page, []);
    // A board that takes no moves (an earlier position) still takes arrows.
    await rightDrag(page, 'd2', 'd4');
    await waitShapes(page, ['d2d4 green']);
    errors.check();
    await context.close();
  }],

  ['against the engine: a premove is played when the turn comes, an illegal one is dropped; Takeback; Rematch swaps colours', async () => {
    const { context, page, errors } = await openPage('human', 'engine:1', 8000);
    const st = () => page.evaluate(() => window.chaiba.state());
    await drag(page, 'e2', 'e4');
    await page.waitForFunction(() => window.chaiba.state().moves.length === 1 && window.chaiba.state().thinking);
    // While the engine thinks: d2-d4 as a premove, then arrows drawn with Ctrl (which keeps it).
    await drag(page, 'd2', 'd4');
    await page.waitForFunction(() => window.chaiba.state().board.premove === 'd2d4', null, { timeout: 5000 })
      .catch(async () => { throw new Error(`no premove: ${JSON.stringify((await st()).board)}`); });
    await rightDrag(page, 'g1', 'f3', ['Control']);
    await rightDrag(page, 'e7', 'e7', ['Control']);
    await rightDrag(page, 'f1', 'c4', ['Control', 'Shift']);
    const shown = await st();
    if (shown.moves.length !== 1 || shown.board.premove !== 'd2d4' || shown.board.shapes.join() !== 'g1f3 green,e7 green,f1c4 red')
      throw new Error(`the premove and the drawing should be shown together: ${JSON.stringify(shown.board)}, moves ${shown.moves}`);
    await page.screenshot({ path: path.join(shots, 'board-premove-arrows.png') });
    // The engine's reply comes: the premove is played at once.
    await page.waitForFunction(() => window.chaiba.state().moves.length >= 3, null, { timeout: 20000 });
    let now = await st();
    if (now.moves[2] !== 'd4' || now.board.premove !== null) throw new Error(`after the reply: ${now.moves} premove ${now.board.premove}`);
    // A premove that cannot be legal (the rook is blocked by its pawn) is dropped silently.
    await drag(page, 'a1', 'a3');
    await page.waitForFunction(() => window.chaiba.state().board.premove === 'a1a3', null, { timeout: 5000 });
    await page.waitForFunction(() => window.chaiba.state().moves.length === 4, null, { timeout: 20000 });
    await page.waitForTimeout(300);
    now = await st();
    if (now.moves.length !== 4 || now.board.premove !== null || now.error) throw new Error(`the illegal premove: ${JSON.stringify(now.board)} ${now.moves} ${now.error}`);
    // Takeback after the reply: the person's move and the reply go; moves, FEN and PGN agree.
    await clickItem(page, 'match.takeback');
    await page.waitForFunction(() => window.chaiba.state().moves.length === 2, null, { timeout: 5000 });
    now = await st();
    const chess = new Chess();
    for (const m of now.moves) chess.move(m);
    if (now.fen.split(' ').slice(0, 3).join(' ') !== chess.fen().split(' ').slice(0, 3).join(' ') || !/ w /.test(now.fen))
      throw new Error(`after the takeback: ${now.fen} (${now.moves})`);
    const pgn = new Chess();
    pgn.loadPgn(await page.evaluate(() => window.chaiba.pgn()));
    if (JSON.stringify(pgn.history()) !== JSON.stringify(now.moves)) throw new Error(`PGN ${pgn.history()} vs ${now.moves}`);
    if (now.analysis.total !== now.moves.length + 1) throw new Error(`the analysis follows ${now.analysis.total} positions`);
    // Takeback while the engine thinks: its answer never lands.
    const before = now.fen;
    await drag(page, 'g1', 'f3');
    await page.waitForFunction(() => window.chaiba.state().moves.length === 3 && window.chaiba.state().thinking);
    await clickItem(page, 'match.takeback');
    await page.waitForFunction((f) => window.chaiba.state().fen === f, before, { timeout: 5000 });
    await page.waitForTimeout(9000); // longer than the engine takes
    now = await st();
    if (now.fen !== before || now.moves.length !== 2) throw new Error(`the cancelled search landed: ${now.fen} ${now.moves}`);
    // The stored game is the one after the takeback.
    await page.reload();
    await waitForFrames(page, 3);
    now = await st();
    if (now.fen !== before || now.moves.length !== 2) throw new Error(`after a reload: ${now.fen} ${now.moves}`);
    // Resign; Rematch plays the same two players, colours swapped, the person's side at the bottom.
    await page.evaluate(() => window.chaiba.start());
    await clickItem(page, 'match.resign');
    await page.waitForFunction(() => window.chaiba.state().status === 'finished', null, { timeout: 5000 });
    if ((await st()).canTakeBack) throw new Error('a resigned game offers a takeback');
    await clickItem(page, 'match.start');
    await page.waitForFunction(() => window.chaiba.state().status === 'running' && window.chaiba.state().moves.length === 0, null, { timeout: 5000 });
    now = await st();
    if (now.white !== 'engine:1' || now.black !== 'human' || !now.flipped) throw new Error(`rematch: ${now.white} vs ${now.black}, flipped ${now.flipped}`);
    errors.check();
    await context.close();
  }],
]);
await browser.close();
await server.close();
