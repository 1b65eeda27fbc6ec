// Browser tests of the board widget: a human move by drag-and-drop, by click-click, the
// promotion chooser, and that illegal drops change nothing.
// usage: node board_test.mjs SITE_DIR SCREENSHOT_DIR
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer, launchBrowser, collectErrors, waitForFrames, runTests } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const browser = await launchBrowser();

async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(server.url);
  await waitForFrames(page, 3);
  await page.evaluate(() => window.chaiba.newMatch({ white: 'human', black: 'human' }));
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
]);
await browser.close();
await server.close();
